#!/usr/bin/env bash
# Makes the venv the conformance runner's --python-env takes: the examples' stated Python
# prerequisites (example_requirements.txt), as a user following their READMEs would pip-install.
set -euo pipefail
dest="${1:?usage: setup_python_env.sh DIR}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -x "$dest/bin/python3" ]]; then
  python3 -m venv "$dest"
fi
"$dest/bin/pip" install -q --disable-pip-version-check -r "$here/example_requirements.txt"
"$dest/bin/python3" -c "import numpy, ml_dtypes" && echo "python env ready: $dest"
