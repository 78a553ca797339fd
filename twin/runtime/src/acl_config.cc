#include "twin/runtime/src/acl_config.h"

#include <cctype>
#include <cstdint>
#include <vector>

#include "acl/acl_base.h"
#include "twin/common/file/regular_file.h"

namespace asc_twin::rt {
namespace {

// A strict JSON syntax check (no values kept: the twin uses none).
class JsonChecker {
 public:
  explicit JsonChecker(const std::string &text) : text_(text) {}

  bool Document(std::string *where) {
    Space();
    if (Peek() != '{') return Fail("the top level is not a JSON object", where);
    if (!Value(0)) return Fail(error_, where);
    Space();
    if (pos_ != text_.size()) return Fail("unexpected text after the JSON object", where);
    return true;
  }

 private:
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void Space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Error(const char *what) {
    error_ = what;
    return false;
  }
  bool Fail(const std::string &what, std::string *where) {
    *where = what + " (at byte " + std::to_string(pos_) + ")";
    return false;
  }
  bool Literal(const char *word) {
    for (const char *c = word; *c != '\0'; ++c, ++pos_) {
      if (Peek() != *c) return Error("invalid literal");
    }
    return true;
  }
  bool String() {
    ++pos_;  // the opening quote
    while (pos_ < text_.size()) {
      const unsigned char c = static_cast<unsigned char>(text_[pos_++]);
      if (c == '"') return true;
      if (c < 0x20) return Error("control character in a string");
      if (c == '\\') {
        const char e = Peek();
        ++pos_;
        if (e == 'u') {
          for (int i = 0; i < 4; ++i, ++pos_) {
            if (!std::isxdigit(static_cast<unsigned char>(Peek()))) return Error("bad \\u escape");
          }
        } else if (std::string("\"\\/bfnrt").find(e) == std::string::npos || e == '\0') {
          return Error("bad escape in a string");
        }
      }
    }
    return Error("unterminated string");
  }
  bool Digits() {
    const size_t start = pos_;
    while (std::isdigit(static_cast<unsigned char>(Peek()))) ++pos_;
    return pos_ > start;
  }
  bool Number() {
    if (Peek() == '-') ++pos_;
    if (Peek() == '0') {
      ++pos_;
    } else if (!Digits()) {
      return Error("invalid number");
    }
    if (Peek() == '.') {
      ++pos_;
      if (!Digits()) return Error("invalid number");
    }
    if (Peek() == 'e' || Peek() == 'E') {
      ++pos_;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      if (!Digits()) return Error("invalid number");
    }
    return true;
  }
  bool Value(int depth) {
    if (depth > 64) return Error("nested deeper than 64 levels");
    Space();
    const char c = Peek();
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++pos_;
      Space();
      if (Peek() == close) {
        ++pos_;
        return true;
      }
      for (;;) {
        if (c == '{') {
          Space();
          if (Peek() != '"') return Error("expected a string key");
          if (!String()) return false;
          Space();
          if (Peek() != ':') return Error("expected ':' after a key");
          ++pos_;
        }
        if (!Value(depth + 1)) return false;
        Space();
        if (Peek() == ',') {
          ++pos_;
          continue;
        }
        if (Peek() == close) {
          ++pos_;
          return true;
        }
        return Error(c == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
      }
    }
    if (c == '"') return String();
    if (c == 't') return Literal("true");
    if (c == 'f') return Literal("false");
    if (c == 'n') return Literal("null");
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) return Number();
    return Error(c == '\0' ? "unexpected end of text" : "unexpected character");
  }

  const std::string &text_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

bool IsJsonObject(const std::string &text, std::string *where) { return JsonChecker(text).Document(where); }

Status CheckAclConfig(const char *path) {
  if (path == nullptr || *path == '\0') return Status::Ok();
  const std::string what = std::string("aclInit: config file '") + path + "'";
  asc_twin::file::RegularFile file;
  std::string cause;
  if (!file.Open(path, &cause)) return Status(ACL_ERROR_INVALID_FILE, what + " " + cause);
  if (file.size() > kMaxAclConfigBytes) {
    return Status(ACL_ERROR_INVALID_FILE_SIZE, what + " is " + std::to_string(file.size()) +
                                                   " bytes, more than a config file may be (" +
                                                   std::to_string(kMaxAclConfigBytes) + ")");
  }
  if (file.size() == 0) return Status::Ok();  // an empty config configures nothing
  std::vector<uint8_t> bytes;
  if (!file.ReadAt(0, static_cast<size_t>(file.size()), &bytes, &cause)) {
    return Status(ACL_ERROR_INVALID_FILE, what + " " + cause);
  }
  std::string where;
  if (!IsJsonObject(std::string(bytes.begin(), bytes.end()), &where)) {
    return Status(ACL_ERROR_PARSE_FILE, what + " is not valid JSON: " + where);
  }
  return Status::Ok();
}

}  // namespace asc_twin::rt
