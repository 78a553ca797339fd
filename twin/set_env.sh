# Source this file to use the CPU twin of CANN installed here, as with CANN's set_env.sh:
#   source <prefix>/set_env.sh && atc --help && bisheng --version && python3 -c "import ge"
_ascend_twin_home=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)
export ASCEND_HOME_PATH="$_ascend_twin_home"
export ASCEND_TOOLKIT_HOME="$_ascend_twin_home"
export ASCEND_OPP_PATH="$_ascend_twin_home/opp"
export PATH="$_ascend_twin_home/bin${PATH:+:$PATH}"
export LD_LIBRARY_PATH="$_ascend_twin_home/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$_ascend_twin_home/python/site-packages${PYTHONPATH:+:$PYTHONPATH}"
unset _ascend_twin_home
