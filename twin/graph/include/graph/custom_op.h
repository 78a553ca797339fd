/* graph/custom_op.h (subset): where a custom op's execute runs. CANN's header also declares the
 * C++ custom-op capability classes (BaseCustomOp, EagerExecuteOp, ...); the twin runs Python
 * custom ops only, so it carries the part both languages share: the backend enum, whose values
 * are those of Python's ge.custom_op.OpBackend registrations (DEVICE, HOST). */
#ifndef INC_EXTERNAL_GRAPH_CUSTOM_OP_H_
#define INC_EXTERNAL_GRAPH_CUSTOM_OP_H_

#include <cstdint>

namespace ge {
enum class OpBackend : uint32_t {
  kDevice = 0,   // execute on the device stream (Python: OpBackend.DEVICE, interface "eager_execute")
  kHostCPU = 1,  // execute on the host CPU (Python: OpBackend.HOST, interface "host_cpu_execute")
};
}  // namespace ge

#endif  // INC_EXTERNAL_GRAPH_CUSTOM_OP_H_
