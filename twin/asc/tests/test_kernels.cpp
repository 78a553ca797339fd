// Ascend C kernels exercising the twin's API, written as a user would write
// them for CANN, compiled with the entry shim like bisheng does.
#include "test_kernels.h"

#include "asc_twin/kernel_entry.h"
#include "kernel_operator.h"
#include "pipeline.h"

#include <vector>

using namespace AscendC;
using asc_twin_test::Pipeline;

namespace {

template <typename T, int kDepth>
__aicore__ inline void BinaryKernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op) {
  Pipeline<T, T, 2, 2, kDepth> p;
  GM_ADDR in[2] = {x, y};
  p.Init(in, z, total, tile);
  p.Process([op](LocalTensor<T>& d, LocalTensor<T>* s, uint32_t n) {
    switch (op) {
      case asc_twin_test::kAdd:
        Add(d, s[0], s[1], n);
        break;
      case asc_twin_test::kSub:
        Sub(d, s[0], s[1], n);
        break;
      case asc_twin_test::kMul:
        Mul(d, s[0], s[1], n);
        break;
      case asc_twin_test::kDiv:
        if constexpr (std::is_same<T, float>::value || std::is_same<T, half>::value) Div(d, s[0], s[1], n);
        break;
      case asc_twin_test::kMax:
        Max(d, s[0], s[1], n);
        break;
      case asc_twin_test::kMin:
        Min(d, s[0], s[1], n);
        break;
      case asc_twin_test::kExprAdd:
        d = s[0] + s[1];
        break;
      case asc_twin_test::kExprMul:
        d = s[0] * s[1];
        break;
      default:
        ascendc_assert(false, "bad binary op %u", op);
    }
  });
}

template <typename T>
__aicore__ inline void UnaryKernel(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op) {
  Pipeline<T, T, 1, 2, 1> p;
  p.Init(&x, z, total, tile);
  p.Process([op](LocalTensor<T>& d, LocalTensor<T>* s, uint32_t n) {
    if constexpr (std::is_same<T, int32_t>::value) {
      ascendc_assert(op == asc_twin_test::kRelu, "int32 supports Relu only");
      Relu(d, s[0], n);
    } else {
      switch (op) {
        case asc_twin_test::kAbs:
          Abs(d, s[0], n);
          break;
        case asc_twin_test::kRelu:
          Relu(d, s[0], n);
          break;
        case asc_twin_test::kExp:
          Exp(d, s[0], n);
          break;
        case asc_twin_test::kLn:
          Ln(d, s[0], n);
          break;
        case asc_twin_test::kSqrt:
          Sqrt(d, s[0], n);
          break;
        case asc_twin_test::kRsqrt:
          Rsqrt(d, s[0], n);
          break;
        case asc_twin_test::kReciprocal:
          Reciprocal(d, s[0], n);
          break;
        default:
          ascendc_assert(false, "bad unary op %u", op);
      }
    }
  });
}

template <typename T>
__aicore__ inline void ScalarKernel(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op, T scalar) {
  Pipeline<T, T, 1, 2, 2> p;
  p.Init(&x, z, total, tile);
  p.Process([op, scalar](LocalTensor<T>& d, LocalTensor<T>* s, uint32_t n) {
    switch (op) {
      case asc_twin_test::kAdds:
        Adds(d, s[0], scalar, n);
        break;
      case asc_twin_test::kMuls:
        Muls(d, s[0], scalar, n);
        break;
      case asc_twin_test::kMaxs:
        Maxs(d, s[0], scalar, n);
        break;
      case asc_twin_test::kMins:
        Mins(d, s[0], scalar, n);
        break;
      case asc_twin_test::kLeakyRelu:
        if constexpr (std::is_same<T, float>::value || std::is_same<T, half>::value) LeakyRelu(d, s[0], scalar, n);
        break;
      default:
        ascendc_assert(false, "bad scalar op %u", op);
    }
  });
}

