// MemoryTable and the kernels' GM checker: exact bounds, the 32-byte padding CANN adds,
// random allocations against a scalar reference, and concurrent checks during alloc/free.
#include "twin/runtime/internal/memory_table.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

const char *P(uintptr_t value) { return reinterpret_cast<const char *>(value); }

TEST(MemoryTable, BoundsIncludeCannPadding) {
  MemoryTable table;
  StatusOr<void *> a = table.Allocate(100, 0);
  ASSERT_TRUE(a.ok()) << a.status().message();
  const auto base = reinterpret_cast<uintptr_t>(a.value());
  EXPECT_EQ(base % kDeviceMemAlignment, 0u);
  EXPECT_EQ(MemoryTable::AccessibleSize(100), 160u);  // round up to 32, plus 32
  EXPECT_TRUE(table.Contains(P(base), 100));
  EXPECT_TRUE(table.Contains(P(base), 160));
  EXPECT_FALSE(table.Contains(P(base), 161));
  EXPECT_TRUE(table.Contains(P(base + 159), 1));
  EXPECT_FALSE(table.Contains(P(base + 160), 1));
  EXPECT_FALSE(table.Contains(P(base - 1), 2));
  EXPECT_TRUE(table.Contains(P(base + 10), 0));
  EXPECT_FALSE(table.Contains(P(UINTPTR_MAX - 4), 16));  // wrap-around
  EXPECT_EQ(MemoryTable::GmCheck(&table, P(base), 160), 1);
  EXPECT_EQ(MemoryTable::GmCheck(&table, P(base), 161), 0);
  uintptr_t found = 0;
  size_t size = 0;
  ASSERT_TRUE(table.Lookup(P(base + 99), &found, &size));
  EXPECT_EQ(found, base);
  EXPECT_EQ(size, 100u);
  ASSERT_TRUE(table.Free(a.value()).ok());
  EXPECT_FALSE(table.Contains(P(base), 1));
  EXPECT_EQ(table.Free(a.value()).code(), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(table.Allocate(0, 0).status().code(), ACL_ERROR_INVALID_PARAM);
}

TEST(MemoryTable, RandomAllocationsMatchReference) {
  MemoryTable table;
  struct Live {
    uintptr_t base;
    size_t size;
  };
  std::vector<Live> live;
  std::uniform_int_distribution<size_t> sizes(1, 20000);
  for (int round = 0; round < 300; ++round) {
    if (live.empty() || Rng()() % 3 != 0) {
      const size_t size = sizes(Rng());
      StatusOr<void *> ptr = table.Allocate(size, 0);
      ASSERT_TRUE(ptr.ok());
      live.push_back({reinterpret_cast<uintptr_t>(ptr.value()), size});
    } else {
      const size_t victim = Rng()() % live.size();
      ASSERT_TRUE(table.Free(reinterpret_cast<void *>(live[victim].base)).ok());
      live.erase(live.begin() + static_cast<long>(victim));
    }
    // Probe random ranges around live allocations; compare with a linear scan.
    for (int probe = 0; probe < 20 && !live.empty(); ++probe) {
      const Live &near = live[Rng()() % live.size()];
      const uintptr_t at = near.base + (Rng()() % (near.size + 200)) - 100;
      const uint64_t len = Rng()() % 300;
      bool expected = false;
      for (const Live &l : live) {
        expected |= at >= l.base && at + len <= l.base + MemoryTable::AccessibleSize(l.size);
      }
      ASSERT_EQ(table.Contains(P(at), len), expected) << "at base+" << (at - near.base) << " len " << len;
    }
  }
  EXPECT_EQ(table.LiveCount(), live.size());
}

TEST(MemoryTable, ConcurrentChecksWhileAllocating) {
  MemoryTable table;
  StatusOr<void *> fixed = table.Allocate(4096, 0);
  ASSERT_TRUE(fixed.ok());
  const auto base = reinterpret_cast<uintptr_t>(fixed.value());
  std::atomic<bool> stop{false};
  std::atomic<long> wrong{0};
  std::thread checker([&] {
    while (!stop.load()) {
      if (!table.Contains(P(base + 100), 1000)) ++wrong;
      if (table.Contains(P(base + 4000), 1000)) ++wrong;
    }
  });
  for (int i = 0; i < 2000; ++i) {
    StatusOr<void *> ptr = table.Allocate(64 + static_cast<size_t>(i % 512), 1);
    ASSERT_TRUE(ptr.ok());
    ASSERT_TRUE(table.Free(ptr.value()).ok());
  }
  stop = true;
  checker.join();
  EXPECT_EQ(wrong.load(), 0);
  table.FreeAllOf(0);
  EXPECT_EQ(table.LiveCount(), 0u);
}

// aclrtHostRegister's table side: exact bounds (no CANN padding), overlap refused in both
// directions, free/unregister mix-ups refused, and the GM checker's cache dropped on unregister.
TEST(MemoryTable, HostRegistrationBoundsOverlapAndErrors) {
  const size_t pages = 1 + Rng()() % 8, size = pages * 4096 - Rng()() % 4000;
  std::printf("host registration: %zu bytes\n", size);
  void *host = std::aligned_alloc(kDeviceMemAlignment, 3 * 4096 + pages * 4096);
  ASSERT_NE(host, nullptr);
  const auto base = reinterpret_cast<uintptr_t>(host) + 4096;
  {
    MemoryTable table;
    StatusOr<void *> dev = table.Allocate(100, 0);
    ASSERT_TRUE(dev.ok());
    EXPECT_EQ(table.RegisterHost(const_cast<char *>(P(base + 8)), size, 0).code(), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(table.RegisterHost(const_cast<char *>(P(base)), 0, 0).code(), ACL_ERROR_INVALID_PARAM);
    // a device allocation's accessible range is taken
    Status on_device = table.RegisterHost(dev.value(), 4096, 0);
    EXPECT_EQ(on_device.code(), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(on_device.message().find("overlaps the device allocation"), std::string::npos) << on_device.message();
    ASSERT_TRUE(table.RegisterHost(const_cast<char *>(P(base)), size, 0).ok());
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(base), size), 1);
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(base + size - 1), 1), 1);
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(base), size + 1), 0);  // no padding past the range
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(base - 1), 1), 0);
    // overlaps from below (starting on an earlier page) and inside are refused
    EXPECT_EQ(table.RegisterHost(const_cast<char *>(P(base - 4096)), 4097, 0).code(), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(table.RegisterHost(const_cast<char *>(P(base)), 1, 0).code(), ACL_ERROR_INVALID_PARAM);
    // adjacent below is fine
    ASSERT_TRUE(table.RegisterHost(const_cast<char *>(P(base - 4096)), 4096, 0).ok());
    Status freed = table.Free(const_cast<char *>(P(base)));
    EXPECT_EQ(freed.code(), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_NE(freed.message().find("aclrtHostUnregister"), std::string::npos) << freed.message();
    EXPECT_EQ(table.UnregisterHost(dev.value()).code(), ACL_ERROR_INVALID_PARAM);  // not registered
    ASSERT_TRUE(table.UnregisterHost(const_cast<char *>(P(base))).ok());
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(base), 4), 0);  // the cached range is stale now
    EXPECT_EQ(table.UnregisterHost(const_cast<char *>(P(base))).code(), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(table.LiveCount(), 2u);
    // the destructor frees the allocation but leaves the still-registered page to its owner
  }
  std::memset(host, 0x5a, 3 * 4096 + pages * 4096);  // still ours (ASan/valgrind would flag a free)
  std::free(host);
}

TEST(HostMemoryTable, AllocateFree) {
  HostMemoryTable table;
  StatusOr<void *> ptr = table.Allocate(10);
  ASSERT_TRUE(ptr.ok());
  EXPECT_TRUE(table.Free(ptr.value()).ok());
  EXPECT_EQ(table.Free(ptr.value()).code(), ACL_ERROR_RT_PARAM_INVALID);
}

}  // namespace
}  // namespace asc_twin::rt::testing
