// Every trap: the launch fails with one line naming the API and the cause,
// the process lives on, and the block state is reset for the next launch.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "launch_harness.h"
#include "test_kernels.h"

using namespace asc_twin_test;

namespace {

struct TrapCase {
  uint32_t which;
  const char* expect;  // substring of the message
};

LaunchResult RunTrap(uint32_t which, uint32_t blocks = 1) {
  DeviceMemory mem;
  const uint32_t n = 512;
  float* x = mem.AllocOf<float>(n);
  float* z = mem.AllocOf<float>(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  Args a;
  a.Add(x).Add(z).Add(n).Add(which);
  return Launch(__asc_twin_entry_trap_probe, "trap_probe", blocks, a, mem);
}

}  // namespace

class TrapTest : public ::testing::TestWithParam<TrapCase> {};

TEST_P(TrapTest, FailsWithOneLineCause) {
  const TrapCase c = GetParam();
  const LaunchResult r = RunTrap(c.which, 2);
  for (size_t b = 0; b < r.status.size(); ++b) {
    EXPECT_NE(r.status[b], 0) << "block " << b;
    EXPECT_NE(r.errors[b].find(c.expect), std::string::npos) << "message: " << r.errors[b];
    EXPECT_EQ(r.errors[b].find('\n'), std::string::npos);
  }
  std::printf("  trap %2u: %s\n", c.which, r.FirstError().c_str());
  // The same thread-free path works again right after a trap.
  const LaunchResult ok = RunTrap(99);
  EXPECT_TRUE(ok.ok()) << ok.FirstError();
}

INSTANTIATE_TEST_SUITE_P(
    AllTraps, TrapTest,
    ::testing::Values(
        TrapCase{0,
                 "TPipe::InitBuffer: UB capacity exceeded: 2 x 100000 B requested at offset 0, UB of Ascend910B1 is "
                 "196608 B"},
        TrapCase{1, "Add: src0 UB address 12 is not 32-byte aligned"}, TrapCase{2, "DataCopy(GM->UB): GM address"},
        TrapCase{3,
                 "DataCopy(GM->UB): count 7 x 4 B = 28 B is not a multiple of 32 B (the NPU rounds down to 0 B and "
                 "drops the tail; use DataCopyPad)"},
        TrapCase{4, "DataCopy(GM->UB): GM access"}, TrapCase{5, "TQue::DeQue: queue is empty (no EnQue before DeQue)"},
        TrapCase{6, "TQue::EnQue: queue is full (depth 1; DeQue missing?)"},
        TrapCase{7, "TQue::AllocTensor: no free buffer (all 2 buffers are allocated; FreeTensor missing?)"},
        TrapCase{8, "TQue::FreeTensor: tensor was not allocated from this queue"},
        TrapCase{9, "LocalTensor::operator[]: index 256 out of range for a LocalTensor of 256 elements"},
        TrapCase{10, "LocalTensor::GetValue: index 300 out of range"},
        TrapCase{11, "LocalTensor::SetValue: index 256 out of range"},
        TrapCase{12, "GlobalTensor::SetValue: GM access"},
        TrapCase{13, "Add: 257 elements exceed dst (a LocalTensor of 256 elements)"},
        TrapCase{14, "ascendc_assert: (n == 0) failed at"}, TrapCase{15, "DataCopyPad(UB->GM): GM access"},
        TrapCase{16, "TQue::FreeTensor: buffer is already free (double FreeTensor)"},
        TrapCase{17, "TQue::AllocTensor: buffers not initialised (call TPipe::InitBuffer first)"},
        TrapCase{18, "TPipe: a second TPipe was constructed while another is alive"},
        TrapCase{19, "Cast: RoundMode CAST_ODD is not supported for float->int32_t"},
        TrapCase{20, "TBuf::Get: 257 elements (1028 B) exceed the buffer of 1024 B"},
        TrapCase{21, "LocalTensor: [196576, 196640) exceeds the UB capacity of 196608 bytes"},
        TrapCase{22, "GlobalTensor::GetValue: GM access"},
        TrapCase{23, "TQue::EnQue: tensor was not allocated from this queue"},
        TrapCase{24, "TQue::FreeTensor: buffers not initialised (call TPipe::InitBuffer first)"},
        TrapCase{25, "TQue::EnQue: tensor is already in the queue"},
        TrapCase{26, "TQue::FreeTensor: tensor is still in the queue (DeQue it first)"}));

TEST(TrapMessages, GmMessageNamesRangeAndCause) {
  const LaunchResult r = RunTrap(4);
  EXPECT_NE(r.FirstError().find("is outside every device allocation"), std::string::npos) << r.FirstError();
  const LaunchResult s = RunTrap(2);
  EXPECT_NE(s.FirstError().find("is not aligned to sizeof(T) = 4"), std::string::npos) << s.FirstError();
}

TEST(TrapMessages, UbCapacityFollowsTheSoc) {
  // 2 x 100000 B fits the 256 KiB UB of Ascend310P3 but not 910B1's 192 KiB.
  DeviceMemory mem;
  float* x = mem.AllocOf<float>(512);
  float* z = mem.AllocOf<float>(512);
  Args a;
  a.Add(x).Add(z).Add(uint32_t{512}).Add(uint32_t{0});
  const Soc p310{"Ascend310P3", 2201 /* the arch this test build targets */, 262144};
  EXPECT_TRUE(Launch(__asc_twin_entry_trap_probe, "trap_probe", 1, a, mem, p310).ok());
  EXPECT_FALSE(Launch(__asc_twin_entry_trap_probe, "trap_probe", 1, a, mem).ok());
}

TEST(TrapMessages, StdExceptionIsCaught) {
  DeviceMemory mem;
  Args a;
  a.Add(mem.Alloc(64)).Add(mem.Alloc(64)).Add(uint32_t{4});
  const LaunchResult r = Launch(__asc_twin_entry_throws_std, "throws_std", 3, a, mem);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.FirstError().rfind("C++ exception: ", 0), 0u) << r.FirstError();
}

