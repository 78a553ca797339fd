// A CANN program as users write them: check every call, return 1 on failure, print nothing of
// its own. The cause must then be in the plog (or on stdout with ASCEND_SLOG_PRINT_TO_STDOUT=1).
#include "acl/acl.h"
#include "acl/acl_mdl.h"

#define CHECK_ACL(expr)                  \
  do {                                   \
    if ((expr) != ACL_SUCCESS) return 1; \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  uint32_t model_id = 0;
  CHECK_ACL(aclmdlLoadFromFile(argv[1], &model_id));
  CHECK_ACL(aclmdlUnload(model_id));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return 0;
}
