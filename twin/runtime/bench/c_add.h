// The plain C contender of the benchmarks: z = x + y split evenly over `threads` std::threads,
// started per call (what a C programmer would write; built -O3 so the loop is vectorized).
// Shared by //twin/runtime/bench:add_bench and //offline/bench:om_bench so their ratios mean the same.
#ifndef ASC_TWIN_RUNTIME_BENCH_C_ADD_H_
#define ASC_TWIN_RUNTIME_BENCH_C_ADD_H_

#include <cstdint>
#include <thread>
#include <vector>

namespace asc_twin_bench {

inline void CAdd(const float *__restrict x, const float *__restrict y, float *__restrict z, uint64_t n,
                 unsigned threads) {
  std::vector<std::thread> team;
  team.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    const uint64_t lo = n * t / threads, hi = n * (t + 1) / threads;
    team.emplace_back([=] {
      for (uint64_t i = lo; i < hi; ++i) z[i] = x[i] + y[i];
    });
  }
  for (std::thread &thread : team) thread.join();
}

}  // namespace asc_twin_bench

#endif  // ASC_TWIN_RUNTIME_BENCH_C_ADD_H_