TEST(EntryValidation, RejectsBadEnvAndArgs) {
  DeviceMemory mem;
  alignas(4096) static uint8_t ub[196608];
  AscTwinBlockEnv env;
  AscTwinEnvInit(&env);
  env.block_idx = 0;
  env.block_num = 1;
  env.npu_arch = 2201;
  env.mem[ASC_TWIN_MEM_UB].base = ub;
  env.mem[ASC_TWIN_MEM_UB].size = sizeof(ub);
  env.gm_check = &DeviceMemory::Check;
  env.gm_ctx = &mem;
  Args a;
  a.Add(mem.Alloc(64)).Add(mem.Alloc(64)).Add(uint32_t{512}).Add(uint32_t{99});
  char err[256];
  ASSERT_EQ(__asc_twin_entry_trap_probe(&env, a.data(), a.size(), err, sizeof(err)), 0) << err;

  EXPECT_NE(__asc_twin_entry_trap_probe(&env, a.data(), a.size() - 8, err, sizeof(err)), 0);
  EXPECT_STREQ(err, "kernel entry: argument blob of 24 bytes, kernel takes 32 bytes (4 parameters)");

  AscTwinBlockEnv bad = env;
  bad.abi_version = 7;
  EXPECT_NE(__asc_twin_entry_trap_probe(&bad, a.data(), a.size(), err, sizeof(err)), 0);
  EXPECT_STREQ(err, "kernel entry: env abi_version 7, kernel built for twin ABI 3 (rebuild the kernel or the host)");

  bad = env;
  bad.npu_arch = 2002;
  EXPECT_NE(__asc_twin_entry_trap_probe(&bad, a.data(), a.size(), err, sizeof(err)), 0);
  EXPECT_STREQ(err, "kernel entry: kernel built for NpuArch 2201, device is NpuArch 2002");

  bad = env;
  bad.block_idx = 1;
  EXPECT_NE(__asc_twin_entry_trap_probe(&bad, a.data(), a.size(), err, sizeof(err)), 0);
  EXPECT_STREQ(err, "kernel entry: block_idx 1 not below block_num 1");

  EXPECT_NE(__asc_twin_entry_trap_probe(nullptr, a.data(), a.size(), err, sizeof(err)), 0);
  EXPECT_STREQ(err, "kernel entry: env is NULL");

  // Truncation keeps the NUL; a NULL err buffer is allowed.
  char tiny[8];
  EXPECT_NE(__asc_twin_entry_trap_probe(nullptr, a.data(), a.size(), tiny, sizeof(tiny)), 0);
  EXPECT_STREQ(tiny, "kernel ");
  EXPECT_NE(__asc_twin_entry_trap_probe(nullptr, a.data(), a.size(), nullptr, 0), 0);
}

