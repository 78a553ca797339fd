/*
 * ge._compiler._shared_run: LoadedModel's run on the twin's shared memory, as one C call.
 *
 * On the twin, device memory is host memory. A model run there (LoadedModel, acl_runner.py)
 * copies every input into the model's own device buffer (as an NPU does: a kernel that writes
 * its input slot never reaches the caller's array), writes a large output into a pooled array,
 * and copies small outputs out of the model's own device buffers. At small and
 * middle sizes the Python around that (a ctypes call, numpy copies through views, dataset
 * updates, attribute lookups) cost about as much as the launch itself; this type does the same
 * steps without the interpreter in between:
 *
 *   1. each input must be exactly the model's layout: an exact numpy.ndarray, C-contiguous, with
 *      the format, item size and shape of the model's input view (else: None, nothing run, and
 *      the caller takes its checked paths, which convert or explain);
 *   2. under the model's lock: a large output takes a pooled array from `take()` and points its
 *      buffer at it, else at the model's buffer (copied out after); inputs and small outputs
 *      are always copied;
 *   3. the copies in and aclmdlExecute run with the GIL released; a failure calls
 *      `on_error(ret, what)`, which raises.
 *
 * Where each large output's dataset buffer points is kept here alone: LoadedModel's checked
 * paths, which run on the model's own buffers, call `restore()` (under the same lock) first.
 *
 * SharedRun holds no reference to the model (the model holds it: no cycle); `bind(fallback)`
 * gives the Session's runner, which calls `fallback(arrays)` when SharedRun declines. Neither
 * type takes part in garbage collection, so the model must never keep a bound runner (its
 * fallback is the model's run): that cycle would never be freed.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef int (*ExecuteFn)(uint32_t model_id, const void *input, void *output); /* aclmdlExecute */
typedef int (*UpdateBufferFn)(void *data_buffer, void *data, size_t size);    /* aclUpdateDataBuffer */

/* Input buffers held on the stack per call up to this count (more: on the heap). */
#define STACK_INPUTS 16

/* A large tensor's aclDataBuffer: where it may point and where it points now. */
typedef struct {
  void *buffer; /* the aclDataBuffer */
  size_t size;
  void *home;    /* the model's own device memory */
  void *current; /* where it points now; NULL while unknown (an update failed) */
} DataPoint;

typedef struct {
  PyObject *view;    /* numpy view of the model's device buffer: layout, copy target/source */
  PyObject *resolve; /* NULL: always copied (every input). Outputs: take() -> (array, int) | None */
  DataPoint point;   /* with resolve only */
  Py_buffer layout;  /* inputs: the view's buffer (writable: copies land in it) */
} TensorPlan;

typedef struct {
  PyObject_HEAD vectorcallfunc vectorcall;
  PyObject *acquire, *release; /* the model's lock, bound methods */
  PyObject *copy;              /* numpy.ndarray.copy */
  PyObject *array_type;        /* numpy.ndarray: exact type only */
  PyObject *on_error;          /* on_error(ret, what) raises */
  PyObject *execute_what;      /* str: "aclmdlExecute of model NAME" */
  ExecuteFn execute;
  UpdateBufferFn update_buffer;
  uint32_t model_id;
  const void *input_dataset;
  void *output_dataset;
  int closed; /* set by close(): the model is unloaded, every call declines */
  Py_ssize_t n_in, n_out;
  TensorPlan *in, *out;
} SharedRun;

typedef struct {
  PyObject_HEAD vectorcallfunc vectorcall;
  SharedRun *shared;
  PyObject *fallback;
} BoundRun;

static PyTypeObject SharedRunType, BoundRunType;

static int SameLayout(const Py_buffer *got, const Py_buffer *want) {
  if (got->len != want->len || got->ndim != want->ndim || got->itemsize != want->itemsize) return 0;
  for (int d = 0; d < got->ndim; ++d) {
    if (got->shape[d] != want->shape[d]) return 0;
  }
  return strcmp(got->format != NULL ? got->format : "B", want->format != NULL ? want->format : "B") == 0;
}

