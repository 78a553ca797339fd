/*
 * ge._compiler._small_run: the run of a model whose tensors are all small, as one C call.
 *
 * At a few KiB per tensor a model run on the twin costs about a microsecond in the runtime,
 * and the same again in the Python around it (a ctypes call, numpy copies through views,
 * attribute lookups). This type does what LoadedModel's shared-memory path does for such a
 * model, without the interpreter in between: check that each input is exactly the model's
 * layout, copy it into the model's input buffer, aclmdlExecute (GIL released), and copy each
 * output out of the model's output buffer into a new array the caller owns.
 *
 * Anything it does not take as is (another type, dtype or shape, a strided array, an unloaded
 * model) goes to `fallback` (LoadedModel.run), which converts or explains; an execute failure
 * goes to `on_error(ret)`, which raises. It holds the model's lock from the input copies to
 * the output copies, as every other run path does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* aclmdlExecute(modelId, input, output) */
typedef int (*ExecuteFn)(uint32_t, const void *, void *);

/* Inputs checked on the stack per call; a model with more goes to the fallback. */
#define MAX_FAST_INPUTS 16

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *model;         /* LoadedModel: its model_id is None once unloaded */
  PyObject *acquire;       /* the model's lock, bound methods */
  PyObject *release;
  PyObject *copy;          /* numpy.ndarray.copy */
  PyObject *array_type;    /* numpy.ndarray: exact type only */
  PyObject *fallback;      /* fallback(arrays) -> outputs */
  PyObject *on_error;      /* on_error(ret) raises */
  PyObject *out_views;     /* list: numpy views of the output device buffers */
  PyObject *templates;     /* list: numpy views of the input device buffers (layout + target) */
  PyObject *model_id_name;
  ExecuteFn execute;
  uint32_t model_id;
  const void *in_dataset;
  void *out_dataset;
  Py_ssize_t inputs;
  Py_buffer *layout;       /* per input: the template's buffer (format, shape, address) */
} SmallRun;

static int SameLayout(const Py_buffer *got, const Py_buffer *want) {
  if (got->len != want->len || got->ndim != want->ndim || got->itemsize != want->itemsize) return 0;
  for (int d = 0; d < got->ndim; ++d) {
    if (got->shape[d] != want->shape[d]) return 0;
  }
  return strcmp(got->format != NULL ? got->format : "B", want->format != NULL ? want->format : "B") == 0;
}

static void ReleaseAll(Py_buffer *buffers, Py_ssize_t count) {
  for (Py_ssize_t i = 0; i < count; ++i) PyBuffer_Release(&buffers[i]);
}

/* The outputs: a copy of each output view, in a new list; NULL with an exception set. */
static PyObject *CopyOutputs(SmallRun *self) {
  const Py_ssize_t count = PyList_GET_SIZE(self->out_views);
  PyObject *outputs = PyList_New(count);
  for (Py_ssize_t j = 0; outputs != NULL && j < count; ++j) {
    PyObject *out = PyObject_CallOneArg(self->copy, PyList_GET_ITEM(self->out_views, j));
    if (out == NULL) {
      Py_CLEAR(outputs);
      break;
    }
    PyList_SET_ITEM(outputs, j, out);
  }
  return outputs;
}

/* Under the lock: the run itself. Returns the outputs, NULL with an exception set, or
 * Py_None (a new reference) when the model is unloaded (the caller then falls back). */
static PyObject *RunLocked(SmallRun *self, const Py_buffer *inputs) {
  PyObject *model_id = PyObject_GetAttr(self->model, self->model_id_name);
  if (model_id == NULL) return NULL;
  const int unloaded = model_id == Py_None;
  Py_DECREF(model_id);
  if (unloaded) Py_RETURN_NONE;
  int ret;
  Py_BEGIN_ALLOW_THREADS
  for (Py_ssize_t i = 0; i < self->inputs; ++i) memcpy(self->layout[i].buf, inputs[i].buf, (size_t)inputs[i].len);
  ret = self->execute(self->model_id, self->in_dataset, self->out_dataset);
  Py_END_ALLOW_THREADS
  if (ret == 0) return CopyOutputs(self);
  PyObject *code = PyLong_FromLong(ret);
  PyObject *returned = code != NULL ? PyObject_CallOneArg(self->on_error, code) : NULL;
  Py_XDECREF(code);
  if (returned != NULL) {
    Py_DECREF(returned);
    PyErr_Format(PyExc_SystemError, "aclmdlExecute failed with %d and on_error did not raise", ret);
  }
  return NULL;
}

