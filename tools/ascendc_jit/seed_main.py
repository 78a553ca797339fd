"""Entry of //tools/ascendc_jit:seed: `python3 -m ascendc_jit.seed` for Bazel actions."""

import sys

from ascendc_jit.seed import main

if __name__ == "__main__":
    sys.exit(main())
