/* ge/ge_api_types.h: GE option keys (CANN's names and strings), ge::Status, the ir_option
 * names of aclgrphBuildInitialize / aclgrphBuildModel and the sets GE checks them against. */
#ifndef INC_EXTERNAL_GE_GE_API_TYPES_H_
#define INC_EXTERNAL_GE_GE_API_TYPES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {
using char_t = char;  // CANN's spelling in external headers; redeclaring the same alias is allowed

// Init / session options
const char_t *const OPTION_GRAPH_RUN_MODE = "ge.graphRunMode";
const char_t *const OPTION_DEVICE_TYPE = "ge.deviceType";
const char_t *const OPTION_EXEC_SESSION_ID = "ge.exec.sessionId";
const char_t *const OPTION_EXEC_DEVICE_ID = "ge.exec.deviceId";
const char_t *const OPTION_EXEC_JOB_ID = "ge.exec.jobId";
const char_t *const OPTION_EXEC_RANK_ID = "ge.exec.rankId";
const char_t *const OPTION_EXEC_DEPLOY_MODE = "ge.exec.deployMode";
const char_t *const OPTION_EXEC_ENABLE_DUMP = "ge.exec.enableDump";
const char_t *const OPTION_EXEC_DUMP_PATH = "ge.exec.dumpPath";
const char_t *const OPTION_EXEC_PROFILING_MODE = "ge.exec.profilingMode";
const char_t *const OPTION_EXEC_PROFILING_OPTIONS = "ge.exec.profilingOptions";
const char_t *const OPTION_EXEC_DISABLE_REUSED_MEMORY = "ge.exec.disableReuseMemory";
const char_t *const OPTION_EXEC_PRECISION_MODE = "ge.exec.precision_mode";
const char_t *const GRAPH_MEMORY_MAX_SIZE = "ge.graphMemoryMaxSize";
const char_t *const VARIABLE_MEMORY_MAX_SIZE = "ge.variableMemoryMaxSize";
const char_t *const INPUT_FORMAT = "input_format";
const char_t *const INPUT_SHAPE_RANGE = "input_shape_range";

const std::string SOC_VERSION = "ge.socVersion";
const std::string CORE_TYPE = "ge.engineType";
const std::string AICORE_NUM = "ge.aicoreNum";
const std::string VIRTUAL_TYPE = "ge.virtual_type";
const std::string PRECISION_MODE = "ge.exec.precision_mode";
const std::string PRECISION_MODE_V2 = "ge.exec.precision_mode_v2";
const std::string INPUT_SHAPE = "ge.inputShape";  // the Session option; ir_option::INPUT_SHAPE is "input_shape"
const std::string OUTPUT_DATATYPE = "ge.outputDatatype";
const std::string OUTPUT_NODE_NAME = "ge.outputNodeName";
const std::string INSERT_OP_FILE = "ge.insertOpFile";
const std::string BUFFER_OPTIMIZE = "ge.bufferOptimize";
const std::string ENABLE_COMPRESS_WEIGHT = "ge.enableCompressWeight";
const std::string ENABLE_SPARSE_MATRIX_WEIGHT = "ge.enableSparseMatrixWeight";
const std::string ENABLE_SMALL_CHANNEL = "ge.enableSmallChannel";
const std::string FUSION_SWITCH_FILE = "ge.fusionSwitchFile";
const std::string OP_SELECT_IMPL_MODE = "ge.opSelectImplmode";
const std::string OPTYPELIST_FOR_IMPLMODE = "ge.optypelistForImplmode";
const std::string AUTO_TUNE_MODE = "ge.autoTuneMode";
const std::string TUNE_DEVICE_IDS = "ge.exec.tuneDeviceIds";
const std::string INPUT_FP16_NODES = "ge.INPUT_NODES_SET_FP16";
const std::string OP_DEBUG_LEVEL = "ge.opDebugLevel";
const std::string OP_DEBUG_OPTION = "op_debug_option";
const std::string OP_DEBUG_CONFIG = "op_debug_config";
const std::string MODIFY_MIXLIST = "ge.exec.modify_mixlist";
const std::string OP_PRECISION_MODE = "ge.exec.op_precision_mode";
const std::string ALLOW_HF32 = "ge.exec.allow_hf32";
const std::string CUSTOMIZE_DTYPES = "ge.customizeDtypes";
const std::string COMPRESSION_OPTIMIZE_CONF = "ge.compressionOptimizeConf";
const std::string EXTERNAL_WEIGHT = "ge.externalWeight";
const std::string EXCLUDE_ENGINES = "ge.exec.exclude_engines";
const std::string DETERMINISTIC = "ge.deterministic";
const std::string PERFORMANCE_MODE = "ge.performance_mode";
const std::string SHAPE_GENERALIZED_BUILD_MODE = "ge.shape_generalized_build_mode";
const std::string MDL_BANK_PATH_FLAG = "ge.mdl_bank_path";
const std::string OP_BANK_PATH_FLAG = "ge.op_bank_path";
const std::string OP_BANK_UPDATE_FLAG = "ge.op_bank_update";
const char_t *const kDynamicBatchSize = "ge.dynamicBatchSize";
const char_t *const kDynamicImageSize = "ge.dynamicImageSize";
const char_t *const kDynamicDims = "ge.dynamicDims";
const char_t *const DEBUG_DIR = "ge.debugDir";
const char_t *const OP_COMPILER_CACHE_DIR = "ge.op_compiler_cache_dir";
const char_t *const OP_COMPILER_CACHE_MODE = "ge.op_compiler_cache_mode";
const char_t *const BUILD_INNER_MODEL = "ge.build_inner_model";
const char_t *const ENABLE_SINGLE_STREAM = "ge.enableSingleStream";

