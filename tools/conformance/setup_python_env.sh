#!/usr/bin/env bash
# Makes the venv the conformance runner's --python-env takes: the system python3 (with what it
# already has: setuptools and wheel build the samples' own wheels) plus the examples' stated
# prerequisites (example_requirements.txt), as a user following their READMEs would pip-install.
set -euo pipefail
dest="${1:?usage: setup_python_env.sh DIR}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -x "$dest/bin/python3" ]] || ! grep -q "include-system-site-packages = true" "$dest/pyvenv.cfg" \
    || ! grep -q "^home = /usr/bin$" "$dest/pyvenv.cfg"; then
  rm -rf "$dest"
  # the python3 of the clean shell each case runs in (PATH=/usr/bin:/bin), not this shell's
  base=$(env -i PATH=/usr/bin:/bin bash -c 'command -v python3')
  "$base" -m venv --system-site-packages "$dest"
fi
"$dest/bin/pip" install -q --disable-pip-version-check -r "$here/example_requirements.txt"
"$dest/bin/python3" -c "import numpy, ml_dtypes, setuptools, wheel" && echo "python env ready: $dest"
