// The cube unit's compute path: LoadData (L1 -> L0A/L0B; GM -> L1/L0), LoadDataWithTranspose,
// Mmad (with and without a bias table), SetHF32Mode/SetHF32TransMode, InitConstValue, as CANN's
// kernel_operator_mm_intf.h declares them for NpuArch 2201. Layouts and rounding: cube_fractal.h,
// cube_load.h, cube_mmad.h; the Load3D (img2col) path is kernel_operator_mm_load3d.h.
#ifndef ASC_TWIN_KERNEL_OPERATOR_MM_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_MM_INTF_H_

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "asc_twin/block_state.h"
#include "asc_twin/cube_checks.h"
#include "asc_twin/cube_load.h"
#include "asc_twin/cube_mmad.h"
#include "kernel_struct_mm.h"
#include "kernel_tensor.h"

namespace AscendC {

enum class HF32Mode { ENABLE, DISABLE };
enum class HF32TransMode { NEAREST_ZERO, NEAREST_EVEN };

namespace twin {

inline void RequireL0Dst(const char* api, TPosition pos) {
  if (pos != TPosition::A2 && pos != TPosition::B2) {
    RaiseTrap("%s: dst position %s is not A2 (L0A) or B2 (L0B)", api, PositionName(pos));
  }
}

// Fractals [lowest, highest] a strided run of `repeats` touches (addrMode 1 counts down).
inline void FractalRun(const char* api, uint32_t start, uint32_t repeats, uint32_t stride, bool decreasing,
                       uint64_t* highest) {
  if (decreasing && uint64_t{stride} * (repeats - 1) > start) {
    RaiseTrap(
        "%s: addrMode 1 (decreasing) steps below the source's first fractal: startIndex %u, srcStride %u, "
        "repeatTimes %u",
        api, start, stride, repeats);
  }
  *highest = decreasing ? start : uint64_t{start} + uint64_t{stride} * (repeats - 1);
}

}  // namespace twin

// ---------------------------------------------------------------- LoadData 2D

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
  constexpr const char* api = "LoadData";
  static_assert(sizeof(T) <= 4, "LoadData: element types of 1, 2 or 4 bytes (or int4b_t)");
  if (p.repeatTimes == 0) return;
  twin::RequireTensor(api, "dst", dst);
  twin::RequireTensor(api, "src", src);
  const TPosition sp = twin::PosOf(src), dp = twin::PosOf(dst);
  if (!twin::InL1(sp)) twin::RaiseTrap("%s: src position %s is not in L1 (A1, B1, C1)", api, twin::PositionName(sp));
  twin::RequireL0Dst(api, dp);
  twin::RequireAligned(api, "dst", dst, twin::kFractalBytes);
  twin::RequireAligned(api, "src", src, ONE_BLK_SIZE);
  if (p.ifTranspose && sizeof(T) != 2) {
    twin::RaiseTrap("%s: ifTranspose needs a 16-bit type (half, bfloat16_t, int16_t, uint16_t), not %s", api,
                    twin::CubeTypeName<T>());
  }
  if (p.addrMode > 1) twin::RaiseTrap("%s: addrMode %u is not 0 (increasing) or 1 (decreasing)", api, p.addrMode);
  uint64_t highest = 0;
  twin::FractalRun(api, p.startIndex, p.repeatTimes, p.srcStride, p.addrMode == 1, &highest);
  constexpr uint64_t frac = twin::FractalElems<T>();
  twin::RequireElems(api, "src", src, (highest + 1) * frac,
                     "fractals up to startIndex + (repeatTimes - 1) x srcStride");
  twin::RequireElems(api, "dst", dst, (uint64_t{p.repeatTimes - 1u} * (p.dstGap + 1u) + 1) * frac,
                     "repeatTimes fractals, dstGap apart");
  twin::cube::Load2D<T>(dst.Bytes(), src.Bytes(), p.repeatTimes, p.startIndex, p.srcStride, p.dstGap, p.addrMode == 1,
                        p.ifTranspose);
}

