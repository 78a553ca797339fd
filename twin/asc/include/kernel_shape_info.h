// ShapeInfo: the shape a LocalTensor carries for the high-level APIs that read it
// (LocalTensor::SetShapeInfo / GetShapeInfo; AscendAntiQuant takes its offset/scale shape from
// it), with CANN's members and constructors; GetShapeSize multiplies the dimensions.
//
// A LocalTensor stays 32 bytes (it is copied by value in every API call): it holds a 16-bit slot
// number into a process-wide table of immutable ShapeInfo values instead of the 72-byte struct.
// Equal shapes share a slot, so a kernel that sets the same shape in a loop uses one; value
// semantics hold because SetShapeInfo only ever points a tensor at another slot.
#ifndef ASC_TWIN_KERNEL_SHAPE_INFO_H_
#define ASC_TWIN_KERNEL_SHAPE_INFO_H_

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "asc_twin/trap.h"
#include "kernel_macros.h"

namespace AscendC {

// The data formats a tile may be in (CANN guards the enum the same way: several headers define it).
#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t {
  ND = 0,
  NZ,
  NCHW,
  NC1HWC0,
  NHWC,
  NCDHW,
  NDC1HWC0,
  FRACTAL_Z_3D,
};
#endif  // ASCC_ENUM_DATAFORMAT

constexpr int32_t K_MAX_SHAPE_DIM = 8;

struct ShapeInfo {
 public:
  __aicore__ inline ShapeInfo() {}
  __aicore__ inline ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[],
                              const uint8_t inputOriginalShapeDim, const uint32_t inputOriginalShape[],
                              const DataFormat inputFormat)
      : shapeDim(Dims("shapeDim", inputShapeDim)),
        originalShapeDim(Dims("originalShapeDim", inputOriginalShapeDim)),
        dataFormat(inputFormat) {
    for (uint8_t i = 0; i < shapeDim; ++i) shape[i] = inputShape[i];
    for (uint8_t i = 0; i < originalShapeDim; ++i) originalShape[i] = inputOriginalShape[i];
  }
  __aicore__ inline ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
  __aicore__ inline ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}

  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[K_MAX_SHAPE_DIM] = {};
  uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;

 private:
  static uint8_t Dims(const char* what, uint8_t n) {
    if (n > K_MAX_SHAPE_DIM) twin::RaiseTrap("ShapeInfo: %s %u exceeds K_MAX_SHAPE_DIM (%d)", what, n, K_MAX_SHAPE_DIM);
    return n;
  }
};

// The number of elements the shape describes (1 for a 0-dimensional shape, as a scalar).
__aicore__ inline int32_t GetShapeSize(const ShapeInfo& shapeInfo) {
  int64_t n = 1;
  for (uint8_t i = 0; i < shapeInfo.shapeDim; ++i) n *= shapeInfo.shape[i];
  return static_cast<int32_t>(n);
}

namespace twin {

// Slot 0 means "no ShapeInfo set" (a default ShapeInfo is returned for it).
class ShapeInfoTable {
 public:
  static constexpr uint32_t kSlots = 4096;

  static uint16_t Intern(const ShapeInfo& s) {
    ShapeInfoTable& t = Get();
    const uint32_t n = t.count_.load(std::memory_order_acquire);
    for (uint32_t i = 1; i < n; ++i)
      if (Same(t.slots_[i], s)) return static_cast<uint16_t>(i);
    std::lock_guard<std::mutex> lock(t.mu_);
    const uint32_t m = t.count_.load(std::memory_order_relaxed);
    for (uint32_t i = n; i < m; ++i)
      if (Same(t.slots_[i], s)) return static_cast<uint16_t>(i);
    if (m >= kSlots) {
      RaiseTrap("LocalTensor::SetShapeInfo: more than %u distinct shapes in one process (the twin's table is full)",
                kSlots - 1);
    }
    t.slots_[m] = s;
    t.count_.store(m + 1, std::memory_order_release);
    return static_cast<uint16_t>(m);
  }
  static const ShapeInfo& At(uint16_t slot) { return Get().slots_[slot]; }

 private:
  static bool Same(const ShapeInfo& a, const ShapeInfo& b) {
    if (a.shapeDim != b.shapeDim || a.originalShapeDim != b.originalShapeDim || a.dataFormat != b.dataFormat)
      return false;
    return std::memcmp(a.shape, b.shape, sizeof(a.shape)) == 0 &&
           std::memcmp(a.originalShape, b.originalShape, sizeof(a.originalShape)) == 0;
  }
  static ShapeInfoTable& Get() {
    static ShapeInfoTable table;  // trivially destructible members only: safe in a dlclose'd image
    return table;
  }
  ShapeInfo slots_[kSlots];
  std::atomic<uint32_t> count_{1};
  std::mutex mu_;
};

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_SHAPE_INFO_H_
