// TBufPool (TPipe::InitBufPool, nested and shared pools, Reset and reuse), a pool class written
// with EXTERN_IMPL_BUFPOOL (the custom-pool protocol of CANN's TBufPool sample), TBuf as a
// one-buffer queue (AllocTensor / FreeTensor / EnQue / DeQue), and their misuse traps. Kernels
// run through their entries on the launch harness; results against a scalar reference on random
// data (seed printed).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "asc_twin/kernel_entry.h"
#include "kernel_operator.h"
#include "launch_harness.h"

using namespace AscendC;
using namespace asc_twin_test;

namespace {

// The user pool of CANN's sample: queues and TBufs placed by hand at the pool's current address.
class HandPool {
 public:
  __aicore__ inline HandPool() { Init(); }
  template <class T>
  __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len) {
    len = (len + 31) / 32 * 32;
    auto ptr = this->GetBufHandle(this->GetCurBufSize());
    const uint32_t at = this->GetCurAddr();
    que.InitStartBufHandle(ptr, num, len);
    for (uint32_t i = 0; i < num; ++i) que.InitBufHandle(this, i, ptr, at + i * len, len);
    this->SetCurAddr(at + num * len);
    this->SetCurBufSize(this->GetCurBufSize() + num);
    return true;
  }
  template <TPosition bufPos>
  __aicore__ inline bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
    auto ptr = this->GetBufHandle(this->GetCurBufSize());
    const uint32_t at = this->GetCurAddr();
    buf.InitStartBufHandle(ptr, 1, len);
    buf.InitBufHandle(this, 0, ptr, at, len);
    this->SetCurAddr(at + len);
    this->SetCurBufSize(this->GetCurBufSize() + 1);
    return true;
  }
  // A buffer placed with a gap after the previous one (what the twin's queues cannot hold).
  template <class T>
  __aicore__ inline void InitWithGap(T& que, uint32_t len) {
    auto ptr = this->GetBufHandle(0);
    que.InitStartBufHandle(ptr, 2, len);
    que.InitBufHandle(this, 0, ptr, this->GetCurAddr(), len);
    que.InitBufHandle(this, 1, ptr, this->GetCurAddr() + 2 * len, len);
  }
  EXTERN_IMPL_BUFPOOL(HandPool, TPosition::VECCALC, 16);
};

// z = x + y through queues of one stage, with n halves per tile.
template <class InQ, class OutQ>
__aicore__ inline void AddStage(InQ& qx, InQ& qy, OutQ& qz, const GlobalTensor<half>& x, const GlobalTensor<half>& y,
                                const GlobalTensor<half>& z, uint32_t n) {
  LocalTensor<half> a = qx.template AllocTensor<half>(), b = qy.template AllocTensor<half>();
  DataCopy(a, x, n);
  DataCopy(b, y, n);
  qx.EnQue(a);
  qy.EnQue(b);
  a = qx.template DeQue<half>();
  b = qy.template DeQue<half>();
  LocalTensor<half> c = qz.template AllocTensor<half>();
  Add(c, a, b, n);
  qz.EnQue(c);
  qx.FreeTensor(a);
  qy.FreeTensor(b);
  c = qz.template DeQue<half>();
  DataCopy(z, c, n);
  qz.FreeTensor(c);
}

