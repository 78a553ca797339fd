// Every TCubeTiling field, once, for the copies between the kernel struct and optiling's class
// (the inline GetTiling(optiling::TCubeTiling&) forms of matmul_tiling_base.h).
#ifndef ASC_TWIN_TILING_MATMUL_MATMUL_TILING_FIELDS_H_
#define ASC_TWIN_TILING_MATMUL_MATMUL_TILING_FIELDS_H_

#define ASC_TWIN_TCUBE_TILING_FIELDS(X) \
  X(usedCoreNum)                        \
  X(M)                                  \
  X(N)                                  \
  X(Ka)                                 \
  X(Kb)                                 \
  X(singleCoreM)                        \
  X(singleCoreN)                        \
  X(singleCoreK)                        \
  X(baseM)                              \
  X(baseN)                              \
  X(baseK)                              \
  X(depthA1)                            \
  X(depthB1)                            \
  X(stepM)                              \
  X(stepN)                              \
  X(isBias)                             \
  X(transLength)                        \
  X(iterateOrder)                       \
  X(shareMode)                          \
  X(shareL1Size)                        \
  X(shareL0CSize)                       \
  X(shareUbSize)                        \
  X(batchM)                             \
  X(batchN)                             \
  X(singleBatchM)                       \
  X(singleBatchN)                       \
  X(stepKa)                             \
  X(stepKb)                             \
  X(depthAL1CacheUB)                    \
  X(depthBL1CacheUB)                    \
  X(dbL0A)                              \
  X(dbL0B)                              \
  X(dbL0C)                              \
  X(ALayoutInfoB)                       \
  X(ALayoutInfoS)                       \
  X(ALayoutInfoN)                       \
  X(ALayoutInfoG)                       \
  X(ALayoutInfoD)                       \
  X(BLayoutInfoB)                       \
  X(BLayoutInfoS)                       \
  X(BLayoutInfoN)                       \
  X(BLayoutInfoG)                       \
  X(BLayoutInfoD)                       \
  X(CLayoutInfoB)                       \
  X(CLayoutInfoS1)                      \
  X(CLayoutInfoN)                       \
  X(CLayoutInfoG)                       \
  X(CLayoutInfoS2)                      \
  X(BatchNum)                           \
  X(mxTypePara)

#endif  // ASC_TWIN_TILING_MATMUL_MATMUL_TILING_FIELDS_H_
