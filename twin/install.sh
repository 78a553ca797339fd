#!/usr/bin/env bash
# bazel run //twin:install -- PREFIX
# Copies the CANN-like tree (//twin:cann_home) to PREFIX. The copy is staged next to PREFIX and
# renamed into place, so PREFIX is never half-written. PREFIX must be absent, empty, or an
# earlier ascend-twin install (which is replaced whole); anything else is refused.
set -euo pipefail
marker=ascend_twin_install.info
die() { echo "install: $*" >&2; exit 1; }
if (($# != 1)); then
  echo "usage: bazel run //twin:install -- PREFIX" >&2
  exit 2
fi
tree=$(cd "$(dirname "$0")" && pwd)/cann_home
[[ -d $tree ]] || tree=${RUNFILES_DIR:-$0.runfiles}/ascend_twin/twin/cann_home
[[ -f $tree/$marker ]] || die "cannot find the cann_home tree in runfiles"
# Runfiles hold the tree as links to Bazel's output tree, without its empty directories:
# copy from the output tree itself, and never copy a link.
tree=$(dirname "$(readlink -f "$tree/$marker")")
prefix=$1
[[ $prefix == /* ]] || prefix=${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix
prefix=${prefix%/}
[[ -n $prefix ]] || die "refusing to install over /"
if [[ -L $prefix ]]; then
  die "$prefix is a symbolic link; give the real directory"
elif [[ -e $prefix && ! -d $prefix ]]; then
  die "$prefix exists and is not a directory"
elif [[ -d $prefix && -n $(ls -A "$prefix") && ! -f $prefix/$marker ]]; then
  die "$prefix is not empty and is not an ascend-twin install (no $marker); choose an empty or new directory"
fi
mkdir -p "$(dirname "$prefix")"
staging=$(mktemp -d "$prefix.tmp.XXXXXX")
old=""
cleanup() { rm -rf "$staging"; [[ -z $old ]] || rm -rf "$old"; }
trap cleanup EXIT
cp -RL "$tree/." "$staging/"
# Byte code left by programs that ran Python from the build's tree names build paths.
find "$staging" -name __pycache__ -type d -prune -exec rm -rf {} +
chmod -R u+w,go+rX "$staging"
if [[ -e $prefix ]]; then
  old=$(mktemp -d "$prefix.old.XXXXXX")
  mv "$prefix" "$old/tree"
fi
if ! mv "$staging" "$prefix"; then
  [[ -z $old ]] || mv "$old/tree" "$prefix"
  die "cannot move the new tree into $prefix; $prefix is unchanged"
fi
echo "installed to $prefix; use it with: source $prefix/set_env.sh"
