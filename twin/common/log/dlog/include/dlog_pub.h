/* dlog_pub.h: CANN's public dlog header name; the API is toolchain/slog.h. */
#ifndef ASC_TWIN_DLOG_PUB_H_
#define ASC_TWIN_DLOG_PUB_H_

#include "toolchain/slog.h"

#endif /* ASC_TWIN_DLOG_PUB_H_ */