// mode 0: two stages in pools sharing the same bytes (pool2 over pool1, pool1 reset in between);
// mode 1: pool0 divided into pool1 and a queue, pool2 sharing pool1; mode 2: HandPool with a
// queue and a TBuf (the TBuf handed out by AllocTensor/FreeTensor). Stage s adds x[s] + y[s].
// The UB offset of each stage's first buffer goes to offs[s].
extern "C" __global__ __aicore__ void pool_stages(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR offs, uint32_t n,
                                                  uint32_t mode) {
  TPipe pipe;
  GlobalTensor<half> xs[2], ys[2], zs[2];
  for (int s = 0; s < 2; ++s) {
    xs[s].SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + s * n, n);
    ys[s].SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + s * n, n);
    zs[s].SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + s * n, n);
  }
  GlobalTensor<uint32_t> o;
  o.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(offs), 8);
  TQue<TPosition::VECIN, 1> qx, qy, qx2, qy2;
  TQue<TPosition::VECOUT, 1> qz, qz2;
  const uint32_t bytes = n * sizeof(half);
  if (mode == 0) {
    TBufPool<TPosition::VECCALC> p1, p2;
    pipe.InitBufPool(p1, bytes * 3);
    pipe.InitBufPool(p2, bytes * 3, p1);
    p1.InitBuffer(qx, 1, bytes);
    p1.InitBuffer(qy, 1, bytes);
    p1.InitBuffer(qz, 1, bytes);
    o.SetValue(0, static_cast<uint32_t>(qx.AllocTensor<half>().GetPhyAddr()));
    LocalTensor<half> t = qx.DeQue<half>();  // traps: nothing queued; never reached in mode 0
    (void)t;
  } else if (mode == 1) {
    TBufPool<TPosition::VECCALC> p0, p1, p2;
    pipe.InitBufPool(p0, bytes * 4);
    p0.InitBufPool(p1, bytes * 3);
    p0.InitBuffer(qx2, 1, bytes);
    p0.InitBufPool(p2, bytes * 3, p1);
    p1.InitBuffer(qx, 1, bytes);
    p1.InitBuffer(qy, 1, bytes);
    p1.InitBuffer(qz, 1, bytes);
    AddStage(qx, qy, qz, xs[0], ys[0], zs[0], n);
    o.SetValue(0, static_cast<uint32_t>(qx.TwinBlock().base - twin::Block().ub_base));
    p1.Reset();
    p2.InitBuffer(qx, 1, bytes);  // the same queue again, in the pool over the same bytes
    p2.InitBuffer(qy2, 1, bytes);
    p2.InitBuffer(qz2, 1, bytes);
    AddStage(qx, qy2, qz2, xs[1], ys[1], zs[1], n);
    o.SetValue(1, static_cast<uint32_t>(qx.TwinBlock().base - twin::Block().ub_base));
    o.SetValue(2, static_cast<uint32_t>(qx2.TwinBlock().base - twin::Block().ub_base));
  } else {
    HandPool hp;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBufPool(hp, bytes * 4);
    hp.InitBuffer(qx, 2, bytes);
    hp.InitBuffer(tb, bytes);
    hp.InitBuffer(qz, 1, bytes);
    for (int s = 0; s < 2; ++s) {
      LocalTensor<half> a = qx.AllocTensor<half>();
      LocalTensor<half> b = tb.AllocTensor<half>();
      DataCopy(a, xs[s], n);
      DataCopy(b, ys[s], n);
      LocalTensor<half> c = qz.AllocTensor<half>();
      Add(c, a, b, n);
      DataCopy(zs[s], c, n);
      o.SetValue(s, static_cast<uint32_t>(a.GetPhyAddr()));
      qx.FreeTensor(a);
      tb.FreeTensor(b);
      qz.FreeTensor(c);
    }
    o.SetValue(2, static_cast<uint32_t>(tb.Get<half>().GetPhyAddr()));
  }
}
ASC_TWIN_KERNEL_ENTRY(pool_stages)

// Misuse, one case per `which`.
extern "C" __global__ __aicore__ void pool_misuse(uint32_t which) {
  TPipe pipe;
  TBufPool<TPosition::VECCALC, 2> p, q;
  TQue<TPosition::VECIN, 1> a, b, c;
  TBuf<TPosition::VECCALC> t, u;
  HandPool hp;
  switch (which) {
    case 0:
      p.InitBuffer(a, 1, 64);
      break;  // pool never initialised
    case 1:
      pipe.InitBufPool(p, 256);
      p.InitBuffer(a, 1, 128);
      p.InitBuffer(b, 1, 160);  // 128 + 160 > 256
      break;
    case 2:
      pipe.InitBufPool(p, 1024);
      p.InitBuffer(a, 1, 64);
      p.InitBuffer(b, 1, 64);
      p.InitBuffer(c, 1, 64);  // a third buffer in a pool of 2
      break;
    case 3:
      pipe.InitBufPool(p, 256);
      pipe.InitBufPool(q, 512, p);  // longer than the pool it shares
      break;
    case 4:
      pipe.InitBufPool(hp, 1024);
      hp.InitWithGap(a, 64);
      break;
    case 5:
      pipe.InitBuffer(t, 64);
      t.AllocTensor<float>();
      t.AllocTensor<float>();
      break;
    case 6: {
      pipe.InitBuffer(t, 64);
      pipe.InitBuffer(u, 64);
      LocalTensor<float> x = u.Get<float>();
      t.FreeTensor(x);
      break;
    }
    case 7:
      pipe.InitBufPool(p, 256);
      pipe.Reset();
      p.InitBuffer(a, 1, 64);  // the pool went with the pipe's Reset
      break;
    default:
      break;
  }
}
ASC_TWIN_KERNEL_ENTRY(pool_misuse)

std::vector<half> RandomHalves(std::mt19937_64& rng, size_t n) {
  std::uniform_real_distribution<float> d(-8.0f, 8.0f);
  std::vector<half> v(n);
  for (half& h : v) h = half(d(rng));
  return v;
}

struct PoolRun {
  std::vector<half> x, y, z;
  uint32_t offs[8];
};