static void ReleaseBuffers(Py_buffer *buffers, Py_ssize_t count) {
  for (Py_ssize_t i = 0; i < count; ++i) PyBuffer_Release(&buffers[i]);
}

/* Raises through on_error(ret, what); always returns -1. */
static int Fail(SharedRun *self, int ret, PyObject *what) {
  PyObject *returned = PyObject_CallFunction(self->on_error, "iO", ret, what);
  if (returned != NULL) {
    Py_DECREF(returned);
    PyErr_Format(PyExc_SystemError, "%U failed with %d and on_error did not raise", what, ret);
  }
  return -1;
}

/* Points a dataset buffer at `address` (aclUpdateDataBuffer) unless it already does. 0, or -1
 * with an exception set. */
static int PointAt(SharedRun *self, DataPoint *point, void *address) {
  if (point->current == address) return 0;
  point->current = NULL; /* unknown until the update succeeds */
  const int ret = self->update_buffer(point->buffer, address, point->size);
  if (ret != 0) {
    PyObject *what = PyUnicode_FromString("aclUpdateDataBuffer");
    if (what == NULL) return -1;
    Fail(self, ret, what);
    Py_DECREF(what);
    return -1;
  }
  point->current = address;
  return 0;
}

/* Under the lock, inputs checked: steps 2 and 3. Returns the outputs (a new list) or NULL
 * with an exception set. Each input is its buffer's exporter (the array checked), not the
 * caller's list item: the list may have changed while acquire() waited without the GIL. */
static PyObject *RunLocked(SharedRun *self, const Py_buffer *inputs) {
  PyObject *outputs = PyList_New(self->n_out); /* NULL items: copied out after the run */
  if (outputs == NULL) return NULL;
  for (Py_ssize_t j = 0; j < self->n_out; ++j) {
    TensorPlan *plan = &self->out[j];
    if (plan->resolve == NULL) continue;
    PyObject *taken = PyObject_CallNoArgs(plan->resolve);
    if (taken == NULL) goto failed;
    int status;
    if (taken != Py_None) {
      if (!PyTuple_Check(taken) || PyTuple_GET_SIZE(taken) != 2) {
        Py_DECREF(taken);
        PyErr_SetString(PyExc_TypeError, "an output pool's take() must return (array, address) or None");
        goto failed;
      }
      void *where = PyLong_AsVoidPtr(PyTuple_GET_ITEM(taken, 1));
      status = PyErr_Occurred() ? -1 : PointAt(self, &plan->point, where);
      if (status == 0) PyList_SET_ITEM(outputs, j, Py_NewRef(PyTuple_GET_ITEM(taken, 0)));
    } else {
      status = PointAt(self, &plan->point, plan->point.home);
    }
    Py_DECREF(taken);
    if (status != 0) goto failed;
  }
  int ret;
  Py_BEGIN_ALLOW_THREADS for (Py_ssize_t i = 0; i < self->n_in; ++i)
      memcpy(self->in[i].layout.buf, inputs[i].buf, (size_t)inputs[i].len);
  ret = self->execute(self->model_id, self->input_dataset, self->output_dataset);
  Py_END_ALLOW_THREADS if (ret != 0) {
    Fail(self, ret, self->execute_what);
    goto failed;
  }
  for (Py_ssize_t j = 0; j < self->n_out; ++j) {
    if (PyList_GET_ITEM(outputs, j) != NULL) continue;
    PyObject *out = PyObject_CallOneArg(self->copy, self->out[j].view);
    if (out == NULL) goto failed;
    PyList_SET_ITEM(outputs, j, out);
  }
  return outputs;
failed:
  Py_DECREF(outputs); /* NULL items are skipped by the list's dealloc */
  return NULL;
}

