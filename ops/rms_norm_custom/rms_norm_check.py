"""RmsNormCustom's numpy check, shared by the online flow (run.py) and the offline test.

The reference is float64: x / sqrt(mean(x^2 over H) + epsilon) * gamma. The kernel's RmsNorm
computes in float32 for both dtypes (a float16 x and gamma are widened, the result is rounded
once to float16), so the tolerances are:
  float32: |y - ref| <= 1e-5 * |ref| + 1e-6  (float32 sums of H squares and a reciprocal square
           root: a few float32 ulps);
  float16: |y - ref| <= 1e-3 * |ref| + 1e-6  (the final rounding to float16 is half an ulp,
           2^-11 relative, plus float32's error).
"""

from typing import Tuple

import numpy as np

# (relative, absolute) tolerance per dtype; see the module docstring for why
TOLERANCE = {"float16": (1e-3, 1e-6), "float32": (1e-5, 1e-6)}


def random_inputs(rng: np.random.Generator, shape: Tuple[int, ...], gamma_len: int, np_type) -> Tuple:
    """x uniform in [-2, 2), gamma in [-1.5, 1.5): signs mixed, rows of different RMS."""
    x = rng.uniform(-2, 2, shape).astype(np_type)
    gamma = rng.uniform(-1.5, 1.5, gamma_len).astype(np_type)
    return x, gamma


def reference(x: np.ndarray, gamma: np.ndarray, epsilon: float) -> np.ndarray:
    x64 = x.astype(np.float64)
    return x64 / np.sqrt(np.mean(x64 * x64, axis=-1, keepdims=True) + epsilon) * gamma.astype(np.float64)


def compare(label: str, got: np.ndarray, x: np.ndarray, gamma: np.ndarray, epsilon: float) -> bool:
    """Prints one line (`<label>: y == rms_norm(x, gamma) (...)` or MISMATCH) and returns whether y matches."""
    dtype_name = np.dtype(x.dtype).name
    rel, abs_tol = TOLERANCE[dtype_name]
    want = reference(x, gamma, epsilon)
    err = np.abs(got.astype(np.float64).reshape(want.shape) - want)
    bad = int(np.count_nonzero(~(err <= rel * np.abs(want) + abs_tol)))  # nan counts as bad
    worst = float((err / (np.abs(want) + abs_tol / rel)).max())
    verdict = "y == rms_norm(x, gamma)" if bad == 0 else f"MISMATCH in {bad} of {want.size} elements"
    print(
        f"{label}: {verdict} (max relative error {worst:.2e}, tolerance {rel:.0e} * |ref| + {abs_tol:.0e})", flush=True
    )
    return bad == 0