enum GraphRunMode : std::int32_t { PREDICTION = 0, TRAIN };

struct InputTensorInfo {
  uint32_t data_type;
  std::vector<int64_t> dims;
  void *data;
  int64_t length;
};

using Status = uint32_t;
using RunAsyncCallback = std::function<void(Status, std::vector<ge::Tensor> &)>;

// Option names of aclgrphBuildInitialize (global) and aclgrphBuildModel (build).
namespace ir_option {
static const char_t *const INPUT_FORMAT = "input_format";
static const char_t *const INPUT_SHAPE = "input_shape";
static const char_t *const INPUT_SHAPE_RANGE = ge::INPUT_SHAPE_RANGE;
static const char_t *const OP_NAME_MAP = "op_name_map";
static const char_t *const DYNAMIC_BATCH_SIZE = kDynamicBatchSize;
static const char_t *const DYNAMIC_IMAGE_SIZE = kDynamicImageSize;
static const char_t *const DYNAMIC_DIMS = kDynamicDims;
static const char_t *const INSERT_OP_FILE = ge::INSERT_OP_FILE.c_str();
static const char_t *const PRECISION_MODE = ge::PRECISION_MODE.c_str();
static const char_t *const PRECISION_MODE_V2 = ge::PRECISION_MODE_V2.c_str();
static const char_t *const TUNE_DEVICE_IDS = ge::TUNE_DEVICE_IDS.c_str();
static const char_t *const EXEC_DISABLE_REUSED_MEMORY = ge::OPTION_EXEC_DISABLE_REUSED_MEMORY;
static const char_t *const AUTO_TUNE_MODE = ge::AUTO_TUNE_MODE.c_str();
static const char_t *const CORE_TYPE = ge::CORE_TYPE.c_str();
static const char_t *const SOC_VERSION = ge::SOC_VERSION.c_str();
static const char_t *const VIRTUAL_TYPE = ge::VIRTUAL_TYPE.c_str();
static const char_t *const ENABLE_SINGLE_STREAM = ge::ENABLE_SINGLE_STREAM;
static const char_t *const AICORE_NUM = ge::AICORE_NUM.c_str();
static const char_t *const FUSION_SWITCH_FILE = ge::FUSION_SWITCH_FILE.c_str();
static const char_t *const ENABLE_SMALL_CHANNEL = ge::ENABLE_SMALL_CHANNEL.c_str();
static const char_t *const OP_SELECT_IMPL_MODE = ge::OP_SELECT_IMPL_MODE.c_str();
static const char_t *const OUTPUT_TYPE = ge::OUTPUT_DATATYPE.c_str();
static const char_t *const BUFFER_OPTIMIZE = ge::BUFFER_OPTIMIZE.c_str();
static const char_t *const ENABLE_COMPRESS_WEIGHT = ge::ENABLE_COMPRESS_WEIGHT.c_str();
static const char_t *const SPARSITY = ge::ENABLE_SPARSE_MATRIX_WEIGHT.c_str();
static const char_t *const COMPRESS_WEIGHT_CONF = "compress_weight_conf";
static const char_t *const OUT_NODES = ge::OUTPUT_NODE_NAME.c_str();
static const char_t *const INPUT_FP16_NODES = ge::INPUT_FP16_NODES.c_str();
static const char_t *const LOG_LEVEL = "log";
static const char_t *const OPTYPELIST_FOR_IMPLMODE = ge::OPTYPELIST_FOR_IMPLMODE.c_str();
static const char_t *const DEBUG_DIR = ge::DEBUG_DIR;
static const char_t *const OP_COMPILER_CACHE_DIR = ge::OP_COMPILER_CACHE_DIR;
static const char_t *const OP_COMPILER_CACHE_MODE = ge::OP_COMPILER_CACHE_MODE;
static const char_t *const BUILD_INNER_MODEL = ge::BUILD_INNER_MODEL;
static const char_t *const MDL_BANK_PATH = ge::MDL_BANK_PATH_FLAG.c_str();
static const char_t *const OP_BANK_PATH = ge::OP_BANK_PATH_FLAG.c_str();
static const char_t *const OP_BANK_UPDATE = ge::OP_BANK_UPDATE_FLAG.c_str();
static const char_t *const OP_DEBUG_LEVEL = ge::OP_DEBUG_LEVEL.c_str();
static const char_t *const OP_DEBUG_OPTION = ge::OP_DEBUG_OPTION.c_str();
static const char_t *const PERFORMANCE_MODE = ge::PERFORMANCE_MODE.c_str();
static const char_t *const SHAPE_GENERALIZED_BUILD_MODE = ge::SHAPE_GENERALIZED_BUILD_MODE.c_str();
static const char_t *const MODIFY_MIXLIST = ge::MODIFY_MIXLIST.c_str();
static const char_t *const OP_PRECISION_MODE = ge::OP_PRECISION_MODE.c_str();
static const char_t *const ALLOW_HF32 = ge::ALLOW_HF32.c_str();
static const char_t *const CUSTOMIZE_DTYPES = "ge.customizeDtypes";
static const char_t *const COMPRESSION_OPTIMIZE_CONF = "ge.compressionOptimizeConf";
static const char_t *const OP_DEBUG_CONFIG = "op_debug_config";
static const char_t *const EXTERNAL_WEIGHT = ge::EXTERNAL_WEIGHT.c_str();
static const char_t *const EXCLUDE_ENGINES = ge::EXCLUDE_ENGINES.c_str();
static const char_t *const DETERMINISTIC = ge::DETERMINISTIC.c_str();

// for interface: aclgrphBuildModel
const std::set<std::string> ir_builder_suppported_options = {INPUT_FORMAT,
                                                             INPUT_SHAPE,
                                                             INPUT_SHAPE_RANGE,
                                                             OP_NAME_MAP,
                                                             DYNAMIC_BATCH_SIZE,
                                                             DYNAMIC_IMAGE_SIZE,
                                                             DYNAMIC_DIMS,
                                                             INSERT_OP_FILE,
                                                             OP_PRECISION_MODE,
                                                             ALLOW_HF32,
                                                             PRECISION_MODE,
                                                             PRECISION_MODE_V2,
                                                             TUNE_DEVICE_IDS,
                                                             EXEC_DISABLE_REUSED_MEMORY,
                                                             AUTO_TUNE_MODE,
                                                             OUTPUT_TYPE,
                                                             OUT_NODES,
                                                             INPUT_FP16_NODES,
                                                             LOG_LEVEL,
                                                             OP_DEBUG_LEVEL,
                                                             OP_DEBUG_OPTION,
                                                             DEBUG_DIR,
                                                             OP_COMPILER_CACHE_DIR,
                                                             OP_COMPILER_CACHE_MODE,
                                                             MDL_BANK_PATH,
                                                             OP_BANK_PATH,
                                                             OP_BANK_UPDATE,
                                                             PERFORMANCE_MODE,
                                                             SHAPE_GENERALIZED_BUILD_MODE,
                                                             MODIFY_MIXLIST,
                                                             CUSTOMIZE_DTYPES,
                                                             BUILD_INNER_MODEL,
                                                             OP_DEBUG_CONFIG,
                                                             EXCLUDE_ENGINES,
                                                             EXTERNAL_WEIGHT};

// for interface: aclgrphBuildInitialize
const std::set<std::string> global_options = {CORE_TYPE,
                                              SOC_VERSION,
                                              VIRTUAL_TYPE,
                                              BUFFER_OPTIMIZE,
                                              ENABLE_COMPRESS_WEIGHT,
                                              COMPRESS_WEIGHT_CONF,
                                              SPARSITY,
                                              PRECISION_MODE,
                                              PRECISION_MODE_V2,
                                              ALLOW_HF32,
                                              TUNE_DEVICE_IDS,
                                              EXEC_DISABLE_REUSED_MEMORY,
                                              AUTO_TUNE_MODE,
                                              ENABLE_SINGLE_STREAM,
                                              AICORE_NUM,
                                              FUSION_SWITCH_FILE,
                                              ENABLE_SMALL_CHANNEL,
                                              OP_SELECT_IMPL_MODE,
                                              OPTYPELIST_FOR_IMPLMODE,
                                              OP_DEBUG_LEVEL,
                                              OP_DEBUG_OPTION,
                                              DEBUG_DIR,
                                              OP_COMPILER_CACHE_DIR,
                                              OP_COMPILER_CACHE_MODE,
                                              MODIFY_MIXLIST,
                                              COMPRESSION_OPTIMIZE_CONF,
                                              OP_DEBUG_CONFIG,
                                              DETERMINISTIC};
}  // namespace ir_option
}  // namespace ge

#endif  // INC_EXTERNAL_GE_GE_API_TYPES_H_
