// Mean: dst[i] = the mean of the first n elements of row i (MeanParams as SumParams); the sum
// is kept in fp32 (accType half or float: the twin's accumulator is fp32 either way).
#ifndef ASC_TWIN_ADV_API_REDUCE_MEAN_H_
#define ASC_TWIN_ADV_API_REDUCE_MEAN_H_

#include "adv_api/reduce/sum.h"

namespace AscendC {

struct MeanParams {
  uint32_t outter = 1;
  uint32_t inner;  // n rounded up to 32 bytes of T
  uint32_t n;      // the elements of a row that count
};

template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const MeanParams& meanParams) {
  twin::adv::CheckRowTmp<T>("Mean", sharedTmpBuffer, meanParams.n);
  twin::adv::RowReduce<T, float>("Mean", dstTensor, srcTensor, meanParams.outter, meanParams.inner, meanParams.n, true);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const MeanParams& meanParams) {
  twin::adv::RowReduce<T, float>("Mean", dstTensor, srcTensor, meanParams.outter, meanParams.inner, meanParams.n, true);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_REDUCE_MEAN_H_
