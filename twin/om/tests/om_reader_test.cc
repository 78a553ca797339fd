// The OM reader refuses every kind of damage with a distinct kind and a message naming it.
#include "twin/om/om_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "twin/om/om_format.h"
#include "twin/om/om_writer.h"
#include "twin/om/sha256.h"
#include "twin/om/tests/binding_builders.h"

namespace asc_twin::om {
namespace {

using testing::FeatureMapBinding;
using testing::InputBinding;
using testing::OutputBinding;

// in0 + in1 -> fm[0:4096) ; fm + in0 -> out0 ; in1 copied to out1.
ModelDef TwoTaskModel() {
  ModelDef model;
  model.set_format_version(kStaticFormatVersion);
  model.set_name("chain");
  model.set_soc_version("Ascend910B1");
  model.set_npu_arch(2201);
  for (const char *name : {"x", "y"}) {
    TensorDef *t = model.add_inputs();
    t->set_name(name);
    t->set_data_type(0);
    t->add_dims(1024);
    t->set_size(4096);
  }
  for (const char *name : {"z", "w"}) {
    TensorDef *t = model.add_outputs();
    t->set_name(name);
    t->add_dims(1024);
    t->set_size(4096);
  }
  model.set_feature_map_size(4096);
  KernelTask *k1 = model.add_tasks()->mutable_kernel();
  k1->set_node_name("add1");
  k1->set_op_type("AddCustom");
  k1->set_kernel_binary_index(0);
  k1->set_kernel_name("add_custom");
  k1->set_block_dim(8);
  *k1->add_args() = InputBinding(0);
  *k1->add_args() = InputBinding(1);
  *k1->add_args() = FeatureMapBinding(0, 4096);
  k1->add_args()->set_scalar(1024);
  KernelTask *k2 = model.add_tasks()->mutable_kernel();
  *k2 = *k1;
  k2->set_node_name("add2");
  *k2->mutable_args(0) = FeatureMapBinding(0, 4096);
  *k2->mutable_args(1) = InputBinding(0);
  *k2->mutable_args(2) = OutputBinding(0);
  MemcpyTask *copy = model.add_tasks()->mutable_memcpy();
  *copy->mutable_src() = InputBinding(1);
  *copy->mutable_dst() = OutputBinding(1);
  copy->set_size(4096);
  return model;
}

std::string RandomBytes(std::mt19937 &rng, size_t n) {
  std::string s(n, '\0');
  for (char &c : s) c = static_cast<char>(rng());
  return s;
}

class OmReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const unsigned seed = std::random_device{}();
    std::printf("seed=%u\n", seed);
    rng_.seed(seed);
    binary_ = RandomBytes(rng_, 3000 + rng_() % 1000);
    constants_ = RandomBytes(rng_, 100);
    bytes_ = SerializeOm(TwoTaskModel(), {binary_}, constants_);
  }

  ReadError Refused(const std::string &bytes) {
    OmContainer container;
    ReadError error;
    EXPECT_FALSE(ReadOm(bytes.data(), bytes.size(), &container, &error));
    std::printf("refused: %s\n", error.message.c_str());
    return error;
  }

  ReadError RefusedModel(const ModelDef &model) { return Refused(SerializeOm(model, {binary_}, constants_)); }

  void PutU32(std::string *bytes, size_t at, uint32_t value) { std::memcpy(&(*bytes)[at], &value, 4); }
  void PutU64(std::string *bytes, size_t at, uint64_t value) { std::memcpy(&(*bytes)[at], &value, 8); }
  size_t Entry(size_t index) { return kHeaderSize + index * kPartitionEntrySize; }

  std::mt19937 rng_;
  std::string binary_;
  std::string constants_;
  std::string bytes_;
};

TEST_F(OmReaderTest, ValidContainerRoundTrips) {
  OmContainer container;
  ReadError error;
  ASSERT_TRUE(ReadOm(bytes_.data(), bytes_.size(), &container, &error)) << error.message;
  EXPECT_EQ(container.format_version, kStaticFormatVersion);
  EXPECT_EQ(container.soc_version, "Ascend910B1");
  EXPECT_EQ(container.npu_arch, 2201u);
  ASSERT_EQ(container.kernel_binaries.size(), 1u);
  EXPECT_EQ(
      std::string(reinterpret_cast<const char *>(container.kernel_binaries[0].data), container.kernel_binaries[0].size),
      binary_);
  EXPECT_EQ(std::string(reinterpret_cast<const char *>(container.constants.data), container.constants.size),
            constants_);
  EXPECT_EQ(container.model_def.SerializeAsString(), TwoTaskModel().SerializeAsString());
  EXPECT_EQ(std::memcmp(bytes_.data(), "IMOD", 4), 0);
}

TEST_F(OmReaderTest, TruncatedAnywhere) {
  for (size_t keep : {size_t{0}, size_t{3}, size_t{100}, kHeaderSize + 10, bytes_.size() - 1,
                      static_cast<size_t>(rng_() % bytes_.size())}) {
    EXPECT_EQ(Refused(bytes_.substr(0, keep)).kind, ReadErrorKind::kTruncated) << "kept " << keep;
  }
}

