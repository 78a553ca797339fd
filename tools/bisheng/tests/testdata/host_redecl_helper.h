// Beside host_redecl.asc: found through `#include "..."` from the source's own directory.
#ifndef HOST_REDECL_HELPER_H_
#define HOST_REDECL_HELPER_H_
constexpr unsigned kRedeclFactor = 7;
#endif
