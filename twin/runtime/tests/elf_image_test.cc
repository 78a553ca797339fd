// ELF and .ascend.meta parsing before load: raw device binary, host object extraction,
// truncated / wrong-magic / missing-section inputs, wrong arch, meta text errors.
#include <elf.h>

#include <cstring>

#include "twin/runtime/internal/device_process.h"
#include "twin/runtime/internal/elf_image.h"
#include "twin/runtime/internal/kernel_binary.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

const SocSpec &Soc(const char *name) {
  const SocSpec *soc = FindSoc(name);
  EXPECT_NE(soc, nullptr) << name;
  return *soc;
}

// A device process of SoC `name` over a fresh GM arena (started on the first load).
std::shared_ptr<DeviceProcess> Dev(const char *name) {
  StatusOr<GmArena *> arena = GmArena::Create();
  EXPECT_TRUE(arena.ok()) << arena.status().message();
  return std::make_shared<DeviceProcess>(std::shared_ptr<GmArena>(arena.value()), Soc(name));
}

TEST(ElfImage, ReadsDeviceBinaryMeta) {
  std::vector<uint8_t> bytes = ReadFile(KernelPath("k2201"));
  StatusOr<DeviceImage> image = ReadKernelBinary(bytes.data(), bytes.size());
  ASSERT_TRUE(image.ok()) << image.status().message();
  EXPECT_FALSE(image.value().from_host_object);
  EXPECT_EQ(image.value().meta.abi, 3u);
  EXPECT_EQ(image.value().meta.npu_arch, 2201u);
  EXPECT_EQ(image.value().meta.npu_arch_flag, "dav-2201");
  EXPECT_EQ(image.value().meta.kernels,
            (std::vector<std::string>{"vadd_f32", "empty_kernel", "trap_on_block", "block_env", "gm_overrun"}));
  EXPECT_EQ(image.value().bytes, bytes);
}

TEST(ElfImage, ExtractsDeviceBinaryFromHostObject) {
  std::vector<uint8_t> host = ReadFile(KernelPath("khost"));
  std::vector<uint8_t> device = ReadFile(KernelPath("k2201"));
  StatusOr<DeviceImage> image = ReadKernelBinary(host.data(), host.size());
  ASSERT_TRUE(image.ok()) << image.status().message();
  EXPECT_TRUE(image.value().from_host_object);
  EXPECT_EQ(image.value().bytes, device);  // exactly the section, as llvm-objcopy -O binary gives
}