template <typename T>
__aicore__ inline void DuplicateKernel(GM_ADDR z, uint32_t total, uint32_t tile, T value) {
  TPipe pipe;
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, tile * sizeof(T));
  const uint32_t share = total / static_cast<uint32_t>(GetBlockNum());
  GlobalTensor<T> zGm;
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + share * GetBlockIdx(), share);
  for (uint32_t t = 0; t < share / tile; ++t) {
    LocalTensor<T> d = q.AllocTensor<T>();
    Duplicate(d, value, tile);
    q.EnQue(d);
    d = q.DeQue<T>();
    DataCopy(zGm[t * tile], d, tile);
    q.FreeTensor(d);
  }
}

template <typename TIn, typename TOut>
__aicore__ inline void CastKernel(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t mode) {
  Pipeline<TIn, TOut, 1, 2, 1> p;
  p.Init(&x, z, total, tile);
  p.Process([mode](LocalTensor<TOut>& d, LocalTensor<TIn>* s, uint32_t n) {
    Cast(d, s[0], static_cast<RoundMode>(mode), n);
  });
}

}  // namespace

extern "C" __global__ __aicore__ void binary_f32(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile,
                                                 uint32_t op) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  BinaryKernel<float, 2>(x, y, z, total, tile, op);
}
extern "C" __global__ __aicore__ void binary_f16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile,
                                                 uint32_t op) {
  BinaryKernel<half, 2>(x, y, z, total, tile, op);
}
extern "C" __global__ __aicore__ void binary_i32(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile,
                                                 uint32_t op) {
  BinaryKernel<int32_t, 2>(x, y, z, total, tile, op);
}
extern "C" __global__ __aicore__ void binary_i16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile,
                                                 uint32_t op) {
  BinaryKernel<int16_t, 2>(x, y, z, total, tile, op);
}
extern "C" __global__ __aicore__ void binary_f32_d1(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile,
                                                    uint32_t op) {
  BinaryKernel<float, 1>(x, y, z, total, tile, op);
}
ASC_TWIN_KERNEL_ENTRY(binary_f32)
ASC_TWIN_KERNEL_ENTRY(binary_f16)
ASC_TWIN_KERNEL_ENTRY(binary_i32)
ASC_TWIN_KERNEL_ENTRY(binary_i16)
ASC_TWIN_KERNEL_ENTRY(binary_f32_d1)

extern "C" __global__ __aicore__ void unary_f32(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op) {
  UnaryKernel<float>(x, z, total, tile, op);
}
extern "C" __global__ __aicore__ void unary_f16(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op) {
  UnaryKernel<half>(x, z, total, tile, op);
}
extern "C" __global__ __aicore__ void unary_i32(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op) {
  UnaryKernel<int32_t>(x, z, total, tile, op);
}
ASC_TWIN_KERNEL_ENTRY(unary_f32)
ASC_TWIN_KERNEL_ENTRY(unary_f16)
ASC_TWIN_KERNEL_ENTRY(unary_i32)

extern "C" __global__ __aicore__ void scalar_f32(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op,
                                                 float s) {
  ScalarKernel<float>(x, z, total, tile, op, s);
}
extern "C" __global__ __aicore__ void scalar_f16(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op,
                                                 half s) {
  ScalarKernel<half>(x, z, total, tile, op, s);
}
extern "C" __global__ __aicore__ void scalar_i32(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op,
                                                 int32_t s) {
  ScalarKernel<int32_t>(x, z, total, tile, op, s);
}
extern "C" __global__ __aicore__ void scalar_i16(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t op,
                                                 int16_t s) {
  ScalarKernel<int16_t>(x, z, total, tile, op, s);
}
ASC_TWIN_KERNEL_ENTRY(scalar_f32)
ASC_TWIN_KERNEL_ENTRY(scalar_f16)
ASC_TWIN_KERNEL_ENTRY(scalar_i32)
ASC_TWIN_KERNEL_ENTRY(scalar_i16)

