// lib/matmul_intf.h: where CANN's samples include the Matmul high-level API from.
#include "adv_api/matmul/matmul_intf.h"
