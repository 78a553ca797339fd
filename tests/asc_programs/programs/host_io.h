// Host helpers shared by the test programs (like the data_utils.h of CANN samples): binary file
// I/O against the directory the harness passes as argv[1], ACL error checks, device buffers.
#ifndef ASC_PROGRAMS_HOST_IO_H_
#define ASC_PROGRAMS_HOST_IO_H_

#include <cstdio>
#include <string>
#include <vector>

#include "acl/acl.h"

#define CHECK_ACL(call)                                                                           \
  do {                                                                                            \
    aclError rc_ = (call);                                                                        \
    if (rc_ != ACL_SUCCESS) {                                                                     \
      const char* msg_ = aclGetRecentErrMsg();                                                    \
      std::printf("%s:%d: %s failed: %d %s\n", __FILE__, __LINE__, #call, rc_, msg_ ? msg_ : ""); \
      return 1;                                                                                   \
    }                                                                                             \
  } while (0)

template <typename T>
inline std::vector<T> ReadBin(const std::string& dir, const char* name, size_t count) {
  std::vector<T> v(count);
  FILE* f = std::fopen((dir + "/" + name).c_str(), "rb");
  if (f == nullptr || std::fread(v.data(), sizeof(T), count, f) != count) {
    std::printf("cannot read %zu values from %s/%s\n", count, dir.c_str(), name);
    std::exit(2);
  }
  std::fclose(f);
  return v;
}

template <typename T>
inline void WriteBin(const std::string& dir, const char* name, const std::vector<T>& v) {
  FILE* f = std::fopen((dir + "/" + name).c_str(), "wb");
  std::fwrite(v.data(), sizeof(T), v.size(), f);
  std::fclose(f);
}

// A device copy of a host vector (or an uninitialised buffer of `count` elements).
inline void* ToDevice(const void* host, size_t bytes) {
  void* dev = nullptr;
  if (aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
  if (host != nullptr) aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  return dev;
}

template <typename T>
inline std::vector<T> FromDevice(const void* dev, size_t count) {
  std::vector<T> v(count);
  aclrtMemcpy(v.data(), count * sizeof(T), dev, count * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST);
  return v;
}

#endif  // ASC_PROGRAMS_HOST_IO_H_
