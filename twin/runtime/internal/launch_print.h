// The printf output of one launch (kernel-side AscendC::printf / printf of
// utils/debug/asc_printf.h): each block's records kept apart while the blocks run, handed out
// in block order when the launch ends, as CANN's host parses the per-core dump buffers at the
// stream's synchronize and prints core 0's records, then core 1's, ...
#ifndef TWIN_RUNTIME_INTERNAL_LAUNCH_PRINT_H_
#define TWIN_RUNTIME_INTERNAL_LAUNCH_PRINT_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace asc_twin::rt {

// CANN's default printf buffer of one core ("simd_printf_fifo_size_per_core", 32 KB): a record
// that no longer fits in its block's share of one launch is not printed.
constexpr size_t kPrintBytesPerBlock = 32 * 1024;

class LaunchPrint {
 public:
  // Before the launch's first block: how many blocks it has.
  void SetBlocks(uint32_t blocks) { blocks_ = blocks; }

  // Appends one record of `block` (called by that block's thread only; blocks in parallel).
  void Add(uint32_t block, const char *text, size_t len);

  // Every block's records, block 0 first, each block followed by one line naming the records
  // its buffer could not hold, if any. Call after every block finished.
  std::string Collect() const;

  bool empty() const { return per_block_.load(std::memory_order_acquire) == nullptr; }

  // AscTwinPrintFn over a LaunchPrint (`print_ctx`).
  static void Record(const void *print_ctx, uint32_t block_idx, const char *text, size_t len);

 private:
  struct Block {
    std::string text;
    uint32_t dropped = 0;  // records beyond kPrintBytesPerBlock
  };
  uint32_t blocks_ = 0;
  std::mutex create_mutex_;  // the first record of a launch allocates per_block_
  std::unique_ptr<Block[]> storage_;
  std::atomic<Block *> per_block_{nullptr};
};

// Where a launch's printf text goes when the launch ends: appended to `sink` when there is one
// (the device process passes it to the host through the launch slot), else written to this
// process's stdout and flushed (the host's own launches, in-process mode).
void EmitLaunchPrint(std::string *sink, const std::string &text);

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_LAUNCH_PRINT_H_
