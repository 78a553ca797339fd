// The ES tests' OPP proto library: registers the prototypes of es_test_ops.h when dlopen'ed.
#include "es_test_ops.h"