static PyObject *SmallRun_call(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  SmallRun *self = (SmallRun *)callable;
  if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
    PyErr_SetString(PyExc_TypeError, "run(arrays) takes exactly one positional argument");
    return NULL;
  }
  PyObject *arrays = args[0];
  Py_buffer buffers[MAX_FAST_INPUTS];
  Py_ssize_t held = 0;
  if (!PyList_CheckExact(arrays) || PyList_GET_SIZE(arrays) != self->inputs || self->inputs > MAX_FAST_INPUTS) {
    return PyObject_CallOneArg(self->fallback, arrays);
  }
  for (; held < self->inputs; ++held) {
    PyObject *array = PyList_GET_ITEM(arrays, held);
    if ((PyObject *)Py_TYPE(array) != self->array_type) break;
    if (PyObject_GetBuffer(array, &buffers[held], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
      PyErr_Clear();  /* strided: the checked path copies it */
      break;
    }
    if (!SameLayout(&buffers[held], &self->layout[held])) {
      PyBuffer_Release(&buffers[held]);
      break;
    }
  }
  if (held != self->inputs) {
    ReleaseAll(buffers, held);
    return PyObject_CallOneArg(self->fallback, arrays);
  }
  PyObject *acquired = PyObject_CallNoArgs(self->acquire);
  if (acquired == NULL) {
    ReleaseAll(buffers, held);
    return NULL;
  }
  Py_DECREF(acquired);
  PyObject *outputs = RunLocked(self, buffers);
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);  /* release() must run with no exception pending */
  PyObject *released = PyObject_CallNoArgs(self->release);
  if (released == NULL) {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    Py_XDECREF(outputs);
    ReleaseAll(buffers, held);
    return NULL;
  }
  Py_DECREF(released);
  PyErr_Restore(type, value, traceback);
  ReleaseAll(buffers, held);
  if (outputs == Py_None) {  /* unloaded meanwhile: the general run says so */
    Py_DECREF(outputs);
    return PyObject_CallOneArg(self->fallback, arrays);
  }
  return outputs;
}

static int SmallRun_clear(SmallRun *self) {
  if (self->layout != NULL) {
    ReleaseAll(self->layout, self->inputs);
    PyMem_Free(self->layout);
    self->layout = NULL;
  }
  Py_CLEAR(self->model);
  Py_CLEAR(self->acquire);
  Py_CLEAR(self->release);
  Py_CLEAR(self->copy);
  Py_CLEAR(self->array_type);
  Py_CLEAR(self->fallback);
  Py_CLEAR(self->on_error);
  Py_CLEAR(self->out_views);
  Py_CLEAR(self->templates);
  Py_CLEAR(self->model_id_name);
  return 0;
}

static void SmallRun_dealloc(SmallRun *self) {
  SmallRun_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* SmallRun(model, lock, copy, array_type, fallback, on_error, execute_address, model_id,
 *          input_dataset, output_dataset, input_views, output_views) */
static PyObject *SmallRun_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"model", "lock", "copy", "array_type", "fallback", "on_error", "execute", "model_id",
                          "input_dataset", "output_dataset", "input_views", "output_views", NULL};
  PyObject *model, *lock, *copy, *array_type, *fallback, *on_error, *templates, *out_views;
  unsigned long long execute, in_dataset, out_dataset;
  unsigned int model_id;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOKIKKO!O!:SmallRun", names, &model, &lock, &copy,
                                   &array_type, &fallback, &on_error, &execute, &model_id, &in_dataset,
                                   &out_dataset, &PyList_Type, &templates, &PyList_Type, &out_views)) {
    return NULL;
  }
  if (execute == 0) {
    PyErr_SetString(PyExc_ValueError, "SmallRun: execute is a null function address");
    return NULL;
  }
  SmallRun *self = (SmallRun *)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->vectorcall = SmallRun_call;
  self->model = Py_NewRef(model);
  self->copy = Py_NewRef(copy);
  self->array_type = Py_NewRef(array_type);
  self->fallback = Py_NewRef(fallback);
  self->on_error = Py_NewRef(on_error);
  self->out_views = PyList_GetSlice(out_views, 0, PyList_GET_SIZE(out_views));  /* fixed from here on */
  self->templates = PyList_GetSlice(templates, 0, PyList_GET_SIZE(templates));
  self->acquire = PyObject_GetAttrString(lock, "acquire");
  self->release = PyObject_GetAttrString(lock, "release");
  self->model_id_name = PyUnicode_InternFromString("model_id");
  self->execute = (ExecuteFn)(uintptr_t)execute;
  self->model_id = model_id;
  self->in_dataset = (const void *)(uintptr_t)in_dataset;
  self->out_dataset = (void *)(uintptr_t)out_dataset;
  if (self->out_views == NULL || self->templates == NULL || self->acquire == NULL || self->release == NULL ||
      self->model_id_name == NULL) {
    Py_DECREF(self);
    return NULL;
  }
  const Py_ssize_t inputs = PyList_GET_SIZE(self->templates);
  self->layout = PyMem_Calloc(inputs > 0 ? (size_t)inputs : 1, sizeof(Py_buffer));
  if (self->layout == NULL) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < inputs; ++i) {
    /* writable: the input copies land in it */
    if (PyObject_GetBuffer(PyList_GET_ITEM(self->templates, i), &self->layout[i],
                           PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
      Py_DECREF(self);
      return NULL;
    }
    self->inputs = i + 1;
  }
  return (PyObject *)self;
}

static PyTypeObject SmallRunType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ge._compiler._small_run.SmallRun",
    .tp_doc = "run(arrays) -> outputs: one run of a model whose tensors are all small",
    .tp_basicsize = sizeof(SmallRun),
    .tp_dealloc = (destructor)SmallRun_dealloc,
    .tp_vectorcall_offset = offsetof(SmallRun, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = SmallRun_new,
};

static struct PyModuleDef small_run_module = {
    PyModuleDef_HEAD_INIT, .m_name = "ge._compiler._small_run",
    .m_doc = "The run of a model whose tensors are all small, as one C call (see LoadedModel.runner).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__small_run(void) {
  if (PyType_Ready(&SmallRunType) < 0) return NULL;
  PyObject *module = PyModule_Create(&small_run_module);
  if (module != NULL && PyModule_AddObjectRef(module, "SmallRun", (PyObject *)&SmallRunType) < 0) {
    Py_CLEAR(module);
  }
  return module;
}
