// The cube APIs' operand checks, each a one-line trap naming the API and the cause: the
// position a LocalTensor must have (TPosition), the alignment of its address inside its memory
// (GetPhyAddr: 512 B for L0A/L0B fractals, 32 B in L1, ...) and the elements an access needs.
#ifndef ASC_TWIN_CUBE_CHECKS_H_
#define ASC_TWIN_CUBE_CHECKS_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "asc_twin/trap.h"
#include "kernel_tensor.h"
#include "kernel_type.h"

namespace AscendC {
namespace twin {

inline const char* PositionName(TPosition pos) {
  switch (pos) {
    case TPosition::GM:
      return "GM";
    case TPosition::A1:
      return "A1";
    case TPosition::A2:
      return "A2";
    case TPosition::B1:
      return "B1";
    case TPosition::B2:
      return "B2";
    case TPosition::C1:
      return "C1";
    case TPosition::C2:
      return "C2";
    case TPosition::CO1:
      return "CO1";
    case TPosition::CO2:
      return "CO2";
    case TPosition::VECIN:
      return "VECIN";
    case TPosition::VECOUT:
      return "VECOUT";
    case TPosition::VECCALC:
      return "VECCALC";
    case TPosition::SPM:
      return "SPM";
    case TPosition::TSCM:
      return "TSCM";
    case TPosition::C2PIPE2GM:
      return "C2PIPE2GM";
    case TPosition::C2PIPE2LOCAL:
      return "C2PIPE2LOCAL";
    default:
      return "MAX";
  }
}

template <typename T>
inline TPosition PosOf(const LocalTensor<T>& t) {
  return static_cast<TPosition>(t.GetPosition());
}
inline bool InL1(TPosition p) {
  return p == TPosition::A1 || p == TPosition::B1 || p == TPosition::C1 || p == TPosition::TSCM;
}
inline bool InUb(TPosition p) { return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC; }

template <typename T>
inline void RequireTensor(const char* api, const char* role, const LocalTensor<T>& t) {
  if (t.TwinData() == nullptr) RaiseTrap("%s: %s is an unallocated LocalTensor", api, role);
}

template <typename T>
inline void RequireAligned(const char* api, const char* role, const LocalTensor<T>& t, uint64_t align) {
  const uint64_t addr = t.GetPhyAddr();
  if (addr % align != 0) {
    RaiseTrap("%s: %s address %llu (%s) is not %llu-byte aligned", api, role, static_cast<unsigned long long>(addr),
              PositionName(PosOf(t)), static_cast<unsigned long long>(align));
  }
}

// The local memory a tensor's bytes live in: its position's memory, or else the UB (a tensor
// made over UB bytes and given a cube position).
template <typename T>
inline LocalMemory MemoryHolding(const LocalTensor<T>& t) {
  const uint8_t* p = t.Bytes();
  const LocalMemory own = LocalMemoryOf(PosOf(t));
  if (own.base != nullptr && p >= own.base && p < own.base + own.size) return own;
  const BlockState& b = Block();
  return {b.ub_base, b.ub_size, "UB"};
}

// `elems` elements from the tensor's start must lie inside its local memory (L0A, L1, ...): the
// hardware's bound. CANN's samples size their LocalTensors loosely (an L0C tensor of m x n
// aligned to 16 for an Mmad whose n is aligned to 32), so the tensor's own size is not one.
template <typename T>
inline void RequireElems(const char* api, const char* role, const LocalTensor<T>& t, uint64_t elems, const char* what) {
  const LocalMemory mem = MemoryHolding(t);
  const uint64_t at = static_cast<uint64_t>(t.Bytes() - mem.base);
  if (at + ElemBytes<T>(elems) > mem.size) {
    RaiseTrap("%s: %s needs %llu elements (%s) from %s address %llu, past the end of %s (%llu B)", api, role,
              static_cast<unsigned long long>(elems), what, mem.name, static_cast<unsigned long long>(at), mem.name,
              static_cast<unsigned long long>(mem.size));
  }
}

// The same for a byte count.
template <typename T>
inline void RequireBytes(const char* api, const char* role, const LocalTensor<T>& t, uint64_t bytes, const char* what) {
  const LocalMemory mem = MemoryHolding(t);
  const uint64_t at = static_cast<uint64_t>(t.Bytes() - mem.base);
  if (at + bytes > mem.size) {
    RaiseTrap("%s: %s reaches %llu B (%s) from %s address %llu, past the end of %s (%llu B)", api, role,
              static_cast<unsigned long long>(bytes), what, mem.name, static_cast<unsigned long long>(at), mem.name,
              static_cast<unsigned long long>(mem.size));
  }
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_CHECKS_H_