PoolRun RunStages(uint32_t mode, uint32_t n) {
  static std::mt19937_64 rng(Seed());
  DeviceMemory mem;
  PoolRun r;
  r.x = RandomHalves(rng, 2 * n);
  r.y = RandomHalves(rng, 2 * n);
  half* x = mem.AllocOf<half>(2 * n);
  half* y = mem.AllocOf<half>(2 * n);
  half* z = mem.AllocOf<half>(2 * n);
  uint32_t* offs = mem.AllocOf<uint32_t>(8);
  std::copy(r.x.begin(), r.x.end(), x);
  std::copy(r.y.begin(), r.y.end(), y);
  Args a;
  a.Add(x).Add(y).Add(z).Add(offs).Add(n).Add(mode);
  const LaunchResult res = Launch(__asc_twin_entry_pool_stages, "pool_stages", 1, a, mem);
  EXPECT_TRUE(res.ok()) << res.FirstError();
  r.z.assign(z, z + 2 * n);
  std::copy(offs, offs + 8, r.offs);
  return r;
}

void ExpectSums(const PoolRun& r) {
  for (size_t i = 0; i < r.x.size(); ++i) {
    ASSERT_EQ(static_cast<float>(r.z[i]),
              static_cast<float>(half(static_cast<float>(r.x[i]) + static_cast<float>(r.y[i]))))
        << "element " << i;
  }
}

std::string Misuse(uint32_t which) {
  DeviceMemory mem;
  Args a;
  a.Add(which);
  const LaunchResult r = Launch(__asc_twin_entry_pool_misuse, "pool_misuse", 1, a, mem);
  return r.FirstError();
}

}  // namespace

TEST(TBufPool, NestedAndSharedPoolsReuseTheSameBytes) {
  const PoolRun r = RunStages(1, 256);
  ExpectSums(r);
  // pool0 starts at UB 0: pool1 is its first 1536 bytes; qx2 follows; pool2 shares pool1's start,
  // so the second stage's queue sits where the first stage's did.
  EXPECT_EQ(r.offs[0], 0u);
  EXPECT_EQ(r.offs[1], 0u);
  EXPECT_EQ(r.offs[2], 3u * 512u);
}

TEST(TBufPool, HandWrittenPoolPlacesQueueAndTBuf) {
  const PoolRun r = RunStages(2, 128);
  ExpectSums(r);
  // qx has two buffers from UB 0 (ring order: the second stage takes the second buffer), then the TBuf.
  EXPECT_EQ(r.offs[0], 0u);
  EXPECT_EQ(r.offs[1], 256u);
  EXPECT_EQ(r.offs[2], 512u);
}

TEST(TBufPool, MisuseTraps) {
  EXPECT_NE(Misuse(0).find("TBufPool::InitBuffer: the TBufPool is not initialised"), std::string::npos) << Misuse(0);
  EXPECT_NE(Misuse(1).find("TBufPool::InitBuffer: TBufPool capacity exceeded: 160 B requested at offset 128, the pool "
                           "is [0, 256)"),
            std::string::npos)
      << Misuse(1);
  EXPECT_NE(Misuse(2).find("TBufPool::InitBuffer: more than 2 buffers in one TBufPool (bufIDSize)"), std::string::npos)
      << Misuse(2);
  EXPECT_NE(Misuse(3).find("TPipe::InitBufPool: len 512 exceeds the shared TBufPool's 256 B"), std::string::npos)
      << Misuse(3);
  EXPECT_NE(Misuse(4).find("TQue::InitBufHandle: buffer 1 must follow buffer 0 directly"), std::string::npos)
      << Misuse(4);
  EXPECT_NE(Misuse(5).find("TBuf::AllocTensor: the buffer is already allocated (FreeTensor missing?)"),
            std::string::npos)
      << Misuse(5);
  EXPECT_NE(Misuse(6).find("TBuf::FreeTensor: tensor was not allocated from this TBuf"), std::string::npos)
      << Misuse(6);
  EXPECT_NE(Misuse(7).find("TBufPool::InitBuffer: the TBufPool is not initialised"), std::string::npos) << Misuse(7);
  EXPECT_EQ(Misuse(99), "");
}

TEST(TBufPool, FirstStageQueueTrapsOnEmptyDeQue) {
  DeviceMemory mem;
  half* x = mem.AllocOf<half>(64);
  uint32_t* offs = mem.AllocOf<uint32_t>(8);
  Args a;
  a.Add(x).Add(x).Add(x).Add(offs).Add(uint32_t{32}).Add(uint32_t{0});
  const LaunchResult r = Launch(__asc_twin_entry_pool_stages, "pool_stages", 1, a, mem);
  EXPECT_NE(r.FirstError().find("TQue::DeQue: queue is empty"), std::string::npos) << r.FirstError();
  EXPECT_EQ(offs[0], 0u);  // the shared pools start at UB 0
}