extern "C" __global__ __aicore__ void duplicate_f32(GM_ADDR z, uint32_t total, uint32_t tile, float v) {
  DuplicateKernel<float>(z, total, tile, v);
}
extern "C" __global__ __aicore__ void duplicate_f16(GM_ADDR z, uint32_t total, uint32_t tile, half v) {
  DuplicateKernel<half>(z, total, tile, v);
}
extern "C" __global__ __aicore__ void duplicate_i32(GM_ADDR z, uint32_t total, uint32_t tile, int32_t v) {
  DuplicateKernel<int32_t>(z, total, tile, v);
}
extern "C" __global__ __aicore__ void duplicate_bf16(GM_ADDR z, uint32_t total, uint32_t tile, bfloat16_t v) {
  DuplicateKernel<bfloat16_t>(z, total, tile, v);
}
ASC_TWIN_KERNEL_ENTRY(duplicate_f32)
ASC_TWIN_KERNEL_ENTRY(duplicate_f16)
ASC_TWIN_KERNEL_ENTRY(duplicate_i32)
ASC_TWIN_KERNEL_ENTRY(duplicate_bf16)

#define CAST_KERNEL(name, TIn, TOut)                                                                               \
  extern "C" __global__ __aicore__ void name(GM_ADDR x, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t mode) { \
    CastKernel<TIn, TOut>(x, z, total, tile, mode);                                                                \
  }                                                                                                                \
  ASC_TWIN_KERNEL_ENTRY(name)
CAST_KERNEL(cast_f16_f32, half, float)
CAST_KERNEL(cast_bf16_f32, bfloat16_t, float)
CAST_KERNEL(cast_f32_f16, float, half)
CAST_KERNEL(cast_f32_bf16, float, bfloat16_t)
CAST_KERNEL(cast_f32_i32, float, int32_t)
CAST_KERNEL(cast_f16_i32, half, int32_t)
CAST_KERNEL(cast_i32_f32, int32_t, float)
CAST_KERNEL(cast_f32_f32, float, float)
#undef CAST_KERNEL

// GM rows of `cols` halves (gmGap halves apart) -> padded UB rows -> ubDump
// (raw UB layout) and, without left padding, (+1) back to z with the same gaps.
extern "C" __global__ __aicore__ void pad_copy_f16(GM_ADDR x, GM_ADDR z, GM_ADDR ubDump, uint32_t rows, uint32_t cols,
                                                   uint32_t isPad, uint32_t left, uint32_t right, half padValue,
                                                   uint32_t gmGap) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  const uint32_t pitch = ((left + cols + right) * 2 + 31) / 32 * 32;
  pipe.InitBuffer(buf, pitch * rows);
  LocalTensor<half> ub = buf.Get<half>();
  GlobalTensor<half> xGm, zGm, dumpGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z));
  dumpGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ubDump));
  DataCopyExtParams copy{static_cast<uint16_t>(rows), cols * 2, gmGap * 2, 0, 0};
  DataCopyPadExtParams<half> pad{isPad != 0, static_cast<uint8_t>(left), static_cast<uint8_t>(right), padValue};
  DataCopyPad(ub, xGm, copy, pad);
  PipeBarrier<PIPE_ALL>();
  DataCopy(dumpGm, ub, pitch * rows / 2);
  if (left == 0) {
    Adds(ub, ub, 1.0f, pitch * rows / 2);
    const uint32_t ubGapBlocks = (pitch - (cols * 2 + 31) / 32 * 32) / 32;
    DataCopyPad(zGm, ub, DataCopyExtParams{static_cast<uint16_t>(rows), cols * 2, ubGapBlocks, gmGap * 2, 0});
  }
}
ASC_TWIN_KERNEL_ENTRY(pad_copy_f16)

extern "C" __global__ __aicore__ void strided_copy_f32(GM_ADDR x, GM_ADDR z, uint32_t blockCount, uint32_t blockLen,
                                                       uint32_t srcGap, uint32_t dstGap) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, blockCount * blockLen * 32);
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z));
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopyParams in;
  in.blockCount = static_cast<uint16_t>(blockCount);
  in.blockLen = static_cast<uint16_t>(blockLen);
  in.srcStride = static_cast<uint16_t>(srcGap);
  in.dstStride = 0;
  DataCopy(t, xGm, in);
  q.EnQue(t);
  t = q.DeQue<float>();
  DataCopy(zGm, t,
           {static_cast<uint16_t>(blockCount), static_cast<uint16_t>(blockLen), 0, static_cast<uint16_t>(dstGap)});
  q.FreeTensor(t);
}
ASC_TWIN_KERNEL_ENTRY(strided_copy_f32)

