// adv_api/matmul/policy/matmul_policy.h: the policies a kernel plugs into Matmul's last template
// parameter (AscendC::Impl::Detail, CANN's names and template parameters). CANN's policies choose
// the modules its Matmul is built of (L1 buffering, scheduler, copy-out); on the twin they change
// which result blocks a Matmul computes, never how a block is computed:
// - MatmulPolicy (the default) and NBuffer33MatmulPolicy (CANN's 3x3 L1 buffering of A and B
//   blocks, a performance scheme): every block;
// - TrianUpperMatmulPolicy / TrianLowerMatmulPolicy: only the base blocks on and above (below)
//   the diagonal of the single-core C, counted in base blocks (block row m, block column n:
//   m <= n for upper, m >= n for lower); the other blocks of C are left as they were.
#ifndef ASC_TWIN_ADV_API_MATMUL_POLICY_MATMUL_POLICY_H_
#define ASC_TWIN_ADV_API_MATMUL_POLICY_MATMUL_POLICY_H_

#include <cstdint>

namespace AscendC {
namespace Impl {
namespace Detail {

enum class TwinBlockFilter : uint8_t { ALL, UPPER_TRIANGLE, LOWER_TRIANGLE };

template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct MatmulPolicy {
  using UserDefDataType = uint64_t;
  static constexpr TwinBlockFilter kTwinBlocks = TwinBlockFilter::ALL;
};

template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct NBuffer33MatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};

template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianUpperMatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
  static constexpr TwinBlockFilter kTwinBlocks = TwinBlockFilter::UPPER_TRIANGLE;
};

template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianLowerMatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
  static constexpr TwinBlockFilter kTwinBlocks = TwinBlockFilter::LOWER_TRIANGLE;
};

// Whether a policy computes block (m, n).
template <class POLICY>
constexpr bool TwinWantsBlock(uint32_t m, uint32_t n) {
  return POLICY::kTwinBlocks == TwinBlockFilter::ALL ||
         (POLICY::kTwinBlocks == TwinBlockFilter::UPPER_TRIANGLE ? m <= n : m >= n);
}

}  // namespace Detail
}  // namespace Impl
}  // namespace AscendC

// CANN spells the policy parameter of Matmul with these (a template template parameter).
#define MATMUL_POLICY_DEFAULT_OF(DEFAULT)      \
  template <const auto& = MM_CFG, typename...> \
  class MATMUL_POLICY = AscendC::Impl::Detail::DEFAULT
#define MATMUL_POLICY_TEMPLATE_OF(NAME)        \
  template <const auto& = MM_CFG, typename...> \
  class NAME

#endif  // ASC_TWIN_ADV_API_MATMUL_POLICY_MATMUL_POLICY_H_