// ABI 3's rule: a kernel reads a field after the memory table only where struct_size covers
// it. Hosts with a longer env (a newer runtime) and with a shorter one (down to the memory
// table) both run it; one shorter still is refused with one line.
TEST(EntryValidation, StructSizeDecidesWhichFieldsTheKernelReads) {
  DeviceMemory mem;
  alignas(4096) static uint8_t ub[196608];
  // A newer runtime's env: this header's fields and 64 bytes more the kernel knows nothing of.
  struct Longer {
    AscTwinBlockEnv env;
    uint8_t appended[64];
  } longer;
  AscTwinEnvInit(&longer.env);
  std::memset(longer.appended, 0xEE, sizeof(longer.appended));
  longer.env.struct_size = sizeof(Longer);
  longer.env.block_num = 1;
  longer.env.npu_arch = 2201;
  longer.env.mem[ASC_TWIN_MEM_UB].base = ub;
  longer.env.mem[ASC_TWIN_MEM_UB].size = sizeof(ub);
  longer.env.gm_check = &DeviceMemory::Check;
  longer.env.gm_ctx = &mem;
  Args a;
  a.Add(mem.Alloc(64)).Add(mem.Alloc(64)).Add(uint32_t{512}).Add(uint32_t{99});
  char err[256] = "";
  EXPECT_EQ(__asc_twin_entry_trap_probe(&longer.env, a.data(), a.size(), err, sizeof(err)), 0) << err;

  // An older host's env ending with the memory table: the GM check and everything after it are
  // garbage the kernel must not read (it then checks no GM access, as a host without gm_check).
  AscTwinBlockEnv shorter = longer.env;
  shorter.struct_size = AscendC::twin::kMinEnvSize;
  std::memset(reinterpret_cast<uint8_t*>(&shorter) + AscendC::twin::kMinEnvSize, 0xEE,
              sizeof(shorter) - AscendC::twin::kMinEnvSize);
  EXPECT_EQ(__asc_twin_entry_trap_probe(&shorter, a.data(), a.size(), err, sizeof(err)), 0) << err;

  shorter.struct_size = AscendC::twin::kMinEnvSize - 4;
  EXPECT_NE(__asc_twin_entry_trap_probe(&shorter, a.data(), a.size(), err, sizeof(err)), 0);
  EXPECT_EQ(std::string(err), "kernel entry: env struct_size " + std::to_string(AscendC::twin::kMinEnvSize - 4) +
                                  " is below the " + std::to_string(AscendC::twin::kMinEnvSize) +
                                  " bytes every ABI 3 env holds (rebuild the host)");
}

