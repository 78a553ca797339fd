// The GM checker's lock-free path: each thread caches the allocations it found, valid only
// while the table's generation is unchanged. A freed allocation must fail the check at once,
// also on the thread that cached it, on another thread, after a device reset, and for a new
// table that reuses the old one's address; huge-page allocations are checked the same way.
#include <new>
#include <random>
#include <thread>
#include <vector>

#include "twin/runtime/internal/memory_table.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

const char *P(uintptr_t value) { return reinterpret_cast<const char *>(value); }

uintptr_t Base(const StatusOr<void *> &ptr) { return reinterpret_cast<uintptr_t>(ptr.value()); }

TEST(GmCheckCache, FreeInvalidatesWhatThisThreadCached) {
  MemoryTable table;
  StatusOr<void *> a = table.Allocate(1000, 0);
  StatusOr<void *> b = table.Allocate(64, 0);
  ASSERT_TRUE(a.ok() && b.ok());
  for (int i = 0; i < 3; ++i) {  // the second and third checks hit the cache
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(Base(a)), 1000), 1);
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(Base(a) + 1000), MemoryTable::AccessibleSize(1000) - 1000), 1);
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(Base(a)), MemoryTable::AccessibleSize(1000) + 1), 0);
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(Base(b) + 8), 8), 1);
  }
  ASSERT_TRUE(table.Free(a.value()).ok());
  EXPECT_EQ(MemoryTable::GmCheck(&table, P(Base(a)), 4), 0);
  EXPECT_EQ(MemoryTable::GmCheck(&table, P(Base(b) + 8), 8), 1);  // the other one lives on
  table.FreeAllOf(0);
  EXPECT_EQ(MemoryTable::GmCheck(&table, P(Base(b) + 8), 8), 0);
}

TEST(GmCheckCache, FreeOnAnotherThreadInvalidates) {
  MemoryTable table;
  StatusOr<void *> a = table.Allocate(4096, 0);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(MemoryTable::GmCheck(&table, P(Base(a)), 4096), 1);  // cached here
  std::thread freer([&] { ASSERT_TRUE(table.Free(a.value()).ok()); });
  freer.join();
  EXPECT_EQ(MemoryTable::GmCheck(&table, P(Base(a)), 4096), 0);
}

TEST(GmCheckCache, NewTableAtTheSameAddressStartsEmpty) {
  // The cache keys on the table's address and generation; generations are process-wide unique.
  alignas(MemoryTable) unsigned char storage[sizeof(MemoryTable)];
  auto *first = new (storage) MemoryTable();
  StatusOr<void *> a = first->Allocate(256, 0);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(MemoryTable::GmCheck(first, P(Base(a)), 256), 1);
  const uintptr_t old = Base(a);
  first->~MemoryTable();                       // frees `a`
  auto *second = new (storage) MemoryTable();  // same address, never allocated `old`
  EXPECT_EQ(MemoryTable::GmCheck(second, P(old), 16), 0);
  second->~MemoryTable();
}

TEST(GmCheckCache, MoreAllocationsThanCacheEntries) {
  MemoryTable table;
  std::vector<uintptr_t> bases;
  for (int i = 0; i < 9; ++i) {
    StatusOr<void *> p = table.Allocate(128 + 32 * static_cast<size_t>(i), 0);
    ASSERT_TRUE(p.ok());
    bases.push_back(Base(p));
  }
  std::mt19937_64 &rng = Rng();
  for (int round = 0; round < 200; ++round) {
    const size_t i = rng() % bases.size();
    const size_t accessible = MemoryTable::AccessibleSize(128 + 32 * i);
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(bases[i]), accessible), 1) << i;
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(bases[i]), accessible + 1), 0) << i;
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(bases[i] - 1), 1), 0) << i;
  }
  for (size_t i = 0; i < bases.size(); i += 2) ASSERT_TRUE(table.Free(reinterpret_cast<void *>(bases[i])).ok());
  for (size_t i = 0; i < bases.size(); ++i) {
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(bases[i]), 1), i % 2 == 1 ? 1 : 0) << i;
  }
}

TEST(GmCheckCache, HugePageAllocationsAreCheckedLikeOthers) {
  MemoryTable table;
  constexpr size_t kBytes = (size_t{4} << 20) + 100;
  StatusOr<void *> huge = table.Allocate(kBytes, 0, /*huge_pages=*/true);
  StatusOr<void *> normal = table.Allocate(kBytes, 0, /*huge_pages=*/false);
  ASSERT_TRUE(huge.ok() && normal.ok());
  EXPECT_EQ(Base(huge) % (size_t{2} << 20), 0u);
  for (const StatusOr<void *> *p : {&huge, &normal}) {
    const uintptr_t base = Base(*p);
    EXPECT_EQ(base % kDeviceMemAlignment, 0u);
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(base), MemoryTable::AccessibleSize(kBytes)), 1);
    EXPECT_EQ(MemoryTable::GmCheck(&table, P(base), MemoryTable::AccessibleSize(kBytes) + 1), 0);
    static_cast<char *>(p->value())[kBytes - 1] = 7;  // usable
  }
  ASSERT_TRUE(table.Free(huge.value()).ok());
  ASSERT_TRUE(table.Free(normal.value()).ok());
  EXPECT_EQ(table.LiveCount(), 0u);
}

}  // namespace
}  // namespace asc_twin::rt::testing