TEST(ElfImage, RejectsTruncatedAtEveryInterestingLength) {
  std::vector<uint8_t> bytes = ReadFile(KernelPath("k2201"));
  for (size_t length :
       {size_t{1}, size_t{16}, sizeof(Elf64_Ehdr) - 1, sizeof(Elf64_Ehdr) + 10, bytes.size() / 2, bytes.size() - 1}) {
    StatusOr<DeviceImage> image = ReadKernelBinary(bytes.data(), length);
    ASSERT_FALSE(image.ok()) << "length " << length;
    EXPECT_EQ(image.status().code(), ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(Contains(image.status().message(), "truncated")) << image.status().message();
  }
}

TEST(ElfImage, RejectsWrongMagicClassAndMachine) {
  std::vector<uint8_t> bytes = ReadFile(KernelPath("k2201"));
  std::vector<uint8_t> bad = bytes;
  bad[1] = 'X';
  StatusOr<DeviceImage> image = ReadKernelBinary(bad.data(), bad.size());
  EXPECT_EQ(image.status().code(), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(image.status().message(), "wrong magic")) << image.status().message();
  bad = bytes;
  bad[EI_CLASS] = ELFCLASS32;
  EXPECT_TRUE(Contains(ReadKernelBinary(bad.data(), bad.size()).status().message(), "64-bit"));
  bad = bytes;
  const uint16_t arm = EM_ARM;
  std::memcpy(bad.data() + offsetof(Elf64_Ehdr, e_machine), &arm, 2);
  EXPECT_TRUE(Contains(ReadKernelBinary(bad.data(), bad.size()).status().message(), "ELF machine 40"));
  const std::string text = "definitely not an ELF file, but long enough to hold a header.........";
  EXPECT_EQ(ReadKernelBinary(text.data(), text.size()).status().code(), ACL_ERROR_INVALID_PARAM);
}

TEST(ElfImage, RejectsCorruptSectionTable) {
  std::vector<uint8_t> bytes = ReadFile(KernelPath("k2201"));
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  std::vector<uint8_t> bad = bytes;
  Elf64_Ehdr broken = header;
  broken.e_shstrndx = static_cast<uint16_t>(header.e_shnum + 3);
  std::memcpy(bad.data(), &broken, sizeof(broken));
  EXPECT_TRUE(Contains(ReadKernelBinary(bad.data(), bad.size()).status().message(), "name table index"));
  broken = header;
  broken.e_shoff = bytes.size() - 8;
  std::memcpy(bad.data(), &broken, sizeof(broken));
  EXPECT_TRUE(Contains(ReadKernelBinary(bad.data(), bad.size()).status().message(), "truncated"));
}

TEST(ElfImage, RejectsMissingSections) {
  std::vector<uint8_t> bytes = ReadFile(KernelPath("knometa"));
  StatusOr<DeviceImage> image = ReadKernelBinary(bytes.data(), bytes.size());
  EXPECT_EQ(image.status().code(), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(image.status().message(), "no .ascend.meta section")) << image.status().message();
  // A host object whose .aicore_binary is renamed has nothing to extract.
  std::vector<uint8_t> host = ReadFile(KernelPath("khost"));
  const std::string name = ".aicore_binary";
  auto at = std::search(host.begin(), host.end(), name.begin(), name.end());
  ASSERT_NE(at, host.end());
  at[1] = 'X';
  image = ReadKernelBinary(host.data(), host.size());
  EXPECT_EQ(image.status().code(), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(image.status().message(), "has no .aicore_binary section")) << image.status().message();
}

TEST(KernelMetaText, ParsesAndRejects) {
  using namespace std::string_literals;  // ""s keeps the NUL and what follows it: the parser stops at the NUL
  StatusOr<KernelMeta> ok =
      ParseKernelMeta("# comment\nabi=3\r\nnpu_arch = 3510\nfuture=x\nkernel=a_1\nkernel=b\0junk"s);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok.value().npu_arch, 3510u);
  EXPECT_EQ(ok.value().kernels, (std::vector<std::string>{"a_1", "b"}));
  const std::pair<const char *, const char *> bad[] = {
      {"npu_arch=2201\nkernel=a\n", "no abi= line"},
      {"abi=1\nnpu_arch=2201\nkernel=a\n",
       "built for twin ABI 1, this runtime implements ABI 3: rebuild the kernel with the current bisheng"},
      {"abi=2\nnpu_arch=2201\nkernel=a\n",
       "built for twin ABI 2, this runtime implements ABI 3: rebuild the kernel with the current bisheng"},
      {"abi=4\nnpu_arch=2201\nkernel=a\n", "twin ABI 4"},
      {"abi=3\nkernel=a\n", "no npu_arch= line"},
      {"abi=3\nnpu_arch=22x1\nkernel=a\n", "npu_arch='22x1'"},
      {"abi=3\nnpu_arch=2201\n", "no kernel= line"},
      {"abi=3\nnpu_arch=2201\nkernel=a\nkernel=a\n", "twice"},
      {"abi=3\nnpu_arch=2201\nkernel=1bad\n", "not a C identifier"},
      {"abi=3\nnpu_arch\n", "not key=value"},
  };
  for (const auto &[text, expected] : bad) {
    StatusOr<KernelMeta> meta = ParseKernelMeta(text);
    ASSERT_FALSE(meta.ok()) << text;
    EXPECT_EQ(meta.status().code(), ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(Contains(meta.status().message(), expected)) << meta.status().message();
  }
}

TEST(KernelBinaryLoad, WrongArchIsRefusedNamingBothArches) {
  std::vector<uint8_t> bytes = ReadFile(KernelPath("k3510"));
  StatusOr<std::shared_ptr<KernelBinary>> binary = KernelBinary::Load(bytes.data(), bytes.size(), Dev("Ascend910B1"));
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.status().code(), ACL_ERROR_RT_SOC_VERSION);
  const std::string &msg = binary.status().message();
  EXPECT_TRUE(Contains(msg, "NpuArch 3510 (dav-3510)")) << msg;
  EXPECT_TRUE(Contains(msg, "Ascend910B1 has NpuArch 2201")) << msg;
  // The same bytes load on a device of their arch.
  binary = KernelBinary::Load(bytes.data(), bytes.size(), Dev("Ascend950PR_9599"));
  ASSERT_TRUE(binary.ok()) << binary.status().message();
}

TEST(KernelBinaryLoad, LoadsResolvesAndReloads) {
  std::vector<uint8_t> bytes = ReadFile(KernelPath("k2201"));
  for (int round = 0; round < 3; ++round) {  // load/unload repeatedly: no stale dlopen reuse
    StatusOr<std::shared_ptr<KernelBinary>> binary = KernelBinary::Load(bytes.data(), bytes.size(), Dev("Ascend910B4"));
    ASSERT_TRUE(binary.ok()) << binary.status().message();
    StatusOr<std::shared_ptr<const Kernel>> vadd = binary.value()->FindKernel("vadd_f32");
    ASSERT_TRUE(vadd.ok());
    EXPECT_EQ(vadd.value()->params, 4u);
    EXPECT_EQ(vadd.value()->args_size, 32u);
    StatusOr<std::shared_ptr<const Kernel>> missing = binary.value()->FindKernel("add_custom");
    EXPECT_EQ(missing.status().code(), ACL_ERROR_RT_KERNEL_LOOKUP);
    EXPECT_TRUE(
        Contains(missing.status().message(), "it has: vadd_f32, empty_kernel, trap_on_block, block_env, gm_overrun"))
        << missing.status().message();
  }
}

TEST(KernelBinaryLoad, LoadsFromHostObject) {
  std::vector<uint8_t> bytes = ReadFile(KernelPath("khost"));
  StatusOr<std::shared_ptr<KernelBinary>> binary = KernelBinary::Load(bytes.data(), bytes.size(), Dev("Ascend910B1"));
  ASSERT_TRUE(binary.ok()) << binary.status().message();
  EXPECT_TRUE(binary.value()->FindKernel("block_env").ok());
}

}  // namespace
}  // namespace asc_twin::rt::testing
