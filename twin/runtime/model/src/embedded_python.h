// The Python interpreter a model that runs through Python (OM format version 2) needs, found on
// demand: libascendcl never links libpython, and a static (version 1) model never loads it.
//
// If the process already runs Python (a pyACL program: the interpreter's symbols are global),
// that interpreter is used. Otherwise libpython is dlopen'ed — $ASCEND_TWIN_LIBPYTHON if set,
// else libpython<X.Y>.so.1.0 (then libpython<X.Y>.so) through the loader's search, where X.Y is
// the Python the install tree's packages were built for (<tree>/python/python_version.txt) —
// and initialized once, for the life of the process. <tree> is $ASCEND_HOME_PATH if set (what
// set_env.sh exports), else the directory above the lib64 that holds libascendcl.so; its
// python/site-packages goes on sys.path.
#ifndef TWIN_RUNTIME_MODEL_SRC_EMBEDDED_PYTHON_H_
#define TWIN_RUNTIME_MODEL_SRC_EMBEDDED_PYTHON_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "twin/runtime/model/src/runtime_adapter.h"

namespace asc_twin::model {

// A strong reference to a Python object; released (with the GIL held) when destroyed.
class PyRef {
 public:
  PyRef() = default;
  explicit PyRef(void *object) : object_(object) {}
  PyRef(PyRef &&other) noexcept : object_(other.object_) { other.object_ = nullptr; }
  PyRef &operator=(PyRef &&other) noexcept;
  PyRef(const PyRef &) = delete;
  PyRef &operator=(const PyRef &) = delete;
  ~PyRef();
  void *get() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }

 private:
  void *object_ = nullptr;
};

// Holds the GIL for its scope (PyGILState_Ensure / Release).
class GilLock {
 public:
  GilLock();
  ~GilLock();
  GilLock(const GilLock &) = delete;
  GilLock &operator=(const GilLock &) = delete;

 private:
  int state_;
};

class EmbeddedPython {
 public:
  // Finds or starts the interpreter (once per process; a failure is not remembered, so the next
  // load tries again); `api` prefixes the message of a failure
  // (ACL_ERROR_FEATURE_UNSUPPORTED: no usable Python environment).
  static Status Ensure(const char *api);
  // The file libascendcl's code was loaded from (pyACL must bind this very library).
  static std::string RuntimeLibraryPath();

  // The calls below need the GIL (GilLock) and a successful Ensure. Failures return a Status
  // built from the pending Python exception: its `acl_code` attribute (or `fallback`) and its
  // message on one line.
  static StatusOr<PyRef> Import(const char *module, aclError fallback);
  // target.name(bytes_arg, str_arg), each argument left out when null.
  static StatusOr<PyRef> Call(const PyRef &target, const char *name, const std::string *bytes_arg,
                              const std::string *str_arg, aclError fallback);
  static StatusOr<std::string> Bytes(const PyRef &object, aclError fallback);
};

}  // namespace asc_twin::model

#endif  // TWIN_RUNTIME_MODEL_SRC_EMBEDDED_PYTHON_H_
