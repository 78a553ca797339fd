// utils/debug/asc_dump.h: asc_dump_gm / asc_dump_ubuf and the asc_dump overloads, printing
// dump_size elements from a raw GM or UB address with DumpTensor's header line. Built with
// -DASCENDC_DUMP=0 they print nothing, as CANN's. On the twin __gm__ and __ubuf__ are empty, so
// one asc_dump takes both: an address inside the block's UB, or below its UB size (a UB
// address as GetPhyAddr gives it, cast to a pointer), is UB; any other address is GM.
// asc_dump_l1buf and asc_dump_cbuf take an L1 / L0C address the same two ways (a pointer into
// the block's buffer, or the offset GetPhyAddr gives).
#ifndef ASC_TWIN_UTILS_DEBUG_ASC_DUMP_H_
#define ASC_TWIN_UTILS_DEBUG_ASC_DUMP_H_

#include <cstdint>

#include "kernel_operator.h"

namespace AscendC {
namespace twin {
// The host pointer of a UB address given as a pointer (a real one, or a UB offset), or null.
template <typename T>
inline const T* UbPointer(const T* input) {
  const BlockState& b = Block();
  const uintptr_t v = reinterpret_cast<uintptr_t>(input);
  const uintptr_t base = reinterpret_cast<uintptr_t>(b.ub_base);
  if (b.ub_base != nullptr && v >= base && v < base + b.ub_size) return input;
  if (b.ub_base != nullptr && v < b.ub_size) return reinterpret_cast<const T*>(b.ub_base + v);
  return nullptr;
}
template <typename T>
inline void DumpUb(const char* api, const T* input, uint32_t desc, uint32_t dumpSize) {
  const T* p = UbPointer(input);
  if (p == nullptr) RaiseTrap("%s: address %p is not in the block's UB", api, static_cast<const void*>(input));
  const BlockState& b = Block();
  const uint64_t at = static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(p) - b.ub_base);
  if (at + ElemBytes<T>(dumpSize) > b.ub_size) {
    RaiseTrap("%s: %u elements from UB address %llu pass the UB end (%llu B)", api, dumpSize,
              static_cast<unsigned long long>(at), static_cast<unsigned long long>(b.ub_size));
  }
  DumpValues("UB", at, p, 0, desc, dumpSize);
}
// A cube memory's address given as a pointer (into the block's buffer, or an offset in it).
template <typename T>
inline void DumpCore(const char* api, CoreBuffer which, const T* input, uint32_t desc, uint32_t dumpSize) {
  BlockState& b = Block();
  const uint8_t* base = b.core.Get(which);
  const uint64_t size = CoreBufferBytes(which);
  const uintptr_t v = reinterpret_cast<uintptr_t>(input), lo = reinterpret_cast<uintptr_t>(base);
  const uint64_t at = (v >= lo && v < lo + size) ? v - lo : v;
  if (at >= size || at + ElemBytes<T>(dumpSize) > size) {
    RaiseTrap("%s: %u elements from %s address %llu pass the %s end (%llu B)", api, dumpSize, CoreBufferName(which),
              static_cast<unsigned long long>(at), CoreBufferName(which), static_cast<unsigned long long>(size));
  }
  DumpValues(CoreBufferName(which), at, reinterpret_cast<const T*>(base + at), 0, desc, dumpSize);
}
template <typename T>
inline void DumpGm(const char* api, const T* input, uint32_t desc, uint32_t dumpSize) {
  CheckGm(api, input, ElemBytes<T>(dumpSize));
  DumpValues("GM", reinterpret_cast<uint64_t>(input), input, 0, desc, dumpSize);
}
}  // namespace twin
}  // namespace AscendC

#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
template <typename T>
__aicore__ inline void asc_dump_gm(__gm__ T*, uint32_t, uint32_t) {}
template <typename T>
__aicore__ inline void asc_dump_ubuf(__ubuf__ T*, uint32_t, uint32_t) {}
template <typename T>
__aicore__ inline void asc_dump(T*, uint32_t, uint32_t) {}
template <typename T>
__aicore__ inline void asc_dump_l1buf(__cbuf__ T*, uint32_t, uint32_t) {}
template <typename T>
__aicore__ inline void asc_dump_cbuf(__cc__ T*, uint32_t, uint32_t) {}
#else
template <typename T>
__aicore__ inline void asc_dump_gm(__gm__ T* input, uint32_t desc, uint32_t dump_size) {
  AscendC::twin::DumpGm("asc_dump_gm", input, desc, dump_size);
}
template <typename T>
__aicore__ inline void asc_dump_ubuf(__ubuf__ T* input, uint32_t desc, uint32_t dump_size) {
  AscendC::twin::DumpUb("asc_dump_ubuf", input, desc, dump_size);
}
template <typename T>
__aicore__ inline void asc_dump_l1buf(__cbuf__ T* input, uint32_t desc, uint32_t dump_size) {
  AscendC::twin::DumpCore("asc_dump_l1buf", AscendC::twin::CoreBuffer::L1, input, desc, dump_size);
}
template <typename T>
__aicore__ inline void asc_dump_cbuf(__cc__ T* input, uint32_t desc, uint32_t dump_size) {
  AscendC::twin::DumpCore("asc_dump_cbuf", AscendC::twin::CoreBuffer::L0C, input, desc, dump_size);
}
template <typename T>
__aicore__ inline void asc_dump(T* input, uint32_t desc, uint32_t dump_size) {
  if (AscendC::twin::UbPointer(input) != nullptr) {
    AscendC::twin::DumpUb("asc_dump", input, desc, dump_size);
  } else {
    AscendC::twin::DumpGm("asc_dump", input, desc, dump_size);
  }
}
#endif

#endif  // ASC_TWIN_UTILS_DEBUG_ASC_DUMP_H_
