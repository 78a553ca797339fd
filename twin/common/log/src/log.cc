// Composing a line and choosing where it goes (rules in log.h).
#include "twin/common/log/log.h"

#include <sys/time.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

#include "twin/common/log/src/log_internal.h"

namespace ascend_twin::log {
namespace {

const char *LevelTag(Level level) {
  switch (level) {
    case Level::kDebug:
      return "DEBUG";
    case Level::kInfo:
      return "INFO";
    case Level::kWarning:
      return "WARNING";
    case Level::kEvent:
      return "EVENT";
    default:
      return "ERROR";
  }
}

// yyyy-mm-dd-hh:mm:ss.fff.zzz (milliseconds, microseconds), local time.
std::string Now() {
  struct timeval now;
  gettimeofday(&now, nullptr);
  struct tm local;
  localtime_r(&now.tv_sec, &local);
  char text[40];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld", local.tm_year + 1900, local.tm_mon + 1,
                local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, static_cast<long>(now.tv_usec / 1000),
                static_cast<long>(now.tv_usec % 1000));
  return text;
}

const char *BaseName(const char *path) {
  if (path == nullptr) return "unknown";
  const char *slash = std::strrchr(path, '/');
  return slash == nullptr ? path : slash + 1;
}

std::string OneLine(const std::string &message) {
  size_t end = message.size();
  while (end > 0 && (message[end - 1] == '\n' || message[end - 1] == ' ')) --end;
  return Printable(message.substr(0, end));
}

}  // namespace

std::string Printable(const std::string &text) {
  // A line is read by people: a message longer than kMaxMessageChars (a crafted node name, a
  // dumped buffer) keeps its head and tail and says how much was left out.
  if (text.size() > kMaxMessageChars) {
    const size_t head = kMaxMessageChars * 3 / 4, tail = kMaxMessageChars / 8;
    return Printable(text.substr(0, head)) + " ...[" + std::to_string(text.size() - head - tail) +
           " bytes omitted]... " + Printable(text.substr(text.size() - tail));
  }
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

bool Enabled(Level level, const char *module) {
  if (level == Level::kEvent) return internal::ProgramEvents(internal::EventsEnabled());
  const int threshold = internal::ThresholdFor(module);
  return threshold < 4 && static_cast<int>(level) >= threshold;
}

void Write(Level level, const char *module, const char *file, int line, const std::string &message) {
  if (!Enabled(level, module)) return;
  const internal::ProcessInfo &self = internal::Self();
  const std::string text = std::string("[") + LevelTag(level) + "] " + (module ? module : "UNKNOWN") + "(" +
                           std::to_string(self.pid) + "," + self.name + "):" + Now() + " [" + BaseName(file) + ":" +
                           std::to_string(line) + "]" + std::to_string(internal::ThreadId()) + " " + OneLine(message) +
                           "\n";
  if (internal::PrintToStdout()) {
    internal::WriteToStdout(text);
    return;
  }
  const std::string relative = level == Level::kEvent ? internal::RunFileRelative() : internal::DebugFileRelative();
  internal::AppendToFile(LogRoot() + "/" + relative, text);
}

void Writef(Level level, const char *module, const char *file, int line, const char *format, ...) {
  if (format == nullptr || !Enabled(level, module)) return;
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int needed = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string message(needed > 0 ? static_cast<size_t>(needed) : 0, '\0');
  if (needed > 0) std::vsnprintf(&message[0], message.size() + 1, format, args);
  va_end(args);
  Write(level, module, file, line, message);
}

}  // namespace ascend_twin::log
