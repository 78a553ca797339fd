// One C entry point over the C++ logger, for tests/test_ascend_log.py (loaded with ctypes).
#include "twin/common/log/log.h"

extern "C" __attribute__((visibility("default"))) void twin_log_write(int level, const char *module,
                                                                      const char *message) {
  ascend_twin::log::Write(static_cast<ascend_twin::log::Level>(level), module, "log_writer.cc", 7, message);
}

extern "C" __attribute__((visibility("default"))) const char *twin_log_plog_name() {
  static thread_local std::string name;
  name = ascend_twin::log::PlogFileName();
  return name.c_str();
}
