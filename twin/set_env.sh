# Source this file to use the CPU twin of CANN installed here, as with CANN's set_env.sh:
#   source <prefix>/set_env.sh && atc --help && bisheng --version && python3 -c "import ge"
# Everything the tree needs is inside it (its Python packages included), so a shell with no
# other setup works; sourcing it twice does not grow the search paths.
_ascend_twin_home=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)
# VAR DIR: put DIR first in the colon list VAR, once (plain sh syntax, so bash and zsh both work).
_ascend_twin_prepend() {
  eval "_ascend_twin_rest=\${$1:-}"
  _ascend_twin_new=$2
  while [ -n "$_ascend_twin_rest" ]; do
    _ascend_twin_item=${_ascend_twin_rest%%:*}
    case $_ascend_twin_rest in *:*) _ascend_twin_rest=${_ascend_twin_rest#*:} ;; *) _ascend_twin_rest= ;; esac
    if [ -n "$_ascend_twin_item" ] && [ "$_ascend_twin_item" != "$2" ]; then
      _ascend_twin_new=$_ascend_twin_new:$_ascend_twin_item
    fi
  done
  export "$1=$_ascend_twin_new"
  unset _ascend_twin_rest _ascend_twin_new _ascend_twin_item
}
export ASCEND_HOME_PATH="$_ascend_twin_home"
export ASCEND_TOOLKIT_HOME="$_ascend_twin_home"
export ASCEND_OPP_PATH="$_ascend_twin_home/opp"
export TOOLCHAIN_HOME="$_ascend_twin_home/x86_64-linux/ccec_compiler"
_ascend_twin_prepend PATH "$_ascend_twin_home/x86_64-linux/ccec_compiler/bin"
_ascend_twin_prepend PATH "$_ascend_twin_home/bin"
_ascend_twin_prepend LD_LIBRARY_PATH "$_ascend_twin_home/lib64"
_ascend_twin_prepend PYTHONPATH "$_ascend_twin_home/python/site-packages"
_ascend_twin_prepend CMAKE_PREFIX_PATH "$_ascend_twin_home/lib64/cmake"
unset -f _ascend_twin_prepend
unset _ascend_twin_home