// GM -> L1 / L0A / L0B, fractal by fractal (the source is already in fractal layout).
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p) {
  constexpr const char* api = "LoadData(GM)";
  if (p.repeatTimes == 0) return;
  twin::RequireTensor(api, "dst", dst);
  const TPosition dp = twin::PosOf(dst);
  if (!twin::InL1(dp) && dp != TPosition::A2 && dp != TPosition::B2) {
    twin::RaiseTrap("%s: dst position %s is not L1, A2 or B2", api, twin::PositionName(dp));
  }
  twin::RequireAligned(api, "dst", dst, twin::InL1(dp) ? ONE_BLK_SIZE : twin::kFractalBytes);
  if (p.ifTranspose && sizeof(T) != 2) {
    twin::RaiseTrap("%s: ifTranspose needs a 16-bit type (half, bfloat16_t, int16_t, uint16_t), not %s", api,
                    twin::CubeTypeName<T>());
  }
  uint64_t highest = 0;
  twin::FractalRun(api, p.startIndex, p.repeatTimes, p.srcStride, p.addrMode == 1, &highest);
  constexpr uint64_t frac = twin::FractalElems<T>();
  twin::RequireElems(api, "dst", dst, (uint64_t{p.repeatTimes - 1u} * (p.dstGap + 1u) + 1) * frac,
                     "repeatTimes fractals, dstGap apart");
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  twin::CheckGm(api, s, (highest + 1) * twin::kFractalBytes);
  twin::cube::Load2D<T>(dst.Bytes(), s, p.repeatTimes, p.startIndex, p.srcStride, p.dstGap, p.addrMode == 1,
                        p.ifTranspose);
}

template <typename T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                             const LoadData2dTransposeParams& p) {
  constexpr const char* api = "LoadDataWithTranspose";
  static_assert(sizeof(T) <= 4, "LoadDataWithTranspose: element types of 1, 2 or 4 bytes (or int4b_t)");
  if (p.repeatTimes == 0) return;
  twin::RequireTensor(api, "dst", dst);
  twin::RequireTensor(api, "src", src);
  const TPosition sp = twin::PosOf(src), dp = twin::PosOf(dst);
  if (!twin::InL1(sp)) twin::RaiseTrap("%s: src position %s is not in L1 (A1, B1, C1)", api, twin::PositionName(sp));
  twin::RequireL0Dst(api, dp);
  if (twin::kIsInt4<T> && dp == TPosition::A2) {
    twin::RaiseTrap("%s: int4b_t can be loaded into L0B (B2) only, not L0A (A2)", api);
  }
  twin::RequireAligned(api, "dst", dst, twin::kFractalBytes);
  twin::RequireAligned(api, "src", src, ONE_BLK_SIZE);
  if (p.addrMode > 1) twin::RaiseTrap("%s: addrMode %u is not 0 (increasing) or 1 (decreasing)", api, p.addrMode);
  uint64_t highest = 0;
  twin::FractalRun(api, p.startIndex, p.repeatTimes, p.srcStride, p.addrMode == 1, &highest);
  constexpr uint64_t side = twin::cube::SquareSide<T>();
  constexpr uint64_t fracs = twin::cube::SquareFractals<T>();
  twin::RequireElems(api, "src", src, (highest + 1) * side * side,
                     "squares up to startIndex + (repeatTimes - 1) x srcStride");
  const uint64_t lastFrac = uint64_t{p.repeatTimes - 1u} * (p.dstGap + 1u) + (fracs - 1) * (p.dstFracGap + 1u);
  twin::RequireElems(api, "dst", dst, (lastFrac + 1) * twin::FractalElems<T>(),
                     "the transposed fractals, dstGap / dstFracGap apart");
  twin::cube::LoadTransposed<T>(dst.Bytes(), src.Bytes(), p.repeatTimes, p.startIndex, p.srcStride, p.dstGap,
                                p.dstFracGap, p.addrMode == 1);
}

// ---------------------------------------------------------------- Mmad

__aicore__ inline void SetHF32Mode(HF32Mode mode) { twin::Block().vec.cube.hf32 = (mode == HF32Mode::ENABLE); }
__aicore__ inline void SetHF32Mode(bool hf32Mode) { twin::Block().vec.cube.hf32 = hf32Mode; }
__aicore__ inline void SetHF32TransMode(HF32TransMode mode) {
  twin::Block().vec.cube.hf32NearestZero = (mode == HF32TransMode::NEAREST_ZERO);
}
__aicore__ inline void SetHF32TransMode(bool hf32TransMode) { twin::Block().vec.cube.hf32NearestZero = hf32TransMode; }

