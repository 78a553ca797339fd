// The host <-> device-process protocol of the runtime twin (see README.md "The device
// process"). Both sides are built from this repository at the same time, so the layout is not
// versioned: the host only ever runs the device executable embedded in itself.
//
//   fd 3  GM memfd: the device memory arena, mapped MAP_SHARED at the same address on both sides
//   fd 4  control memfd: one ControlBlock (launch slot, crash report, allocation table)
//   fd 5  a SOCK_STREAM socket for requests that carry data (load/unload binary, map/unmap a
//         registered host range); one request, one reply, in order
//
// Launches go through ControlBlock::slots: the host fills a free slot, bumps its submit_seq and
// futex-wakes the device; the slot's dispatcher thread in the device runs every block, writes
// status and message, sets done_seq = submit_seq and futex-wakes the host. Up to kLaunchSlots
// launches (from different streams) are in flight at once; their blocks share the device's
// worker pool.
#ifndef TWIN_RUNTIME_DEVICE_PROTOCOL_H_
#define TWIN_RUNTIME_DEVICE_PROTOCOL_H_

#include <pthread.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace asc_twin::rt::proto {

constexpr int kGmFd = 3;
constexpr int kControlFd = 4;
constexpr int kSocketFd = 5;

constexpr uint32_t kMaxArgBytes = 64 * 1024;     // argument blob of one launch
constexpr uint32_t kMaxDeviceThreads = 256;      // slots for "which block runs on this thread"
constexpr uint32_t kMaxTableEntries = 1u << 16;  // live allocations + registrations
constexpr uint32_t kNoBlock = 0xffffffffu;
constexpr uint32_t kLaunchSlots = 4;  // launches in flight per device

// ControlBlock::running_block entries: the launch slot and the block a thread runs.
constexpr uint32_t RunningMark(uint32_t slot, uint32_t block) { return slot << 16 | block; }
constexpr uint32_t MarkSlot(uint32_t mark) { return mark >> 16; }
constexpr uint32_t MarkBlock(uint32_t mark) { return mark & 0xffffu; }
constexpr size_t kMessageBytes = 1024;
// The printf text of one launch (every block's records, block order; launch_print.h), passed
// back in ControlBlock::print_text. Pages of the memfd are only backed once written.
constexpr size_t kPrintSlotBytes = 4u << 20;

struct TableEntry {
  uint64_t base;        // first accessible byte
  uint64_t accessible;  // bytes kernels may touch
  uint64_t flags;       // kEntryInArena: inside the GM arena (the device maps it RW)
};
constexpr uint64_t kEntryInArena = 1;

struct LaunchSlot {
  std::atomic<uint32_t> submit_seq;      // host: bumped after the fields below are written
  std::atomic<uint32_t> done_seq;        // device: = submit_seq when the launch finished
  std::atomic<uint32_t> device_waiting;  // device sleeps on submit_seq (host must wake it)
  std::atomic<uint32_t> host_waiting;    // host sleeps on done_seq
  // Device: nanoseconds the dispatcher spent polling for the next launch (its CPU cost of
  // staying awake), and how many times it went to sleep (each sleep costs a later launch a
  // cross-process wake-up). Read by benchmarks.
  std::atomic<uint64_t> device_spin_ns;
  std::atomic<uint64_t> device_sleeps;
  // Device: launches of this process run by their dispatcher alone (the small-launch path),
  // updated after each launch of this slot. Read by benchmarks and tests.
  std::atomic<uint64_t> device_inline_launches;
  uint32_t spin_budget_us;  // host: how long the dispatcher polls before sleeping
  // Device: where the dispatcher is, so that a launch that hangs or dies outside any block can
  // be explained (the watchdog's message): the launch it took last, and its phase.
  std::atomic<uint32_t> accepted_seq;
  std::atomic<uint32_t> phase;  // LaunchPhase
  uint64_t binary_id;
  uint32_t kernel_index;
  uint32_t blocks;
  uint64_t args_size;
  int32_t status;  // aclError of the launch
  uint32_t failed_block;
  char message[kMessageBytes];  // "kernel K block B: cause" when status != 0
  uint64_t print_bytes;         // device: bytes of this launch's printf text in print_text
  alignas(64) uint8_t args[kMaxArgBytes];
};

