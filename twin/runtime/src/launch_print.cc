#include "twin/runtime/internal/launch_print.h"

#include <cstdio>

namespace asc_twin::rt {

void LaunchPrint::Add(uint32_t block, const char *text, size_t len) {
  if (block >= blocks_ || text == nullptr) return;
  Block *blocks = per_block_.load(std::memory_order_acquire);
  if (blocks == nullptr) {  // kernels that never print allocate nothing
    std::lock_guard<std::mutex> lock(create_mutex_);
    blocks = per_block_.load(std::memory_order_relaxed);
    if (blocks == nullptr) {
      storage_ = std::make_unique<Block[]>(blocks_);
      blocks = storage_.get();
      per_block_.store(blocks, std::memory_order_release);
    }
  }
  Block &mine = blocks[block];
  if (mine.text.size() + len > kPrintBytesPerBlock) {
    ++mine.dropped;
    return;
  }
  mine.text.append(text, len);
}

std::string LaunchPrint::Collect() const {
  const Block *blocks = per_block_.load(std::memory_order_acquire);
  std::string all;
  if (blocks == nullptr) return all;
  for (uint32_t b = 0; b < blocks_; ++b) {
    all += blocks[b].text;
    if (blocks[b].dropped != 0) {
      if (!all.empty() && all.back() != '\n') all += '\n';
      all += "[WARNING] printf of block " + std::to_string(b) + ": " + std::to_string(blocks[b].dropped) +
             " record(s) not printed, beyond the " + std::to_string(kPrintBytesPerBlock) +
             "-byte printf buffer of one core\n";
    }
  }
  return all;
}

void LaunchPrint::Record(const void *print_ctx, uint32_t block_idx, const char *text, size_t len) {
  const_cast<LaunchPrint *>(static_cast<const LaunchPrint *>(print_ctx))->Add(block_idx, text, len);
}

void EmitLaunchPrint(std::string *sink, const std::string &text) {
  if (text.empty()) return;
  if (sink != nullptr) {
    sink->append(text);
    return;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

}  // namespace asc_twin::rt
