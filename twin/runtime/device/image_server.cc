// The device process's socket (image_server.h).
#include "twin/runtime/device/image_server.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "twin/runtime/device/fd_io.h"
#include "twin/runtime/device/image_loader.h"
#include "twin/runtime/device/protocol.h"

namespace asc_twin::rt::device {
namespace {

std::mutex g_images_mutex;
std::map<uint64_t, std::shared_ptr<LoadedImage>> g_images;
// Bumped under g_images_mutex whenever g_images changes: a dispatcher's cached kernel is valid
// while it is unchanged (no lock or map lookup per launch).
std::atomic<uint64_t> g_images_generation{0};

// The request being answered (ServeSocket is one thread): the reply echoes it (protocol.h).
proto::RequestHeader g_request{};

Status Refused(const std::string &what) { return Status(ACL_ERROR_INVALID_PARAM, "invalid kernel binary: " + what); }

void MapHost(const uint64_t *fields) {
  void *want = reinterpret_cast<void *>(fields[0]);
  const uint64_t span = (fields[1] + 4095) / 4096 * 4096;
  void *got = mmap(want, span, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, proto::kGmFd,
                   static_cast<off_t>(fields[2]));
  if (got == MAP_FAILED || got != want) {
    if (got != MAP_FAILED) munmap(got, span);
    char text[160];
    std::snprintf(text, sizeof(text), "the device process cannot map host range [%p, +%llu) at the same address: %s",
                  want, static_cast<unsigned long long>(fields[1]), got == MAP_FAILED ? strerror(errno) : "moved");
    Reply(Status(ACL_ERROR_RT_MEMORY_ALLOCATION, text));
    return;
  }
  Reply(Status::Ok());
}

}  // namespace

void Reply(const Status &status, const std::vector<uint8_t> &payload) {
  const size_t message_bytes = std::min<size_t>(status.message().size(), proto::kMaxReplyMessageBytes);
  proto::ReplyHeader header{status.code(), static_cast<uint32_t>(message_bytes), payload.size(), g_request.type,
                            g_request.sequence};
  if (!WriteAll(proto::kSocketFd, &header, sizeof(header)) ||
      !WriteAll(proto::kSocketFd, status.message().data(), message_bytes) ||
      !WriteAll(proto::kSocketFd, payload.data(), payload.size())) {
    _exit(0);  // the host is gone
  }
}

void ServeSocket() {
  for (;;) {
    proto::RequestHeader header{};
    if (!ReadAll(proto::kSocketFd, &header, sizeof(header))) _exit(0);  // the host is gone
    g_request = header;
    if (header.payload_bytes > (uint64_t{1} << 32)) _exit(3);
    std::vector<uint8_t> payload(header.payload_bytes);
    if (!ReadAll(proto::kSocketFd, payload.data(), payload.size())) _exit(0);
    switch (header.type) {
      case proto::kLoadBinary: {
        if (payload.size() < 9) {
          Reply(Refused("empty"));
          break;
        }
        uint64_t id = 0;
        std::memcpy(&id, payload.data(), 8);
        StatusOr<std::shared_ptr<LoadedImage>> image = LoadImage(payload.data() + 8, payload.size() - 8);
        if (!image.ok()) {
          Reply(image.status());
          break;
        }
        std::vector<uint8_t> infos(8 * image.value()->kernels.size());
        for (size_t i = 0; i < image.value()->kernels.size(); ++i) {
          std::memcpy(infos.data() + 8 * i, &image.value()->kernels[i].params, 4);
          std::memcpy(infos.data() + 8 * i + 4, &image.value()->kernels[i].args_size, 4);
        }
        {
          std::lock_guard<std::mutex> lock(g_images_mutex);
          g_images[id] = image.value();
          g_images_generation.fetch_add(1, std::memory_order_release);
        }
        Reply(Status::Ok(), infos);
        break;
      }
      case proto::kUnloadBinary: {
        uint64_t id = 0;
        if (payload.size() >= 8) std::memcpy(&id, payload.data(), 8);
        std::shared_ptr<LoadedImage> doomed;  // closed after the lock
        {
          std::lock_guard<std::mutex> lock(g_images_mutex);
          auto it = g_images.find(id);
          if (it != g_images.end()) {
            doomed = it->second;
            g_images.erase(it);
            g_images_generation.fetch_add(1, std::memory_order_release);
          }
        }
        Reply(Status::Ok());
        break;
      }
      case proto::kMapHost: {
        uint64_t fields[3] = {};
        if (payload.size() >= 24) std::memcpy(fields, payload.data(), 24);
        MapHost(fields);
        break;
      }
      case proto::kUnmapHost: {
        uint64_t fields[2] = {};
        if (payload.size() >= 16) std::memcpy(fields, payload.data(), 16);
        munmap(reinterpret_cast<void *>(fields[0]), (fields[1] + 4095) / 4096 * 4096);
        Reply(Status::Ok());
        break;
      }
      default:
        Reply(Status(ACL_ERROR_RT_INTERNAL_ERROR, "unknown request " + std::to_string(header.type)));
    }
  }
}

const std::shared_ptr<const Kernel> &KernelCache::Find(uint64_t binary_id, uint32_t kernel_index) {
  const uint64_t generation = g_images_generation.load(std::memory_order_acquire);
  if (generation == generation_ && binary_id == binary_id_ && kernel_index == kernel_index_) return kernel_;
  std::lock_guard<std::mutex> lock(g_images_mutex);
  kernel_.reset();
  auto it = g_images.find(binary_id);
  if (it != g_images.end() && kernel_index < it->second->kernels.size()) {
    kernel_ = std::shared_ptr<const Kernel>(it->second, &it->second->kernels[kernel_index]);
  }
  generation_ = g_images_generation.load(std::memory_order_relaxed);  // stable under the lock
  binary_id_ = binary_id;
  kernel_index_ = kernel_index;
  return kernel_;
}

}  // namespace asc_twin::rt::device