TEST_F(OmReaderTest, TrailingBytes) { EXPECT_EQ(Refused(bytes_ + "x").kind, ReadErrorKind::kTrailingBytes); }

TEST_F(OmReaderTest, WrongMagic) {
  bytes_[0] = 'X';
  const ReadError error = Refused(bytes_);
  EXPECT_EQ(error.kind, ReadErrorKind::kBadMagic);
  EXPECT_NE(error.message.find("magic"), std::string::npos);
}

TEST_F(OmReaderTest, NewerVersionRefused) {
  PutU32(&bytes_, kOffFormatVersion, kFormatVersion + 1);
  ResealHeader(&bytes_);
  const ReadError error = Refused(bytes_);
  EXPECT_EQ(error.kind, ReadErrorKind::kUnsupportedVersion);
  EXPECT_NE(error.message.find("newer"), std::string::npos);
  PutU32(&bytes_, kOffFormatVersion, kCannModelVersion);
  EXPECT_NE(Refused(bytes_).message.find("CANN"), std::string::npos);
}

TEST_F(OmReaderTest, BadHeaderSize) {
  PutU32(&bytes_, kOffHeaderSize, 256);
  EXPECT_EQ(Refused(bytes_).kind, ReadErrorKind::kBadHeaderSize);
}

TEST_F(OmReaderTest, UnknownFlagAndReservedBytes) {
  std::string flagged = bytes_;
  PutU32(&flagged, kOffFlags, 4);
  ResealHeader(&flagged);
  EXPECT_EQ(Refused(flagged).kind, ReadErrorKind::kBadHeaderField);
  bytes_[kOffReserved + 5] = 1;
  ResealHeader(&bytes_);
  EXPECT_EQ(Refused(bytes_).kind, ReadErrorKind::kBadHeaderField);
}

TEST_F(OmReaderTest, BadHeaderChecksum) {
  bytes_[kOffNpuArch] ^= 1;  // any header byte covered by the digest
  EXPECT_EQ(Refused(bytes_).kind, ReadErrorKind::kBadHeaderChecksum);
  std::string table_damage = SerializeOm(TwoTaskModel(), {binary_}, constants_);
  table_damage[Entry(1) + kOffEntrySha256] ^= 0x40;
  EXPECT_EQ(Refused(table_damage).kind, ReadErrorKind::kBadHeaderChecksum);
}

TEST_F(OmReaderTest, BadPartitionChecksum) {
  uint64_t offset;
  std::memcpy(&offset, &bytes_[Entry(1) + kOffEntryOffset], 8);
  bytes_[offset + rng_() % binary_.size()] ^= 0x01;  // a flipped bit inside the kernel binary
  const ReadError error = Refused(bytes_);
  EXPECT_EQ(error.kind, ReadErrorKind::kBadPartitionChecksum);
  EXPECT_NE(error.message.find("KERNEL_BINARY"), std::string::npos);
}

TEST_F(OmReaderTest, OffsetOrLengthOutOfRange) {
  std::string beyond = bytes_;
  PutU64(&beyond, Entry(1) + kOffEntryLength, bytes_.size());
  ResealHeader(&beyond);
  EXPECT_EQ(Refused(beyond).kind, ReadErrorKind::kPartitionOutOfRange);
  std::string wrap = bytes_;
  PutU64(&wrap, Entry(1) + kOffEntryLength, UINT64_MAX - 10);
  ResealHeader(&wrap);
  EXPECT_EQ(Refused(wrap).kind, ReadErrorKind::kPartitionOutOfRange);
  std::string into_table = bytes_;
  PutU64(&into_table, Entry(0) + kOffEntryOffset, kHeaderSize);
  ResealHeader(&into_table);
  EXPECT_EQ(Refused(into_table).kind, ReadErrorKind::kPartitionOutOfRange);
}

TEST_F(OmReaderTest, OverlappingPartitions) {
  uint64_t model_offset, binary_offset;
  std::memcpy(&model_offset, &bytes_[Entry(0) + kOffEntryOffset], 8);
  std::memcpy(&binary_offset, &bytes_[Entry(1) + kOffEntryOffset], 8);
  PutU64(&bytes_, Entry(1) + kOffEntryOffset, model_offset + 1);
  ResealHeader(&bytes_);
  const ReadError error = Refused(bytes_);
  EXPECT_EQ(error.kind, ReadErrorKind::kPartitionOverlap);
  EXPECT_NE(error.message.find("overlaps"), std::string::npos);
}

TEST_F(OmReaderTest, NonZeroPaddingIsRefused) {
  uint64_t model_offset;
  std::memcpy(&model_offset, &bytes_[Entry(0) + kOffEntryOffset], 8);
  ASSERT_GT(model_offset, kHeaderSize + 3 * kPartitionEntrySize);  // the writer aligned it: a gap exists
  bytes_[model_offset - 1] = 7;
  const ReadError error = Refused(bytes_);
  EXPECT_EQ(error.kind, ReadErrorKind::kBadPadding);
  EXPECT_NE(error.message.find("offset " + std::to_string(model_offset - 1)), std::string::npos);
}