/* Run's body with `buffers` room for every input's buffer. */
static PyObject *Checked(SharedRun *self, PyObject *arrays, Py_buffer *buffers) {
  Py_ssize_t held = 0;
  for (; held < self->n_in; ++held) {
    PyObject *array = PyList_GET_ITEM(arrays, held);
    if ((PyObject *)Py_TYPE(array) != self->array_type) break;
    if (PyObject_GetBuffer(array, &buffers[held], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
      PyErr_Clear(); /* strided: declined, the checked path copies it */
      break;
    }
    if (!SameLayout(&buffers[held], &self->in[held].layout)) {
      PyBuffer_Release(&buffers[held]);
      break;
    }
  }
  if (held != self->n_in) {
    ReleaseBuffers(buffers, held);
    Py_RETURN_NONE;
  }
  PyObject *acquired = PyObject_CallNoArgs(self->acquire);
  if (acquired == NULL) {
    ReleaseBuffers(buffers, held);
    return NULL;
  }
  Py_DECREF(acquired);
  PyObject *outputs = self->closed ? Py_NewRef(Py_None) : RunLocked(self, buffers);
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback); /* release() runs with no exception pending */
  PyObject *released = PyObject_CallNoArgs(self->release);
  ReleaseBuffers(buffers, held);
  if (released == NULL) {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    Py_XDECREF(outputs);
    return NULL;
  }
  Py_DECREF(released);
  PyErr_Restore(type, value, traceback);
  return outputs;
}

/* run(arrays) -> outputs, or None when an input is not exactly the model's layout (nothing
 * run) or the model is unloaded. */
static PyObject *Run(SharedRun *self, PyObject *arrays) {
  if (self->closed || !PyList_CheckExact(arrays) || PyList_GET_SIZE(arrays) != self->n_in) Py_RETURN_NONE;
  Py_buffer on_stack[STACK_INPUTS];
  Py_buffer *buffers = on_stack;
  if (self->n_in > STACK_INPUTS) {
    buffers = PyMem_Malloc((size_t)self->n_in * sizeof(Py_buffer));
    if (buffers == NULL) return PyErr_NoMemory();
  }
  PyObject *outputs = Checked(self, arrays, buffers);
  if (buffers != on_stack) PyMem_Free(buffers);
  return outputs;
}

static int OneArray(size_t nargsf, PyObject *kwnames) {
  if (PyVectorcall_NARGS(nargsf) == 1 && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)) return 1;
  PyErr_SetString(PyExc_TypeError, "run(arrays) takes exactly one positional argument");
  return 0;
}

static PyObject *SharedRun_call(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  return OneArray(nargsf, kwnames) ? Run((SharedRun *)callable, args[0]) : NULL;
}

static PyObject *BoundRun_call(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  if (!OneArray(nargsf, kwnames)) return NULL;
  BoundRun *self = (BoundRun *)callable;
  PyObject *outputs = Run(self->shared, args[0]);
  if (outputs != Py_None) return outputs;
  Py_DECREF(outputs);
  return PyObject_CallOneArg(self->fallback, args[0]);
}

static void ClearPlans(TensorPlan *plans, Py_ssize_t count, int with_layout) {
  if (plans == NULL) return;
  for (Py_ssize_t i = 0; i < count; ++i) {
    if (with_layout && plans[i].layout.obj != NULL) PyBuffer_Release(&plans[i].layout);
    Py_CLEAR(plans[i].view);
    Py_CLEAR(plans[i].resolve);
  }
  PyMem_Free(plans);
}