// An AIC block has the cube's memories and no UB: the entry accepts it, a UB queue traps.
TEST(EntryValidation, AnAicBlockWithoutUbRunsAndItsUbQueueTraps) {
  DeviceMemory mem;
  alignas(4096) static uint8_t l1[524288];
  AscTwinBlockEnv env;
  AscTwinEnvInit(&env);
  env.core_type = ASC_TWIN_CORE_AIC;
  env.block_num = 1;
  env.npu_arch = 2201;
  env.mem[ASC_TWIN_MEM_L1].base = l1;
  env.mem[ASC_TWIN_MEM_L1].size = sizeof(l1);
  env.gm_check = &DeviceMemory::Check;
  env.gm_ctx = &mem;
  Args a;
  a.Add(mem.Alloc(64)).Add(mem.Alloc(64)).Add(uint32_t{512}).Add(uint32_t{99});
  char err[256] = "";
  EXPECT_NE(__asc_twin_entry_trap_probe(&env, a.data(), a.size(), err, sizeof(err)), 0);
  EXPECT_EQ(std::string(err).rfind("TPipe::InitBuffer: this block runs on an AIC, which has no UB", 0), 0u) << err;

  env.core_type = ASC_TWIN_CORE_AIV;  // an AIV must have a UB
  EXPECT_NE(__asc_twin_entry_trap_probe(&env, a.data(), a.size(), err, sizeof(err)), 0);
  EXPECT_STREQ(err, "kernel entry: env gives the AIV block no UB (mem[ASC_TWIN_MEM_UB] is NULL)");
}

// Observes the block state of this binary, so it is meaningful when the kernels
// are compiled in (trap_test); in trap_test_clang the kernels keep their own copy.
TEST(BlockState, ClearedAfterEachBlock) {
  // Outside a launch there is no block environment: a TPipe traps.
  EXPECT_THROW({ AscendC::TPipe pipe; }, AscendC::twin::Trap);
  EXPECT_EQ(AscendC::GetTPipePtr(), nullptr);
  // After a trapped launch on this thread the state is clean again.
  alignas(4096) static uint8_t ub[196608];
  DeviceMemory mem;
  AscTwinBlockEnv env;
  AscTwinEnvInit(&env);
  env.block_num = 1;
  env.npu_arch = 2201;
  env.mem[ASC_TWIN_MEM_UB].base = ub;
  env.mem[ASC_TWIN_MEM_UB].size = sizeof(ub);
  env.gm_check = &DeviceMemory::Check;
  env.gm_ctx = &mem;
  Args a;
  a.Add(mem.Alloc(2048)).Add(mem.Alloc(2048)).Add(uint32_t{512}).Add(uint32_t{5});
  char err[256];
  EXPECT_NE(__asc_twin_entry_trap_probe(&env, a.data(), a.size(), err, sizeof(err)), 0);
  EXPECT_EQ(AscendC::GetTPipePtr(), nullptr);
  EXPECT_EQ(AscendC::twin::Block().ub_base, nullptr);
  EXPECT_THROW({ AscendC::TPipe pipe; }, AscendC::twin::Trap);
}

// The block slot (block_slot_tpoff): the harness offers it to odd blocks. Either way the
// API reaches the binary's own state; with the slot, the slot holds it during the block and is
// null again afterwards (the harness fails a block otherwise), and the kernels built by clang
// (trap_test_clang, as bisheng builds them) really read it.
TEST(BlockState, ReachedThroughTheHostsBlockSlot) {
  DeviceMemory mem;
  const uint32_t blocks = 6;
  int32_t* out = mem.AllocOf<int32_t>(2 * blocks);
  for (uint32_t i = 0; i < 2 * blocks; ++i) out[i] = -1;
  Args a;
  a.Add(out);
  const LaunchResult r = Launch(__asc_twin_entry_block_slot_probe, "block_slot_probe", blocks, a, mem);
  ASSERT_TRUE(r.ok()) << r.FirstError();
  for (uint32_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(out[2 * b], 1) << "block " << b;
    EXPECT_EQ(out[2 * b + 1], b % 2 == 1 && ASC_TWIN_BLOCK_SLOT_SUPPORTED ? 1 : 0) << "block " << b;
  }
#ifdef ASC_TWIN_TEST_KERNELS_BY_CLANG
  EXPECT_EQ(asc_twin_test_kernels_read_block_slot(), 1);
#endif
}