TEST_F(OmReaderTest, EverySingleByteChangeIsRefused) {
  // No byte of a valid container escapes validation: header and table by the header digest,
  // partitions by theirs, gaps by the zero-padding rule.
  const std::string small = SerializeOm(TwoTaskModel(), {RandomBytes(rng_, 50)}, RandomBytes(rng_, 20));
  for (size_t at = 0; at < small.size(); ++at) {
    std::string damaged = small;
    damaged[at] = static_cast<char>(damaged[at] ^ (1 + rng_() % 255));
    OmContainer container;
    ReadError error;
    ASSERT_FALSE(ReadOm(damaged.data(), damaged.size(), &container, &error)) << "byte " << at << " of " << small.size();
    ASSERT_FALSE(error.message.empty());
  }
}

TEST_F(OmReaderTest, UnknownPartitionTypeAndMissingModelDef) {
  std::string unknown = bytes_;
  PutU32(&unknown, Entry(2) + kOffEntryType, 9);
  ResealHeader(&unknown);
  EXPECT_EQ(Refused(unknown).kind, ReadErrorKind::kBadPartitionEntry);
  PutU32(&bytes_, Entry(0) + kOffEntryType, static_cast<uint32_t>(PartitionType::kKernelBinary));
  ResealHeader(&bytes_);
  EXPECT_EQ(Refused(bytes_).message, "invalid OM: no MODEL_DEF partition");
}

TEST_F(OmReaderTest, ModelDefThatDoesNotParse) {
  // Garbage MODEL_DEF bytes with a correct partition digest and header: only the parse fails.
  uint64_t offset, length;
  std::memcpy(&offset, &bytes_[Entry(0) + kOffEntryOffset], 8);
  std::memcpy(&length, &bytes_[Entry(0) + kOffEntryLength], 8);
  for (uint64_t i = 0; i < length; ++i) bytes_[offset + i] = static_cast<char>(0xff);
  const Sha256Digest digest = Sha256::Of(bytes_.data() + offset, length);
  std::memcpy(&bytes_[Entry(0) + kOffEntrySha256], digest.data(), 32);
  ResealHeader(&bytes_);
  EXPECT_EQ(Refused(bytes_).kind, ReadErrorKind::kBadModelDef);
}

TEST_F(OmReaderTest, ModelDefDisagreesWithHeader) {
  std::string bytes = bytes_;
  // Header says Ascend910B1/2201; rewrite its arch field and reseal.
  PutU32(&bytes, kOffNpuArch, 3510);
  ResealHeader(&bytes);
  EXPECT_EQ(Refused(bytes).kind, ReadErrorKind::kModelDefMismatch);
}

TEST_F(OmReaderTest, ModelIndicesOutOfRange) {
  {
    ModelDef m = TwoTaskModel();
    m.mutable_tasks(0)->mutable_kernel()->set_kernel_binary_index(1);
    EXPECT_NE(RefusedModel(m).message.find("kernel binary 1"), std::string::npos);
  }
  {
    ModelDef m = TwoTaskModel();
    m.mutable_tasks(0)->mutable_kernel()->mutable_args(1)->set_input(2);
    const ReadError e = RefusedModel(m);
    EXPECT_EQ(e.kind, ReadErrorKind::kBadModelField);
    EXPECT_NE(e.message.find("input 2"), std::string::npos);
  }
  {
    ModelDef m = TwoTaskModel();
    m.mutable_tasks(1)->mutable_kernel()->mutable_args(2)->set_output(7);
    EXPECT_NE(RefusedModel(m).message.find("output 7"), std::string::npos);
  }
  {
    ModelDef m = TwoTaskModel();
    m.mutable_tasks(0)->mutable_kernel()->mutable_args(2)->mutable_feature_map()->set_offset(1);
    EXPECT_NE(RefusedModel(m).message.find("feature_map_size"), std::string::npos);
  }
  {
    ModelDef m = TwoTaskModel();
    m.mutable_tasks(0)->mutable_kernel()->mutable_args(2)->mutable_constant()->set_size(101);
    EXPECT_NE(RefusedModel(m).message.find("CONSTANTS"), std::string::npos);
  }
  {
    ModelDef m = TwoTaskModel();
    m.mutable_tasks(0)->mutable_kernel()->set_block_dim(0);
    EXPECT_NE(RefusedModel(m).message.find("block_dim"), std::string::npos);
  }
  {
    ModelDef m = TwoTaskModel();
    m.mutable_tasks(2)->mutable_memcpy()->set_size(4097);
    EXPECT_NE(RefusedModel(m).message.find("memcpy"), std::string::npos);
  }
  {
    ModelDef m = TwoTaskModel();
    m.mutable_tasks(0)->mutable_kernel()->mutable_args(3)->Clear();
    EXPECT_NE(RefusedModel(m).message.find("no binding kind"), std::string::npos);
  }
  {
    ModelDef m = TwoTaskModel();
    m.add_tasks();
    EXPECT_NE(RefusedModel(m).message.find("neither"), std::string::npos);
  }
}

}  // namespace
}  // namespace asc_twin::om