static void SharedRun_dealloc(SharedRun *self) {
  ClearPlans(self->in, self->n_in, 1);
  ClearPlans(self->out, self->n_out, 0);
  Py_CLEAR(self->acquire);
  Py_CLEAR(self->release);
  Py_CLEAR(self->copy);
  Py_CLEAR(self->array_type);
  Py_CLEAR(self->on_error);
  Py_CLEAR(self->execute_what);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A list of (view, point or None, resolve or None) into plans, a point being (aclDataBuffer
 * address, size, home address) of a buffer that now points home; -1 with an exception set. */
static int ParsePlans(PyObject *specs, const char *side, TensorPlan **plans, Py_ssize_t *count, int with_layout) {
  const Py_ssize_t n = PyList_GET_SIZE(specs);
  *plans = PyMem_Calloc(n > 0 ? (size_t)n : 1, sizeof(TensorPlan));
  if (*plans == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *spec = PyList_GET_ITEM(specs, i);
    PyObject *view, *point, *resolve;
    if (!PyTuple_Check(spec)) {
      PyErr_Format(PyExc_TypeError, "SharedRun: %s %zd: each plan entry is a tuple (view, point, resolve)", side, i);
      return -1;
    }
    if (!PyArg_ParseTuple(spec, "OOO;each plan entry is (view, point, resolve)", &view, &point, &resolve)) return -1;
    if ((point == Py_None) != (resolve == Py_None)) {
      PyErr_Format(PyExc_ValueError, "SharedRun: %s %zd: a point needs a resolver and a resolver a point", side, i);
      return -1;
    }
    if (with_layout && point != Py_None) { /* inputs (the side with a layout) */
      PyErr_Format(PyExc_ValueError,
                   "SharedRun: input %zd: inputs are always copied (a kernel may write its input buffer), "
                   "so an input takes no point or resolver",
                   i);
      return -1;
    }
    TensorPlan *plan = &(*plans)[i];
    *count = i + 1;
    plan->view = Py_NewRef(view);
    if (point != Py_None) {
      unsigned long long buffer, home;
      Py_ssize_t size;
      if (!PyArg_ParseTuple(point, "KnK;a point is (aclDataBuffer address, size, home address)", &buffer, &size,
                            &home)) {
        return -1;
      }
      plan->point =
          (DataPoint){(void *)(uintptr_t)buffer, (size_t)size, (void *)(uintptr_t)home, (void *)(uintptr_t)home};
      plan->resolve = Py_NewRef(resolve);
    }
    if (with_layout &&
        PyObject_GetBuffer(view, &plan->layout, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
      return -1;
    }
  }
  return 0;
}

static PyObject *SharedRun_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"lock",    "copy",          "array_type", "on_error",      "execute_what",
                          "execute", "update_buffer", "model_id",   "input_dataset", "output_dataset",
                          "inputs",  "outputs",       NULL};
  PyObject *lock, *copy, *array_type, *on_error, *execute_what, *inputs, *outputs;
  unsigned long long execute, update_buffer, input_dataset, output_dataset;
  unsigned int model_id;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOUKKIKKO!O!:SharedRun", names, &lock, &copy, &array_type,
                                   &on_error, &execute_what, &execute, &update_buffer, &model_id, &input_dataset,
                                   &output_dataset, &PyList_Type, &inputs, &PyList_Type, &outputs)) {
    return NULL;
  }
  if (execute == 0 || update_buffer == 0) {
    PyErr_SetString(PyExc_ValueError, "SharedRun: a null function address");
    return NULL;
  }
  SharedRun *self = (SharedRun *)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->vectorcall = SharedRun_call;
  self->copy = Py_NewRef(copy);
  self->array_type = Py_NewRef(array_type);
  self->on_error = Py_NewRef(on_error);
  self->execute_what = Py_NewRef(execute_what);
  self->execute = (ExecuteFn)(uintptr_t)execute;
  self->update_buffer = (UpdateBufferFn)(uintptr_t)update_buffer;
  self->model_id = model_id;
  self->input_dataset = (const void *)(uintptr_t)input_dataset;
  self->output_dataset = (void *)(uintptr_t)output_dataset;
  self->acquire = PyObject_GetAttrString(lock, "acquire");
  self->release = self->acquire != NULL ? PyObject_GetAttrString(lock, "release") : NULL;
  if (self->release == NULL || ParsePlans(inputs, "input", &self->in, &self->n_in, 1) != 0 ||
      ParsePlans(outputs, "output", &self->out, &self->n_out, 0) != 0) {
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

/* Every large output's dataset buffer at the model's own memory again, for a run that copies
 * through it. Called under the model's lock. */
static int RestoreSide(SharedRun *self, TensorPlan *plans, Py_ssize_t count) {
  for (Py_ssize_t i = 0; i < count; ++i) {
    if (plans[i].resolve != NULL && PointAt(self, &plans[i].point, plans[i].point.home) != 0) return -1;
  }
  return 0;
}

static PyObject *SharedRun_restore(SharedRun *self, PyObject *unused) {
  (void)unused;
  if (RestoreSide(self, self->out, self->n_out) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *SharedRun_close(SharedRun *self, PyObject *unused) {
  (void)unused;
  self->closed = 1;
  Py_RETURN_NONE;
}

static PyObject *SharedRun_bind(SharedRun *self, PyObject *fallback) {
  if (!PyCallable_Check(fallback)) {
    PyErr_SetString(PyExc_TypeError, "bind(fallback): fallback must be callable");
    return NULL;
  }
  BoundRun *bound = PyObject_New(BoundRun, &BoundRunType);
  if (bound == NULL) return NULL;
  bound->vectorcall = BoundRun_call;
  bound->shared = (SharedRun *)Py_NewRef((PyObject *)self);
  bound->fallback = Py_NewRef(fallback);
  return (PyObject *)bound;
}

static PyMethodDef SharedRun_methods[] = {
    {"restore", (PyCFunction)SharedRun_restore, METH_NOARGS,
     "restore(): every dataset buffer at the model's own device memory again (before a copy path). "
     "Call under the model's lock."},
    {"close", (PyCFunction)SharedRun_close, METH_NOARGS,
     "close(): the model is unloaded; every later call declines (returns None). Call under the model's lock."},
    {"bind", (PyCFunction)SharedRun_bind, METH_O,
     "bind(fallback) -> run(arrays): this run, or fallback(arrays) where it declines."},
    {NULL, NULL, 0, NULL},
};

static void BoundRun_dealloc(BoundRun *self) {
  Py_CLEAR(self->shared);
  Py_CLEAR(self->fallback);
  PyObject_Free(self);
}

static PyTypeObject SharedRunType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ge._compiler._shared_run.SharedRun",
    .tp_doc = "run(arrays) -> outputs, or None where it declines: LoadedModel's shared-memory run",
    .tp_basicsize = sizeof(SharedRun),
    .tp_dealloc = (destructor)SharedRun_dealloc,
    .tp_vectorcall_offset = offsetof(SharedRun, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_methods = SharedRun_methods,
    .tp_new = SharedRun_new,
};

static PyTypeObject BoundRunType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ge._compiler._shared_run.BoundRun",
    .tp_doc = "run(arrays) -> outputs: a SharedRun, with a fallback where it declines",
    .tp_basicsize = sizeof(BoundRun),
    .tp_dealloc = (destructor)BoundRun_dealloc,
    .tp_vectorcall_offset = offsetof(BoundRun, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
};

static struct PyModuleDef shared_run_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ge._compiler._shared_run",
    .m_doc = "LoadedModel's run on the twin's shared memory, as one C call (see shared_run.c).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__shared_run(void) {
  if (PyType_Ready(&SharedRunType) < 0 || PyType_Ready(&BoundRunType) < 0) return NULL;
  PyObject *module = PyModule_Create(&shared_run_module);
  if (module == NULL) return NULL;
  if (PyModule_AddObjectRef(module, "SharedRun", (PyObject *)&SharedRunType) < 0 ||
      PyModule_AddObjectRef(module, "BoundRun", (PyObject *)&BoundRunType) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