extern "C" __global__ __aicore__ void args_probe(GM_ADDR out, int8_t a, int64_t b, float c, double d,
                                                 asc_twin_test::ArgsTiling t, half h, uint16_t e) {
  if (GetBlockIdx() != 0) return;
  GlobalTensor<int8_t> o8;
  o8.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(out));
  o8.SetValue(0, a);
  o8.ReinterpretCast<int64_t>().SetValue(1, b);
  o8.ReinterpretCast<float>().SetValue(4, c);
  o8.ReinterpretCast<double>().SetValue(3, d);
  o8.ReinterpretCast<uint32_t>().SetValue(8, t.a);
  o8.ReinterpretCast<uint16_t>().SetValue(18, t.b);
  o8.ReinterpretCast<uint64_t>().SetValue(5, t.c);
  o8.ReinterpretCast<half>().SetValue(24, h);
  o8.ReinterpretCast<uint16_t>().SetValue(25, e);
}
ASC_TWIN_KERNEL_ENTRY(args_probe)

// z[i] = 2*x[i] + i via TBuf, scalar Get/SetValue, UB->UB copies, Reset and a
// LocalMemAllocator after Destroy; n <= 2048, multiple of 8.
extern "C" __global__ __aicore__ void misc_api(GM_ADDR x, GM_ADDR z, uint32_t n) {
  InitSocState();
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), n);
  TPipe pipe;
  ascendc_assert(GetTPipePtr() == &pipe, "GetTPipePtr");
  TBuf<TPosition::VECCALC> a;
  TBuf<> b;
  pipe.InitBuffer(a, n * sizeof(float));
  pipe.InitBuffer(b, n * sizeof(float) + 4);  // rounded up to 32 B
  ascendc_assert(pipe.TwinUsedBytes() == n * 4 + (n * 4 + 4 + 31) / 32 * 32, "bump placement");
  LocalTensor<float> ta = a.Get<float>();
  LocalTensor<float> ta2 = a.Get<float>(n / 2);
  ascendc_assert(ta.GetPhyAddr() == ta2.GetPhyAddr() && ta2.GetSize() == n / 2, "TBuf::Get same start");
  LocalTensor<float> tb = b.Get<float>();
  ascendc_assert(tb.GetPhyAddr() == ta.GetPhyAddr() + n * 4, "consecutive buffers");
  DataCopy(ta, xGm, n);
  event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
  SetFlag<HardEvent::MTE2_V>(id);
  WaitFlag<HardEvent::MTE2_V>(id);
  DataCopy(tb, ta, n);  // UB -> UB
  Muls(tb, tb, 2.0f, n);
  for (uint32_t i = 0; i < n; ++i) tb.SetValue(i, tb.GetValue(i) + static_cast<float>(i));
  LocalTensor<float> half2 = b.GetWithOffset<float>(n / 2, n * 2);
  ascendc_assert(half2.GetValue(0) == tb(n / 2), "GetWithOffset");
  LocalTensor<int32_t> asInt = tb.ReinterpretCast<int32_t>();
  ascendc_assert(asInt.GetSize() == tb.GetSize() && tb.GetSize() == n + 8, "ReinterpretCast size");
  DataCopy(zGm, tb, n);
  pipe.Reset();
  TBuf<TPosition::VECCALC> c;
  pipe.InitBuffer(c, 64);
  ascendc_assert(c.Get<float>().GetPhyAddr() == 0, "Reset restarts at 0");
  // AllocTensor walks a ring over the free buffers; EnQue/DeQue are FIFO.
  TQue<QuePosition::VECIN, 2> ring;
  pipe.InitBuffer(ring, 2, 60);  // rounded up to 64 B
  LocalTensor<float> r0 = ring.AllocTensor<float>();
  ascendc_assert(r0.GetPhyAddr() == 64 && r0.GetSize() == 16, "queue placed after the TBuf");
  ring.FreeTensor(r0);
  LocalTensor<float> r1 = ring.AllocTensor<float>();
  ascendc_assert(r1.GetPhyAddr() == 128, "ring order takes the next buffer, not the first free one");
  LocalTensor<float> r2 = ring.AllocTensor<float>();
  ascendc_assert(r2.GetPhyAddr() == 64, "ring wraps around to the free buffer");
  ascendc_assert(!ring.HasIdleBuffer() && ring.VacantInQue(), "queue state");
  ring.EnQue(r1);
  ring.EnQue(r2);
  ascendc_assert(ring.GetTensorCountInQue() == 2 && !ring.VacantInQue(), "two queued");
  LocalTensor<float> d1 = ring.DeQue<float>();
  ascendc_assert(d1.GetPhyAddr() == 128, "FIFO order");
  ring.FreeTensor(d1);
  LocalTensor<float> d2 = ring.DeQue<float>();
  ring.FreeTensor(d2);
  ascendc_assert(!ring.HasTensorInQue() && ring.HasIdleBuffer(), "drained");
  // Four buffers: after a free behind the cursor the ring still takes the next ones first.
  TQue<QuePosition::VECIN, 4> ring4;
  pipe.InitBuffer(ring4, 4, 32);
  const uint64_t at = ring4.AllocTensor<float>().GetPhyAddr();  // buffer 0
  LocalTensor<float> q1 = ring4.AllocTensor<float>();           // buffer 1
  ring4.FreeTensor(q1);
  LocalTensor<float> q2 = ring4.AllocTensor<float>();
  LocalTensor<float> q3 = ring4.AllocTensor<float>();
  LocalTensor<float> q1again = ring4.AllocTensor<float>();
  ascendc_assert(q2.GetPhyAddr() == at + 64 && q3.GetPhyAddr() == at + 96 && q1again.GetPhyAddr() == at + 32,
                 "ring of four: 2, 3, then the freed 1");
  ascendc_assert(!ring4.HasIdleBuffer(), "all four taken");
  pipe.Destroy();
  ascendc_assert(GetTPipePtr() == nullptr, "Destroy clears GetTPipePtr");
  LocalMemAllocator<Hardware::UB> alloc;
  LocalTensor<float> s = alloc.Alloc<float, 8>();
  LocalTensor<float> s2 = alloc.Alloc<float>(8);
  ascendc_assert(s2.GetPhyAddr() == 32 && alloc.GetCurAddr() == 64, "LocalMemAllocator bump");
  Duplicate(s, 1.0f, 8);
  s2 = s + s;
  ascendc_assert(s2.GetValue(7) == 2.0f, "expression");
  AscendC::printf("misc_api block %lld of %lld ok\n", static_cast<long long>(GetBlockIdx()),
                  static_cast<long long>(GetBlockNum()));
}
ASC_TWIN_KERNEL_ENTRY(misc_api)

