// The in-core event flags behind SetFlag/WaitFlag (and the set_flag/wait_flag builtins). On the
// NPU an event is a one-bit semaphore per (source pipe, destination pipe, event id): SetFlag
// raises it when the source pipe gets there, WaitFlag blocks the destination pipe until it is
// raised and lowers it. A twin block runs in program order, so a wait never has to block, but a
// misuse that would hang or corrupt a real NPU is still visible here and traps:
//   - WaitFlag on an event no SetFlag raised: the NPU would wait forever;
//   - SetFlag on an event already raised and not yet waited for (undefined on the NPU);
//   - an event still raised when the kernel ends (a SetFlag never waited for), reported by the
//     entry shim after the kernel returns;
//   - an event id outside [0, 7] ([0, 3] on Atlas training, NpuArch 1001).
// The flags are per block (BlockState::events) and start lowered.
#ifndef ASC_TWIN_EVENT_FLAGS_H_
#define ASC_TWIN_EVENT_FLAGS_H_

#include <cstdint>
#include <cstdio>

#include "asc_twin/trap.h"
#include "kernel_type.h"

namespace AscendC {
namespace twin {

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 1001
constexpr int32_t kEventIds = 4;
#else
constexpr int32_t kEventIds = 8;
#endif
constexpr int kPipes = 11;  // PIPE_S .. PIPE_FIX

struct EventFlags {
  uint64_t raised[(kPipes * kPipes * 8 + 63) / 64] = {};
};

struct HardEventInfo {
  const char* name;
  pipe_t src;
  pipe_t dst;
};

// HardEvent (in enum order) -> its name and pipe pair.
inline HardEventInfo EventInfo(HardEvent e) {
  static constexpr HardEventInfo kTable[] = {
      {"MTE2_MTE1", PIPE_MTE2, PIPE_MTE1},
      {"MTE1_MTE2", PIPE_MTE1, PIPE_MTE2},
      {"MTE1_M", PIPE_MTE1, PIPE_M},
      {"M_MTE1", PIPE_M, PIPE_MTE1},
      {"MTE2_V", PIPE_MTE2, PIPE_V},
      {"V_MTE2", PIPE_V, PIPE_MTE2},
      {"MTE3_V", PIPE_MTE3, PIPE_V},
      {"V_MTE3", PIPE_V, PIPE_MTE3},
      {"M_V", PIPE_M, PIPE_V},
      {"V_M", PIPE_V, PIPE_M},
      {"V_V", PIPE_V, PIPE_V},
      {"MTE3_MTE1", PIPE_MTE3, PIPE_MTE1},
      {"MTE1_MTE3", PIPE_MTE1, PIPE_MTE3},
      {"MTE1_V", PIPE_MTE1, PIPE_V},
      {"MTE2_M", PIPE_MTE2, PIPE_M},
      {"M_MTE2", PIPE_M, PIPE_MTE2},
      {"V_MTE1", PIPE_V, PIPE_MTE1},
      {"M_FIX", PIPE_M, PIPE_FIX},
      {"FIX_M", PIPE_FIX, PIPE_M},
      {"MTE3_MTE2", PIPE_MTE3, PIPE_MTE2},
      {"MTE2_MTE3", PIPE_MTE2, PIPE_MTE3},
      {"S_V", PIPE_S, PIPE_V},
      {"V_S", PIPE_V, PIPE_S},
      {"S_MTE2", PIPE_S, PIPE_MTE2},
      {"MTE2_S", PIPE_MTE2, PIPE_S},
      {"S_MTE3", PIPE_S, PIPE_MTE3},
      {"MTE3_S", PIPE_MTE3, PIPE_S},
      {"MTE2_FIX", PIPE_MTE2, PIPE_FIX},
      {"FIX_MTE2", PIPE_FIX, PIPE_MTE2},
      {"FIX_S", PIPE_FIX, PIPE_S},
      {"M_S", PIPE_M, PIPE_S},
      {"FIX_MTE3", PIPE_FIX, PIPE_MTE3},
      {"MTE1_FIX", PIPE_MTE1, PIPE_FIX},
      {"FIX_MTE1", PIPE_FIX, PIPE_MTE1},
      {"FIX_FIX", PIPE_FIX, PIPE_FIX},
  };
  const auto i = static_cast<uint32_t>(e);
  if (i >= sizeof(kTable) / sizeof(kTable[0])) RaiseTrap("SetFlag/WaitFlag: HardEvent %u is not an event", i);
  return kTable[i];
}

inline const char* PipeName(pipe_t p) {
  static constexpr const char* kNames[kPipes] = {"S",   "V",    "M",    "MTE1", "MTE2", "MTE3",
                                                 "ALL", "MTE4", "MTE5", "V2",   "FIX"};
  const auto i = static_cast<uint32_t>(p);
  return i < static_cast<uint32_t>(kPipes) ? kNames[i] : "?";
}

// One SetFlag/WaitFlag call: `what` is "SetFlag", "WaitFlag", "set_flag" or "wait_flag".
struct EventKey {
  const char* what;
  const char* event;  // HardEvent name, or "" for the builtins
  pipe_t src;
  pipe_t dst;
  int32_t id;
};

// "<what><HardEvent::<event>>: <cause>" (formatted only when trapping).
template <typename... A>
[[noreturn]] __attribute__((noinline, cold)) inline void EventTrap(const EventKey& k, const char* cause, A... args) {
  char api[64];
  if (*k.event) {
    std::snprintf(api, sizeof(api), "%s<HardEvent::%s>", k.what, k.event);
  } else {
    std::snprintf(api, sizeof(api), "%s", k.what);
  }
  char line[320];
  std::snprintf(line, sizeof(line), cause, args...);
  RaiseTrap("%s: %s", api, line);
}

inline uint32_t EventBit(const EventKey& k) {
  if (k.id < 0 || k.id >= kEventIds) EventTrap(k, "eventID %d is outside [0, %d]", k.id, kEventIds - 1);
  const auto s = static_cast<uint32_t>(k.src), d = static_cast<uint32_t>(k.dst);
  if (s >= static_cast<uint32_t>(kPipes) || d >= static_cast<uint32_t>(kPipes)) {
    EventTrap(k, "pipe %u -> %u is not a pipe pair", s, d);
  }
  return (s * kPipes + d) * 8u + static_cast<uint32_t>(k.id);
}

inline void RaiseEvent(EventFlags& f, const EventKey& k) {
  const uint32_t bit = EventBit(k);
  uint64_t& word = f.raised[bit / 64];
  if (word >> (bit % 64) & 1u) {
    EventTrap(k,
              "event %d (pipe %s -> %s) is already set and not yet waited for (a second SetFlag before its "
              "WaitFlag is undefined on the NPU)",
              k.id, PipeName(k.src), PipeName(k.dst));
  }
  word |= uint64_t{1} << (bit % 64);
}

inline void WaitEvent(EventFlags& f, const EventKey& k) {
  const uint32_t bit = EventBit(k);
  uint64_t& word = f.raised[bit / 64];
  if (!(word >> (bit % 64) & 1u)) {
    EventTrap(k, "event %d (pipe %s -> %s) was never set by a SetFlag: the NPU would wait here forever", k.id,
              PipeName(k.src), PipeName(k.dst));
  }
  word &= ~(uint64_t{1} << (bit % 64));
}

// At kernel end: traps on the first event still raised, naming how many there are.
inline void CheckNoEventRaised(const EventFlags& f) {
  uint64_t any = 0;  // every block ends here: one pass of ORs, the count and names only on a trap
  for (uint64_t word : f.raised) any |= word;
  if (__builtin_expect(any == 0, 1)) return;
  uint32_t count = 0, first = 0;
  for (uint32_t w = 0; w < sizeof(f.raised) / sizeof(f.raised[0]); ++w) {
    for (uint64_t bits = f.raised[w]; bits != 0; bits &= bits - 1) {
      if (count++ == 0) first = w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
    }
  }
  if (count == 0) return;
  const auto src = static_cast<pipe_t>(first / 8 / kPipes), dst = static_cast<pipe_t>(first / 8 % kPipes);
  const char* name = "";
  for (uint32_t e = 0; e < static_cast<uint32_t>(HardEvent::MAX); ++e) {
    const HardEventInfo info = EventInfo(static_cast<HardEvent>(e));
    if (info.src == src && info.dst == dst) name = info.name;
  }
  RaiseTrap(
      "kernel end: event %u (pipe %s -> %s%s%s) was set by SetFlag and never waited for by WaitFlag "
      "(%u event(s) left set)",
      first % 8, PipeName(src), PipeName(dst), *name ? ", HardEvent::" : "", name, count);
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_EVENT_FLAGS_H_
