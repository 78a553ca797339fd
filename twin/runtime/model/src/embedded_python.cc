#include "twin/runtime/model/src/embedded_python.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <vector>

namespace asc_twin::model {
namespace {

using Object = void *;
using SizeT = ssize_t;  // Py_ssize_t

// The part of Python's C API used here, resolved with dlsym (no link dependency on libpython).
struct Api {
  int (*IsInitialized)();
  void (*InitializeEx)(int);
  void *(*EvalSaveThread)();
  int (*GilEnsure)();
  void (*GilRelease)(int);
  Object (*ImportModule)(const char *);
  Object (*GetAttrString)(Object, const char *);
  Object (*CallObject)(Object, Object);
  Object (*TupleNew)(SizeT);
  int (*TupleSetItem)(Object, SizeT, Object);
  Object (*BytesFromStringAndSize)(const char *, SizeT);
  int (*BytesAsStringAndSize)(Object, char **, SizeT *);
  Object (*UnicodeFromString)(const char *);
  const char *(*UnicodeAsUTF8)(Object);
  Object (*ObjectStr)(Object);
  long (*LongAsLong)(Object);
  void (*ErrFetch)(Object *, Object *, Object *);
  void (*ErrNormalize)(Object *, Object *, Object *);
  void (*ErrClear)();
  Object (*SysGetObject)(const char *);
  int (*ListInsert)(Object, SizeT, Object);
  int (*ListAppend)(Object, Object);
  int (*SequenceContains)(Object, Object);
  void (*DecRef)(Object);
};

Api api;
std::mutex start_mutex;
bool started = false;  // guarded by start_mutex; a failed start is tried again by the next load

template <typename F>
bool Bind(void *handle, const char *name, F *slot, std::string *missing) {
  *slot = reinterpret_cast<F>(dlsym(handle, name));
  if (*slot == nullptr && missing->empty()) *missing = name;
  return *slot != nullptr;
}

bool BindAll(void *handle, std::string *missing) {
  bool ok = true;
  ok &= Bind(handle, "Py_IsInitialized", &api.IsInitialized, missing);
  ok &= Bind(handle, "Py_InitializeEx", &api.InitializeEx, missing);
  ok &= Bind(handle, "PyEval_SaveThread", &api.EvalSaveThread, missing);
  ok &= Bind(handle, "PyGILState_Ensure", &api.GilEnsure, missing);
  ok &= Bind(handle, "PyGILState_Release", &api.GilRelease, missing);
  ok &= Bind(handle, "PyImport_ImportModule", &api.ImportModule, missing);
  ok &= Bind(handle, "PyObject_GetAttrString", &api.GetAttrString, missing);
  ok &= Bind(handle, "PyObject_CallObject", &api.CallObject, missing);
  ok &= Bind(handle, "PyTuple_New", &api.TupleNew, missing);
  ok &= Bind(handle, "PyTuple_SetItem", &api.TupleSetItem, missing);
  ok &= Bind(handle, "PyBytes_FromStringAndSize", &api.BytesFromStringAndSize, missing);
  ok &= Bind(handle, "PyBytes_AsStringAndSize", &api.BytesAsStringAndSize, missing);
  ok &= Bind(handle, "PyUnicode_FromString", &api.UnicodeFromString, missing);
  ok &= Bind(handle, "PyUnicode_AsUTF8", &api.UnicodeAsUTF8, missing);
  ok &= Bind(handle, "PyObject_Str", &api.ObjectStr, missing);
  ok &= Bind(handle, "PyLong_AsLong", &api.LongAsLong, missing);
  ok &= Bind(handle, "PyErr_Fetch", &api.ErrFetch, missing);
  ok &= Bind(handle, "PyErr_NormalizeException", &api.ErrNormalize, missing);
  ok &= Bind(handle, "PyErr_Clear", &api.ErrClear, missing);
  ok &= Bind(handle, "PySys_GetObject", &api.SysGetObject, missing);
  ok &= Bind(handle, "PyList_Insert", &api.ListInsert, missing);
  ok &= Bind(handle, "PyList_Append", &api.ListAppend, missing);
  ok &= Bind(handle, "PySequence_Contains", &api.SequenceContains, missing);
  ok &= Bind(handle, "Py_DecRef", &api.DecRef, missing);
  return ok;
}

std::string Dirname(const std::string &path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

// The install tree: $ASCEND_HOME_PATH, else the parent of the directory holding libascendcl.
std::string TreeRoot() {
  const char *home = std::getenv("ASCEND_HOME_PATH");
  if (home != nullptr && *home != '\0') return home;
  return Dirname(Dirname(EmbeddedPython::RuntimeLibraryPath()));
}

std::string ReadFirstLine(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

// dlopen's libpython, naming every place tried when none loads.
Status OpenLibpython(const std::string &tree) {
  std::vector<std::string> candidates;
  const char *explicit_path = std::getenv("ASCEND_TWIN_LIBPYTHON");
  if (explicit_path != nullptr && *explicit_path != '\0') {
    candidates.emplace_back(explicit_path);
  } else {
    const std::string version_file = tree + "/python/python_version.txt";
    const std::string version = ReadFirstLine(version_file);
    if (version.empty()) {
      return Status(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "no Python environment: " + version_file +
                        " is missing, so the tree's Python version is unknown (source the install tree's "
                        "set_env.sh, or set ASCEND_TWIN_LIBPYTHON to a libpython file)");
    }
    candidates.push_back("libpython" + version + ".so.1.0");
    candidates.push_back("libpython" + version + ".so");
  }
  std::string tried;
  for (const std::string &candidate : candidates) {
    if (dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr) return Status::Ok();
    const char *why = dlerror();
    tried += (tried.empty() ? "" : "; ") + (why != nullptr ? std::string(why) : candidate);
  }
  return Status(ACL_ERROR_FEATURE_UNSUPPORTED,
                "no Python environment: cannot load libpython (" + tried +
                    "); install that Python's shared library or set ASCEND_TWIN_LIBPYTHON");
}

Status AddSitePackages(const std::string &tree, bool first) {
  const std::string dir = tree + "/python/site-packages";
  // A running interpreter (pyACL) may import GE from its own path; a missing tree is then found
  // out, if at all, when the bridge module does not import.
  if (!first && access(dir.c_str(), R_OK | X_OK) != 0) return Status::Ok();
  if (access(dir.c_str(), R_OK | X_OK) != 0) {
    return Status(ACL_ERROR_FEATURE_UNSUPPORTED, "no Python environment: " + dir +
                                                     " is not a readable directory (set ASCEND_HOME_PATH to the "
                                                     "install tree, as its set_env.sh does)");
  }
  GilLock gil;
  Object path = api.SysGetObject("path");  // borrowed
  PyRef entry(api.UnicodeFromString(dir.c_str()));
  if (path == nullptr || !entry) {
    api.ErrClear();
    return Status(ACL_ERROR_FEATURE_UNSUPPORTED, "no Python environment: sys.path is not usable");
  }
  if (api.SequenceContains(path, entry.get()) == 1) return Status::Ok();
  // A new interpreter looks here first; a running one (pyACL) keeps its own order.
  const int rc = first ? api.ListInsert(path, 0, entry.get()) : api.ListAppend(path, entry.get());
  if (rc != 0) {
    api.ErrClear();
    return Status(ACL_ERROR_FEATURE_UNSUPPORTED, "no Python environment: cannot extend sys.path");
  }
  return Status::Ok();
}

Status Start() {
  // A process that already runs Python exports the interpreter's symbols: use that one.
  std::string missing;
  if (BindAll(RTLD_DEFAULT, &missing) && api.IsInitialized()) return AddSitePackages(TreeRoot(), false);
  const std::string tree = TreeRoot();
  Status opened = OpenLibpython(tree);
  if (!opened.ok()) return opened;
  missing.clear();
  if (!BindAll(RTLD_DEFAULT, &missing)) {
    return Status(ACL_ERROR_FEATURE_UNSUPPORTED, "no Python environment: the loaded libpython lacks " + missing);
  }
  if (!api.IsInitialized()) {
    api.InitializeEx(0);   // no signal handlers: the host program keeps its own
    api.EvalSaveThread();  // release the GIL; every call below takes it with PyGILState_Ensure
  }
  return AddSitePackages(tree, true);
}

// The pending exception as a Status: its acl_code attribute (or `fallback`) and message.
Status TakeError(aclError fallback, const std::string &context) {
  Object type = nullptr, value = nullptr, trace = nullptr;
  api.ErrFetch(&type, &value, &trace);
  if (type == nullptr) return Status(fallback, context + ": failed without a Python exception");
  api.ErrNormalize(&type, &value, &trace);
  PyRef type_ref(type), value_ref(value), trace_ref(trace);
  aclError code = fallback;
  std::string message = "unknown error";
  if (value != nullptr) {
    PyRef acl_code(api.GetAttrString(value, "acl_code"));
    if (acl_code) {
      const long number = api.LongAsLong(acl_code.get());
      if (number > 0) code = static_cast<aclError>(number);
    }
    api.ErrClear();
    PyRef text(api.ObjectStr(value));
    const char *utf8 = text ? api.UnicodeAsUTF8(text.get()) : nullptr;
    if (utf8 != nullptr) message = utf8;
    api.ErrClear();
    PyRef name(api.GetAttrString(type, "__name__"));
    const char *type_name = name ? api.UnicodeAsUTF8(name.get()) : nullptr;
    if (type_name != nullptr && std::string(type_name) != "ModelError")
      message = std::string(type_name) + ": " + message;
    api.ErrClear();
  }
  for (char &c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return Status(code, context.empty() ? message : context + ": " + message);
}

void RuntimeAnchor() {}

}  // namespace

PyRef &PyRef::operator=(PyRef &&other) noexcept {
  if (this != &other) {
    PyRef doomed(object_);
    object_ = other.object_;
    other.object_ = nullptr;
  }
  return *this;
}

PyRef::~PyRef() {
  if (object_ != nullptr) api.DecRef(object_);
}

GilLock::GilLock() : state_(api.GilEnsure()) {}
GilLock::~GilLock() { api.GilRelease(state_); }

Status EmbeddedPython::Ensure(const char *api_name) {
  std::lock_guard<std::mutex> lock(start_mutex);
  if (started) return Status::Ok();
  // Not remembered when it fails: the user may fix the environment (install libpython, set
  // ASCEND_TWIN_LIBPYTHON) and load again in the same process.
  Status status = Start();
  if (!status.ok()) return Status(status.code(), std::string(api_name) + ": " + status.message());
  started = true;
  return status;
}

std::string EmbeddedPython::RuntimeLibraryPath() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&RuntimeAnchor), &info) == 0 || info.dli_fname == nullptr) return "";
  return info.dli_fname;
}