enum LaunchPhase : uint32_t {
  kPhaseIdle = 0,       // waiting for a launch
  kPhasePreparing = 1,  // mirroring the allocation table, finding the kernel
  kPhaseBlocks = 2,     // running blocks (running_block says which, per thread)
  kPhaseReporting = 3,  // all blocks returned; writing the status
};

struct ControlBlock {
  LaunchSlot slots[kLaunchSlots];
  // Liveness without a system call: a robust, process-shared mutex the host initializes before
  // each start and the device's main thread locks before it reports ready and never unlocks.
  // However the device process ends (SIGKILL included), the kernel marks it "owner died", so
  // the host's pthread_mutex_trylock answers EBUSY exactly while that thread lives.
  alignas(64) pthread_mutex_t device_alive;
  // Fault report written by the device's fatal-signal/exit handlers before it dies.
  alignas(64) std::atomic<uint32_t> crash_written;
  uint32_t crash_slot;  // the launch slot of the faulting thread (kLaunchSlots: none known)
  char crash_cause[kMessageBytes];
  // Per device thread: RunningMark(launch slot, block) of the block it is running (kNoBlock when
  // idle), for faults that kill the process without a report (_exit, SIGKILL) and hangs.
  // One cache line each: every thread writes its own twice per block, and entries sharing a
  // line made the threads of a launch take that line from each other at every block.
  struct alignas(64) RunningBlock {
    std::atomic<uint32_t> mark;
  };
  RunningBlock running_block[kMaxDeviceThreads];
  // The allocation table (seqlock: odd while the host writes it).
  alignas(64) std::atomic<uint64_t> table_seq;
  uint32_t table_count;
  TableEntry table[kMaxTableEntries];
  alignas(4096) char print_text[kLaunchSlots][kPrintSlotBytes];  // per launch slot
};

enum Request : uint32_t {
  kLoadBinary = 1,    // u64 id, u64 size, bytes -> reply: kernel count, {u32 params, u32 args_size}...
  kUnloadBinary = 2,  // u64 id
  kMapHost = 3,       // u64 addr, u64 size, u64 gm_offset: map GM pages at addr (MAP_FIXED_NOREPLACE)
  kUnmapHost = 4,     // u64 addr, u64 size
};

struct RequestHeader {
  uint32_t type;
  uint32_t sequence;  // the host's count of requests to this device process; the reply echoes it
  uint64_t payload_bytes;
};

// The host trusts no reply (a kernel runs in the device process and may write the socket): it
// checks type and sequence against the request, the status against the ACL codes, and the sizes
// against these bounds and what it asked, before it allocates anything.
struct ReplyHeader {
  int32_t status;  // aclError
  uint32_t message_bytes;
  uint64_t payload_bytes;
  uint32_t request;   // the request's type (0: the start-up report)
  uint32_t sequence;  // the request's sequence (0: the start-up report)
};

constexpr uint32_t kMaxReplyMessageBytes = 16 * 1024;
// A load's reply: {u32 params, u32 args_size} per kernel of the binary.
constexpr uint64_t kKernelInfoBytes = 8;

// aclError values the device sends: ACL_SUCCESS or a code of CANN's ACL or runtime ranges.
inline bool IsReplyStatus(int32_t status) {
  if (status == 0) return true;
  switch (status / 1000) {
    case 100:
    case 107:
    case 145:
    case 148:
    case 200:
    case 207:
    case 245:
    case 300:
    case 500:
    case 507:
    case 545:
      return status > 0;
    default:
      return false;
  }
}

}  // namespace asc_twin::rt::proto

#endif  // TWIN_RUNTIME_DEVICE_PROTOCOL_H_
