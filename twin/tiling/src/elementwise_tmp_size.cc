#include "elementwise_tmp_size.h"

#include <cstdarg>
#include <cstdio>
#include <limits>

#include "shape_split.h"
#include "twin/common/log/log.h"

namespace asc_twin_tiling {

void TilingError(const char* api, const char* fmt, ...) {
  char cause[384];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(cause, sizeof(cause), fmt, ap);
  va_end(ap);
  ascend_twin::log::Writef(ascend_twin::log::Level::kError, ascend_twin::log::kOp, __FILE__, __LINE__, "%s: %s", api,
                           cause);
}

bool ShapeElements(const ge::Shape& shape, uint64_t* count, const char** why) {
  RowsByLastAxis split;
  if (!SplitLastAxis(shape, &split, why)) return false;
  if (split.cols != 0 && split.rows > std::numeric_limits<uint64_t>::max() / split.cols) {
    *why = "the shape's element count overflows 64 bits";
    return false;
  }
  *count = split.elements();
  return true;
}

static bool ValidTypeSize(uint32_t typeSize) {
  return typeSize == 1 || typeSize == 2 || typeSize == 4 || typeSize == 8;
}

bool ElementwiseTmpSize(const char* api, const ge::Shape& shape, uint32_t typeSize, uint32_t fp32Nodes,
                        uint32_t& maxValue, uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
  uint64_t count = 0;
  const char* why = nullptr;
  if (!ShapeElements(shape, &count, &why)) {
    TilingError(api, "srcShape is not usable: %s", why);
    return false;
  }
  if (!ValidTypeSize(typeSize)) {
    TilingError(api, "typeSize %u is not the size of a supported type (1, 2, 4 or 8 bytes)", typeSize);
    return false;
  }
  const asc_twin_tmp::TmpFactor f = asc_twin_tmp::FloatNodes(typeSize, fp32Nodes);
  const uint64_t maxBytes = asc_twin_tmp::MaxTmpBytes(f, count, typeSize);
  const uint64_t minBytes = asc_twin_tmp::MinTmpBytes(f, count, typeSize);
  if (maxBytes > std::numeric_limits<uint32_t>::max()) {
    TilingError(api, "the temporary space for %llu elements exceeds 4 GiB", static_cast<unsigned long long>(count));
    return false;
  }
  maxValue = static_cast<uint32_t>(maxBytes);
  minValue = static_cast<uint32_t>(minBytes);
  return true;
}

void ElementwiseTmpFactor(uint32_t typeSize, uint32_t fp32Nodes, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  const asc_twin_tmp::TmpFactor f = asc_twin_tmp::FloatNodes(typeSize, fp32Nodes);
  maxLiveNodeCount = f.maxLiveNodeCount;
  extraBuf = f.extraBuf;
}

}  // namespace asc_twin_tiling