extern "C" __global__ __aicore__ void trap_probe(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t which) {
  TPipe pipe;
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), n);
  TQue<QuePosition::VECIN, 1> q;
  TQue<QuePosition::VECIN, 1> other;
  TBuf<TPosition::VECCALC> buf;
  if (which == 17) {
    q.AllocTensor<float>();
    return;
  }
  if (which == 0) {
    pipe.InitBuffer(q, 2, 100000);  // 2 x 100000 B > 192 KiB
    return;
  }
  pipe.InitBuffer(q, 2, 256 * sizeof(float));
  pipe.InitBuffer(other, 1, 256 * sizeof(float));
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> t = q.AllocTensor<float>();
  switch (which) {
    case 1:
      Add(t, t[3], t, 8);
      break;  // misaligned UB operand
    case 2: {
      GlobalTensor<float> odd;
      odd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x + 2));
      DataCopy(t, odd, 8);
      break;
    }
    case 3:
      DataCopy(t, xGm, 7);
      break;  // 28 B
    case 4:
      DataCopy(t, xGm[n - 8], 16);
      break;  // runs past the allocation
    case 5:
      other.DeQue<float>();
      break;
    case 6: {
      LocalTensor<float> u = q.AllocTensor<float>();
      q.EnQue(t);
      q.EnQue(u);  // depth 1
      break;
    }
    case 7:
      q.AllocTensor<float>();
      q.AllocTensor<float>();
      break;  // 2 buffers, 3 live
    case 8:
      other.FreeTensor(t);
      break;
    case 9:
      (void)t[256];
      break;
    case 10:
      (void)t.GetValue(300);
      break;
    case 11:
      t.SetValue(256, 1.0f);
      break;
    case 12:
      zGm.SetValue(n, 1.0f);
      break;
    case 13:
      Add(t, t, t, 257);
      break;
    case 14:
      ascendc_assert(n == 0, "n is %u", n);
      break;
    case 15:
      DataCopyPad(zGm[n - 4], t, DataCopyExtParams{1, 20, 0, 0, 0});
      break;
    case 16:
      q.FreeTensor(t);
      q.FreeTensor(t);
      break;
    case 18: {
      TPipe second;
      break;
    }
    case 19: {
      LocalTensor<int32_t> d = other.AllocTensor<int32_t>();
      Cast(d, t, RoundMode::CAST_ODD, 8);
      break;
    }
    case 20:
      buf.Get<float>(257);
      break;
    case 21: {
      LocalTensor<float> bad(TPosition::VECCALC, 196608 - 32, 16);
      break;
    }
    case 22:
      (void)xGm.GetValue(n);
      break;
    case 23:
      q.EnQue(t[64]);
      break;  // a view: the buffer the tensor names, not its start
    case 24:
      pipe.Reset();
      q.FreeTensor(t);
      break;  // the queue's buffers went with the Reset
    case 25:
      q.EnQue(t);
      q.EnQue(t);
      break;
    case 26:
      q.EnQue(t);
      q.FreeTensor(t);
      break;
    default:
      break;
  }
}
ASC_TWIN_KERNEL_ENTRY(trap_probe)