namespace twin {

// The A2/A3 dtype combinations (dst, fm, filter); anything else does not compile, as with bisheng.
template <typename T, typename U, typename S>
constexpr bool kMmadCombo =
    std::is_same<U, S>::value &&
    ((std::is_same<T, int32_t>::value && (std::is_same<U, int8_t>::value || kIsInt4<U>)) ||
     (std::is_same<T, float>::value &&
      (std::is_same<U, half>::value || std::is_same<U, bfloat16_t>::value || std::is_same<U, float>::value)));

template <typename T, typename U, typename S>
inline void MmadChecked(const char* api, const LocalTensor<T>& dst, const LocalTensor<U>& fm,
                        const LocalTensor<S>& filter, const T* bias, const MmadParams& p, cube::CInit init) {
  if (p.m > 4095 || p.n > 4095 || p.k > 4095) {
    RaiseTrap("%s: m %u, n %u, k %u: each must be in [0, 4095]", api, p.m, p.n, p.k);
  }
  if (p.unitFlag != 0 && p.unitFlag != 2 && p.unitFlag != 3) {
    RaiseTrap("%s: unitFlag %u is not 0, 2 or 3", api, p.unitFlag);
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) return;  // NOP, as on the NPU
  RequireTensor(api, "dst", dst);
  RequireTensor(api, "fm", fm);
  RequireTensor(api, "filter", filter);
  if (PosOf(dst) != TPosition::CO1) RaiseTrap("%s: dst position %s is not CO1 (L0C)", api, PositionName(PosOf(dst)));
  if (PosOf(fm) != TPosition::A2) RaiseTrap("%s: fm position %s is not A2 (L0A)", api, PositionName(PosOf(fm)));
  if (PosOf(filter) != TPosition::B2) {
    RaiseTrap("%s: filter position %s is not B2 (L0B)", api, PositionName(PosOf(filter)));
  }
  RequireAligned(api, "dst", dst, 1024);
  RequireAligned(api, "fm", fm, kFractalBytes);
  RequireAligned(api, "filter", filter, kFractalBytes);
  if (kIsInt4<U> && p.k % 2 != 0) RaiseTrap("%s: k %u must be even for int4b_t", api, p.k);
  constexpr uint32_t c0 = C0Elems<U>();
  cube::MmadShape s{};
  s.m = p.m;
  s.n = p.n;
  s.k = p.k;
  s.m1 = CeilDivU(p.m, kCubeBlock);
  s.n1 = CeilDivU(p.n, kCubeBlock);
  // kDirectionAlign (float): the L0A/L0B K extent is rounded up to 16, two 8-wide fractals a step.
  s.k1 = (std::is_same<U, float>::value && p.kDirectionAlign) ? CeilDivU(p.k, 16) * 2 : CeilDivU(p.k, c0);
  s.gemv = (p.m == 1);
  char what[96];
  std::snprintf(what, sizeof what, "m=%u k=%u: %u x %u fractals of 16 x %u %s", p.m, p.k, s.m1, s.k1, c0,
                CubeTypeName<U>());
  RequireElems(api, "fm", fm, s.gemv ? uint64_t{p.k} : uint64_t{s.m1} * s.k1 * kCubeBlock * c0, what);
  std::snprintf(what, sizeof what, "k=%u n=%u: %u x %u fractals of 16 x %u %s", p.k, p.n, CeilDivU(p.k, c0), s.n1, c0,
                CubeTypeName<U>());
  RequireElems(api, "filter", filter, uint64_t{CeilDivU(p.k, c0)} * s.n1 * kCubeBlock * c0, what);
  std::snprintf(what, sizeof what, "m=%u n=%u: %u x %u fractals of 16 x 16 %s", p.m, p.n, s.m1, s.n1,
                CubeTypeName<T>());
  RequireElems(api, "dst", dst, uint64_t{s.m1} * s.n1 * kCubeBlock * kCubeBlock, what);
  const CubeRegs& regs = Block().vec.cube;
  cube::RunMmad<T, U>(dst.TwinData(), fm.TwinData(), filter.TwinData(), bias, s, init,
                      std::is_same<U, float>::value && regs.hf32, regs.hf32NearestZero);
}

}  // namespace twin

