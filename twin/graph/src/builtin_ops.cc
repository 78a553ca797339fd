// Registers the built-in prototypes (op::Data) into the operator registry of this library.
#include "ops_proto_legacy.h"