extern "C" __global__ __aicore__ void throws_std(GM_ADDR x, GM_ADDR z, uint32_t n) {
  (void)x;
  (void)z;
  TPipe pipe;
  std::vector<int> v(n);
  (void)v.at(n);  // std::out_of_range
}
ASC_TWIN_KERNEL_ENTRY(throws_std)

// Where this block's API calls find its state, two int32 per block: [0] 1 when Block() is this
// binary's own per-thread g_block (it always must be); [1] 1 when the host offered a block slot
// and the slot holds &g_block during the block (the fast path), 3 when it holds anything else,
// 0 when the host offered none.
extern "C" __global__ __aicore__ void block_slot_probe(GM_ADDR out) {
  GlobalTensor<int32_t> o;
  o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out) + 2 * GetBlockIdx(), 2);
  o.SetValue(0, &twin::Block() == &twin::g_block ? 1 : 0);
  const AscTwinBlockEnv* env = twin::Block().env;
  int32_t slot = 0;
  if (env->block_slot_tpoff != 0) {
#if ASC_TWIN_BLOCK_SLOT_READS
    slot = *reinterpret_cast<twin::BlockSlotRef>(env->block_slot_tpoff) == &twin::g_block ? 1 : 3;
#else
    slot = 1;  // this compiler reads no slot: nothing to hold (the entry leaves it alone)
#endif
  }
  o.SetValue(1, slot);
}
ASC_TWIN_KERNEL_ENTRY(block_slot_probe)

extern "C" __attribute__((visibility("default"))) int asc_twin_test_kernels_read_block_slot() {
  return ASC_TWIN_BLOCK_SLOT_READS;
}

// The per-block store fences (ClearBlock) issued by this thread in this binary's kernels: the
// counter is hidden per binary, so a test linked against the kernels as a shared library asks here.
extern "C" __attribute__((visibility("default"))) uint64_t asc_twin_test_block_end_fences() {
  return AscendC::twin::g_block_end_fences;
}
