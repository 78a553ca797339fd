#include "twin/om/om_writer.h"

#include <algorithm>
#include <cstring>

#include "twin/om/om_format.h"
#include "twin/om/sha256.h"

namespace asc_twin::om {
namespace {

void StoreU32(std::string *out, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i) (*out)[at + i] = static_cast<char>(value >> (8 * i));
}

void StoreU64(std::string *out, size_t at, uint64_t value) {
  for (int i = 0; i < 8; ++i) (*out)[at + i] = static_cast<char>(value >> (8 * i));
}

size_t AlignUp(size_t value) { return (value + kPartitionAlignment - 1) / kPartitionAlignment * kPartitionAlignment; }

}  // namespace

std::string SerializeOm(const ModelDef &model, const std::vector<std::string> &kernel_binaries,
                        const std::string &constants, const std::string &graph) {
  struct Part {
    PartitionType type;
    std::string bytes;
  };
  std::vector<Part> parts;
  parts.push_back({PartitionType::kModelDef, model.SerializeAsString()});
  for (const std::string &binary : kernel_binaries) parts.push_back({PartitionType::kKernelBinary, binary});
  if (!constants.empty()) parts.push_back({PartitionType::kConstants, constants});
  if (!graph.empty()) parts.push_back({PartitionType::kGraph, graph});

  const size_t table_end = kHeaderSize + parts.size() * kPartitionEntrySize;
  std::string out(table_end, '\0');
  size_t cursor = AlignUp(table_end);
  for (size_t i = 0; i < parts.size(); ++i) {
    const size_t entry = kHeaderSize + i * kPartitionEntrySize;
    StoreU32(&out, entry + kOffEntryType, static_cast<uint32_t>(parts[i].type));
    StoreU64(&out, entry + kOffEntryOffset, cursor);
    StoreU64(&out, entry + kOffEntryLength, parts[i].bytes.size());
    const Sha256Digest digest = Sha256::Of(parts[i].bytes.data(), parts[i].bytes.size());
    std::memcpy(&out[entry + kOffEntrySha256], digest.data(), 32);
    out.resize(cursor, '\0');
    out += parts[i].bytes;
    cursor = AlignUp(out.size());
  }
  StoreU32(&out, kOffMagic, kMagic);
  StoreU32(&out, kOffFormatVersion, model.format_version());
  StoreU32(&out, kOffHeaderSize, kHeaderSize);
  StoreU32(&out, kOffPartitionCount, static_cast<uint32_t>(parts.size()));
  StoreU32(&out, kOffFlags, graph.empty() ? 0u : kFlagRequiresPython);
  StoreU32(&out, kOffNpuArch, model.npu_arch());
  std::memcpy(&out[kOffSocVersion], model.soc_version().data(),
              std::min(model.soc_version().size(), kSocVersionCapacity - 1));
  StoreU64(&out, kOffFileSize, out.size());
  ResealHeader(&out);
  return out;
}

void ResealHeader(std::string *container) {
  if (container->size() < kHeaderSize) return;
  uint32_t count = 0;
  for (int i = 0; i < 4; ++i) count |= uint32_t{static_cast<uint8_t>((*container)[kOffPartitionCount + i])} << (8 * i);
  const size_t table_end = std::min(container->size(), kHeaderSize + size_t{count} * kPartitionEntrySize);
  std::memset(&(*container)[kOffHeaderSha256], 0, 32);
  const Sha256Digest digest = Sha256::Of(container->data(), table_end);
  std::memcpy(&(*container)[kOffHeaderSha256], digest.data(), 32);
}

}  // namespace asc_twin::om