// C = A x B + C's initial value: 0 (cmatrixInitVal), the bias table from address 0
// (cmatrixSource), or what L0C holds (neither, or the deprecated isBias).
template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const MmadParams& mmadParams) {
  static_assert(twin::kMmadCombo<T, U, S>,
                "Mmad: supported (dst, fm, filter) are (int32_t, int8_t, int8_t), (float, half, half), (float, float, "
                "float), (float, bfloat16_t, bfloat16_t), (int32_t, int4b_t, int4b_t)");
  constexpr const char* api = "Mmad";
  const bool zero = mmadParams.cmatrixInitVal && !mmadParams.isBias;
  if (!zero && mmadParams.cmatrixSource && !mmadParams.isBias) {
    if (mmadParams.m == 0 || mmadParams.n == 0 || mmadParams.k == 0) return;
    uint8_t* bias_base = nullptr;
    uint64_t bias_size = 0;
    twin::MemoryOf(twin::Block(), twin::CoreBuffer::BIAS, &bias_base, &bias_size);
    if (bias_base == nullptr) twin::RaiseNoMemory(api, twin::CoreBuffer::BIAS);
    const T* table = reinterpret_cast<const T*>(bias_base);
    if (uint64_t{mmadParams.n} * sizeof(T) > bias_size) {
      twin::RaiseTrap("%s: cmatrixSource reads %u bias values from the bias table, which holds %llu bytes", api,
                      mmadParams.n, static_cast<unsigned long long>(bias_size));
    }
    twin::MmadChecked(api, dst, fm, filter, table, mmadParams, twin::cube::CInit::kBias);
    return;
  }
  twin::MmadChecked(api, dst, fm, filter, static_cast<const T*>(nullptr), mmadParams,
                    zero ? twin::cube::CInit::kZero : twin::cube::CInit::kKeep);
}

// C = bias (one value per column, from the bias table, C2) + A x B. As the cube's C-init bits
// work, cmatrixInitVal = true still clears C (the bias is not read); CANN's samples pass false.
template <typename T, typename U, typename S, typename V>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const LocalTensor<V>& bias, const MmadParams& mmadParams) {
  static_assert(twin::kMmadCombo<T, U, S> && !twin::kIsInt4<U>,
                "Mmad with bias: supported (dst, fm, filter, bias) are (int32_t, int8_t, int8_t, int32_t), (float, "
                "half, half, float), (float, float, float, float), (float, bfloat16_t, bfloat16_t, float)");
  static_assert(std::is_same<T, V>::value, "Mmad with bias: the bias type must be the dst type (float or int32_t)");
  constexpr const char* api = "Mmad";
  if (mmadParams.m == 0 || mmadParams.n == 0 || mmadParams.k == 0) return;
  twin::RequireTensor(api, "bias", bias);
  if (twin::PosOf(bias) != TPosition::C2) {
    twin::RaiseTrap("%s: bias position %s is not C2 (the bias table)", api, twin::PositionName(twin::PosOf(bias)));
  }
  twin::RequireAligned(api, "bias", bias, 64);
  twin::RequireElems(api, "bias", bias, mmadParams.n, "one value per column n");
  twin::MmadChecked(api, dst, fm, filter, bias.TwinData(), mmadParams,
                    mmadParams.cmatrixInitVal ? twin::cube::CInit::kZero : twin::cube::CInit::kBias);
}

// ---------------------------------------------------------------- InitConstValue

// Fills repeatTimes runs of blockNum blocks (32 B in L1, 512 B in L0A/L0B), dstGap blocks between
// runs, with initValue.
template <typename T, typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
  constexpr const char* api = "InitConstValue";
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "InitConstValue: half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t");
  if (p.repeatTimes == 0 || p.blockNum == 0) return;
  twin::RequireTensor(api, "dst", dst);
  const TPosition dp = twin::PosOf(dst);
  if (!twin::InL1(dp) && dp != TPosition::A2 && dp != TPosition::B2) {
    twin::RaiseTrap("%s: dst position %s is not L1, A2 or B2", api, twin::PositionName(dp));
  }
  const uint64_t blockBytes = twin::InL1(dp) ? ONE_BLK_SIZE : twin::kFractalBytes;
  twin::RequireAligned(api, "dst", dst, blockBytes);
  const uint64_t blockElems = blockBytes / sizeof(T);
  const uint64_t runBlocks = uint64_t{p.blockNum} + p.dstGap;
  twin::RequireElems(api, "dst", dst, ((p.repeatTimes - 1) * runBlocks + p.blockNum) * blockElems,
                     "repeatTimes x blockNum blocks, dstGap apart");
  T* d = dst.TwinData();
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    T* run = d + r * runBlocks * blockElems;
    for (uint64_t i = 0; i < uint64_t{p.blockNum} * blockElems; ++i) run[i] = p.initValue;
  }
}
template <typename T, typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
  InitConstValue(dst, p);
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_MM_INTF_H_
