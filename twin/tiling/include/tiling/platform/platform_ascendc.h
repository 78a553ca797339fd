// CANN's samples also reach the platform API as tiling/platform/platform_ascendc.h.
#include "platform/platform_ascendc.h"
