#!/usr/bin/env bash
# bazel run //twin:install -- PREFIX
# Copies the CANN-like tree (//twin:cann_home) to PREFIX; replaces an earlier install whole.
set -euo pipefail
if (($# != 1)); then
  echo "usage: bazel run //twin:install -- PREFIX" >&2
  exit 2
fi
tree=$(cd "$(dirname "$0")" && pwd)/cann_home
[[ -d $tree ]] || tree=${RUNFILES_DIR:-$0.runfiles}/ascend_twin/twin/cann_home
[[ -d $tree ]] || { echo "install: cannot find the cann_home tree in runfiles" >&2; exit 1; }
prefix=$1
[[ $prefix == /* ]] || prefix=${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix
mkdir -p "$(dirname "$prefix")"
staging=$(mktemp -d "$prefix.tmp.XXXXXX")
trap 'rm -rf "$staging"' EXIT
cp -R "$tree/." "$staging/"
chmod -R u+w "$staging"
rm -rf "$prefix.old"
[[ -e $prefix ]] && mv "$prefix" "$prefix.old"
mv "$staging" "$prefix"
rm -rf "$prefix.old"
trap - EXIT
echo "installed to $prefix; use it with: source $prefix/set_env.sh"
