#!/usr/bin/env bash
# Installs what the build needs, once; a no-op in well under a second when all is present.
#   apt : Bazel 4.2.3 (bazel-bootstrap) and its offline rule packages, clang/lld/llvm 16 (with
#         libclang-rt-16-dev for the fuzz targets),
#         protoc (+ the well-known .proto files of libprotobuf-dev), googletest sources,
#         nginx-light (remote-cache test), cmake (the ES CMake package test and the CANN-style
#         consumer projects under tests/), python3-venv and libpython3-dev (the venv, and the C
#         headers of ge's extension module), python3-pip/-setuptools/-wheel (the system python3
#         that builds ES wheels in the CMake consumer tests, as a CANN user's would),
#         clang-format-16 and clang-tidy-16 (tools/lint.sh); npm when the machine has no node
#   npm : buildifier (tools/lint.sh), pinned below; the package ships the native binaries
#         themselves (no download at install time), installed at /opt/ascend-twin-lint
#   pip : requirements.txt (and tools/requirements-lint.txt: ruff, mypy) into a venv at one machine-wide path (/opt/ascend-twin-venv), made from
#         Debian's /usr/bin/python3: every user's py_binary launchers then name the same
#         interpreter, so their actions share one remote cache
#   user.bazelrc: persistent disk/repository caches and the pinned interpreter
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
twin_home=${ASCEND_TWIN_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/ascend-twin}
venv=${ASCEND_TWIN_VENV:-/opt/ascend-twin-venv}
# The venv once lived at /opt/ascend-twin/venv, inside the README's install prefix, which then
# refused `bazel run //twin:install -- /opt/ascend-twin` as "not empty". Remove that old venv when it
# is all the folder holds (its stamp proves it is ours).
legacy=/opt/ascend-twin
if [[ $venv != "$legacy/venv" && -f $legacy/venv/.requirements.sha256 && $(ls -A "$legacy") == venv ]]; then
  rm -rf "${legacy:?}/venv" && rmdir "$legacy" 2>/dev/null || true
fi

apt_packages=(
  bazel-bootstrap bazel-rules-java bazel-platforms
  clang-16 lld-16 llvm-16 libclang-rt-16-dev
  protobuf-compiler libprotobuf-dev
  googletest
  nginx-light
  cmake
  python3-venv libpython3-dev
  python3-pip python3-setuptools python3-wheel
  clang-format-16 clang-tidy-16
)
# Any node with its npm will do (this machine's may not come from Debian); Debian's otherwise.
command -v npm >/dev/null || apt_packages+=(npm)

log() { printf 'bootstrap: %s\n' "$*" >&2; }

# One dpkg-query for all of them (a process each cost seconds on a loaded machine).
declare -A installed=()
while read -r pkg status; do
  [[ $status == "install ok installed" ]] && installed[$pkg]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${apt_packages[@]}" 2>/dev/null || true)
missing=()
for pkg in "${apt_packages[@]}"; do
  [[ -n ${installed[$pkg]:-} ]] || missing+=("$pkg")
done
sudo_cmd=()
[[ $(id -u) == 0 ]] || sudo_cmd=(sudo)
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# The venv is rebuilt only when requirements.txt changes (its hash is the stamp).
want=$(sha256sum "$root/requirements.txt" | cut -d' ' -f1)
have=$(cat "$venv/.requirements.sha256" 2>/dev/null || true)
if [[ $want != "$have" ]]; then
  # The stamp is written last, so an interrupted install is redone on the next run.
  log "creating Python venv at $venv"
  python=${ASCEND_TWIN_VENV_PYTHON:-/usr/bin/python3}
  if ! mkdir -p "$venv" 2>/dev/null || [[ ! -w $venv ]]; then
    "${sudo_cmd[@]}" mkdir -p "$venv"
    "${sudo_cmd[@]}" chown "$(id -u):$(id -g)" "$venv"
  fi
  rm -rf "${venv:?}"/*
  "$python" -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/requirements.txt" 2> >(grep -v "is ignored: it is neither" >&2)
  echo "$want" > "$venv/.requirements.sha256"
fi

# The linters live in the same venv (mypy must see numpy and protobuf), with a stamp of their own,
# which a rebuilt venv loses, so they are reinstalled with it.
want_lint=$(sha256sum "$root/tools/requirements-lint.txt" | cut -d' ' -f1)
if [[ $want_lint != "$(cat "$venv/.requirements-lint.sha256" 2>/dev/null || true)" ]]; then
  log "installing the Python linters into $venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/tools/requirements-lint.txt" 2> >(grep -v "is ignored: it is neither" >&2)
  echo "$want_lint" > "$venv/.requirements-lint.sha256"
fi

# buildifier from the npm registry: @bazel/buildifier carries every platform's binary in its
# tarball (no install script fetches anything), so it installs where only the registry is reachable.
buildifier_version=8.2.1
lint_tools=${ASCEND_TWIN_LINT_TOOLS:-/opt/ascend-twin-lint}
buildifier_pkg=$lint_tools/node_modules/@bazel/buildifier
if ! grep -qs "\"version\": \"$buildifier_version\"" "$buildifier_pkg/package.json"; then
  log "installing buildifier $buildifier_version (npm) at $lint_tools"
  if ! mkdir -p "$lint_tools" 2>/dev/null || [[ ! -w $lint_tools ]]; then
    "${sudo_cmd[@]}" mkdir -p "$lint_tools"
    "${sudo_cmd[@]}" chown "$(id -u):$(id -g)" "$lint_tools"
  fi
  npm install --prefix "$lint_tools" --no-audit --no-fund --loglevel=error \
    "@bazel/buildifier@$buildifier_version" >/dev/null
fi

rc=$(cat <<EOT
# Written by tools/bootstrap.sh; machine-local, not committed.
build --disk_cache=$twin_home/bazel-disk-cache
fetch --repository_cache=$twin_home/bazel-repo-cache
build --repository_cache=$twin_home/bazel-repo-cache
common --repo_env=ASCEND_TWIN_VENV=$venv
EOT
)
if [[ -n ${ASCEND_TWIN_REMOTE_CACHE:-} ]]; then
  rc+=$'\n'"build:remote-cache --remote_cache=$ASCEND_TWIN_REMOTE_CACHE"
fi
if [[ $(cat "$root/user.bazelrc" 2>/dev/null) != "$rc" ]]; then
  printf '%s\n' "$rc" > "$root/user.bazelrc.tmp"
  mv "$root/user.bazelrc.tmp" "$root/user.bazelrc"
fi
