/*
 * acl/acl_prof.h of the CPU twin (CANN: profiling of ACL API calls, task times and AI Core
 * metrics). The functions exist with CANN's names, signatures and flags; on the twin they
 * collect nothing: each call checks its arguments, returns ACL_SUCCESS and writes one line
 * `[INFO] acl_prof: <function> ...` to stderr (ASCEND_TWIN_PROF_QUIET=1 silences them).
 * They are implemented in libascendc_runtime.so, which bisheng links by default.
 */
#ifndef INC_EXTERNAL_ACL_ACL_PROF_H_
#define INC_EXTERNAL_ACL_ACL_PROF_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL

typedef enum {
  ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
  ACL_AICORE_PIPE_UTILIZATION = 1,
  ACL_AICORE_MEMORY_BANDWIDTH = 2,
  ACL_AICORE_L0B_AND_WIDTH = 3,
  ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
  ACL_AICORE_MEMORY_UB = 5,
  ACL_AICORE_L2_CACHE = 6,
  ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

/* The tensor description aclprofRangePushEx carries (messageType 0) so that op profiling can show
 * each input's and output's shape, data type and format. ACL_PROF_TENSOR_INFO_DEFINED lets code
 * that declares these types itself (as CANN's samples do, for older toolkits) skip its copy. */
#ifndef ACL_PROF_TENSOR_INFO_DEFINED
#define ACL_PROF_TENSOR_INFO_DEFINED
struct aclprofTensor {
  uint32_t type;     /* 0 input, 1 output */
  uint32_t format;   /* an aclFormat */
  uint32_t dataType; /* an aclDataType */
  uint32_t shapeDim; /* dimensions used in shape, at most 8 */
  uint32_t shape[8];
};
typedef struct aclprofTensor aclprofTensor;

struct aclprofTensorInfo {
  uint64_t opNameId; /* aclprofStr2Id(op name) */
  uint64_t opTypeId; /* aclprofStr2Id(op type) */
  uint32_t resv;
  uint32_t tensorNum;
  uint32_t kernelType;
  uint32_t blockNums;
  void *stream;
  aclprofTensor *tensors;
};
typedef struct aclprofTensorInfo aclprofTensorInfo;

struct aclprofEventAttributes {
  uint16_t version;
  uint16_t size;        /* bytes of message */
  uint32_t messageType; /* 0: tensor information */
  union message {
    aclprofTensorInfo *tensorInfo;
  } message;
};
typedef struct aclprofEventAttributes aclprofEventAttributes;
#endif /* ACL_PROF_TENSOR_INFO_DEFINED */

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofStepInfo aclprofStepInfo;

ACL_FUNC_VISIBILITY aclError aclprofInit(const char *profilerResultPath, size_t length);
ACL_FUNC_VISIBILITY aclError aclprofFinalize();
ACL_FUNC_VISIBILITY aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                                       aclprofAicoreMetrics aicoreMetrics,
                                                       const aclprofAicoreEvents *aicoreEvents,
                                                       uint64_t dataTypeConfig);
ACL_FUNC_VISIBILITY aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig);
ACL_FUNC_VISIBILITY aclError aclprofStart(const aclprofConfig *profilerConfig);
ACL_FUNC_VISIBILITY aclError aclprofStop(const aclprofConfig *profilerConfig);
ACL_FUNC_VISIBILITY uint64_t aclprofStr2Id(const char *message);
ACL_FUNC_VISIBILITY void *aclprofCreateStamp();
ACL_FUNC_VISIBILITY void aclprofDestroyStamp(void *stamp);
ACL_FUNC_VISIBILITY aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen);
ACL_FUNC_VISIBILITY aclError aclprofMark(void *stamp);
ACL_FUNC_VISIBILITY aclError aclprofPush(void *stamp);
ACL_FUNC_VISIBILITY aclError aclprofPop();
ACL_FUNC_VISIBILITY aclError aclprofRangeStart(void *stamp, uint32_t *rangeId);
ACL_FUNC_VISIBILITY aclError aclprofRangeStop(uint32_t rangeId);
ACL_FUNC_VISIBILITY aclError aclprofRangePushEx(void *stamp);
ACL_FUNC_VISIBILITY aclError aclprofRangePop();

#ifdef __cplusplus
}
#endif

#endif  // INC_EXTERNAL_ACL_ACL_PROF_H_
