#include "my_ops.h"
