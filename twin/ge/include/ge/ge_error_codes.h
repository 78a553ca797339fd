/* ge/ge_error_codes.h: GE's ACL_ERROR_GE_* codes. CANN ships the same table as
 * acl/error_codes/ge_error_codes.h; the twin keeps one copy there and includes it. */
#ifndef INC_EXTERNAL_GE_GE_ERROR_CODES_H_
#define INC_EXTERNAL_GE_GE_ERROR_CODES_H_

#include "acl/error_codes/ge_error_codes.h"

#endif  // INC_EXTERNAL_GE_GE_ERROR_CODES_H_
