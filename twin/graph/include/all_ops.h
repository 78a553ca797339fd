/* Umbrella header for the built-in operator prototypes. */
#ifndef GE_TWIN_ALL_OPS_H_
#define GE_TWIN_ALL_OPS_H_
#include "ops_proto_legacy.h"
#endif  // GE_TWIN_ALL_OPS_H_