StatusOr<PyRef> EmbeddedPython::Import(const char *module, aclError fallback) {
  PyRef object(api.ImportModule(module));
  if (!object) return TakeError(fallback, std::string("cannot import ") + module);
  return object;
}

StatusOr<PyRef> EmbeddedPython::Call(const PyRef &target, const char *name, const std::string *bytes_arg,
                                     const std::string *str_arg, aclError fallback) {
  PyRef function(api.GetAttrString(target.get(), name));
  if (!function) return TakeError(fallback, "");
  PyRef args(api.TupleNew((bytes_arg != nullptr ? 1 : 0) + (str_arg != nullptr ? 1 : 0)));
  if (!args) return TakeError(fallback, "");
  // PyTuple_SetItem steals the item's reference.
  SizeT at = 0;
  if (bytes_arg != nullptr) {
    Object item = api.BytesFromStringAndSize(bytes_arg->data(), static_cast<SizeT>(bytes_arg->size()));
    if (item == nullptr) return TakeError(fallback, "");  // e.g. MemoryError on a large model
    api.TupleSetItem(args.get(), at++, item);
  }
  if (str_arg != nullptr) {
    Object item = api.UnicodeFromString(str_arg->c_str());
    if (item == nullptr) return TakeError(fallback, "");
    api.TupleSetItem(args.get(), at++, item);
  }
  PyRef result(api.CallObject(function.get(), args.get()));
  if (!result) return TakeError(fallback, "");
  return result;
}

StatusOr<std::string> EmbeddedPython::Bytes(const PyRef &object, aclError fallback) {
  char *data = nullptr;
  SizeT size = 0;
  if (api.BytesAsStringAndSize(object.get(), &data, &size) != 0) return TakeError(fallback, "");
  return std::string(data, static_cast<size_t>(size));
}

}  // namespace asc_twin::model
