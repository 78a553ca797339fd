#include "json.h"

#include <cerrno>
#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>

namespace ge_twin {
namespace json {
Value Value::Bool(bool b) {
  Value v;
  v.kind_ = Kind::kBool;
  v.bool_ = b;
  return v;
}
Value Value::Int(int64_t i) {
  Value v;
  v.kind_ = Kind::kNumber;
  v.is_integer_ = true;
  v.int_ = i;
  v.number_ = static_cast<double>(i);
  return v;
}
Value Value::Number(double d) {
  Value v;
  v.kind_ = Kind::kNumber;
  v.number_ = d;
  return v;
}
Value Value::String(std::string s) {
  Value v;
  v.kind_ = Kind::kString;
  v.string_ = std::move(s);
  return v;
}
Value Value::Array() {
  Value v;
  v.kind_ = Kind::kArray;
  return v;
}
Value Value::Object() {
  Value v;
  v.kind_ = Kind::kObject;
  return v;
}

const Value *Value::Find(const std::string &key) const {
  for (const auto &m : members_) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

Value &Value::Append(Value v) {
  items_.push_back(std::move(v));
  return *this;
}

Value &Value::Set(const std::string &key, Value v) {
  for (auto &m : members_) {
    if (m.first == key) {
      m.second = std::move(v);
      return *this;
    }
  }
  members_.emplace_back(key, std::move(v));
  return *this;
}

namespace {
void DumpString(const std::string &s, std::string *out) {
  out->push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          *out += buf;
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

void DumpTo(const Value &v, std::string *out) {
  switch (v.kind()) {
    case Value::Kind::kNull: *out += "null"; break;
    case Value::Kind::kBool: *out += v.AsBool() ? "true" : "false"; break;
    case Value::Kind::kNumber:
      if (v.IsInteger()) {
        *out += std::to_string(v.AsInt());
      } else if (std::isnan(v.AsDouble())) {
        *out += "NaN";  // JSON has no NaN/Inf: the tokens Python's json module reads and writes
      } else if (std::isinf(v.AsDouble())) {
        *out += v.AsDouble() > 0 ? "Infinity" : "-Infinity";
      } else {
        char buf[40];
        std::snprintf(buf, sizeof(buf), "%.9g", v.AsDouble());
        *out += buf;
      }
      break;
    case Value::Kind::kString: DumpString(v.AsString(), out); break;
    case Value::Kind::kArray: {
      out->push_back('[');
      bool first = true;
      for (const auto &item : v.Items()) {
        if (!first) out->push_back(',');
        first = false;
        DumpTo(item, out);
      }
      out->push_back(']');
      break;
    }
    case Value::Kind::kObject: {
      out->push_back('{');
      bool first = true;
      for (const auto &m : v.Members()) {
        if (!first) out->push_back(',');
        first = false;
        DumpString(m.first, out);
        out->push_back(':');
        DumpTo(m.second, out);
      }
      out->push_back('}');
      break;
    }
  }
}
}  // namespace

std::string Value::Dump() const {
  std::string out;
  DumpTo(*this, &out);
  return out;
}

class Parser {
 public:
  explicit Parser(const std::string &text) : text_(text) {}

  bool ParseDocument(Value *out, std::string *error) {
    if (!ParseValue(out, 0)) {
      *error = error_;
      return false;
    }
    SkipSpace();
    if (pos_ != text_.size()) {
      *error = "unexpected text after the JSON value at offset " + std::to_string(pos_);
      return false;
    }
    return true;
  }

 private:
  static constexpr int kMaxDepth = 64;

  bool Fail(const std::string &what) {
    if (error_.empty()) error_ = what + " at offset " + std::to_string(pos_);
    return false;
  }
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool Consume(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (text_.compare(pos_, n, word) != 0) return false;
    pos_ += n;
    return true;
  }

  bool ParseValue(Value *out, int depth) {
    if (depth > kMaxDepth) return Fail("JSON nested too deeply");
    SkipSpace();
    if (pos_ >= text_.size()) return Fail("unexpected end of JSON");
    char c = text_[pos_];
    if (c == '{') return ParseObject(out, depth);
    if (c == '[') return ParseArray(out, depth);
    if (c == '"') {
      std::string s;
      if (!ParseString(&s)) return false;
      *out = Value::String(std::move(s));
      return true;
    }
    if (Consume("true")) { *out = Value::Bool(true); return true; }
    if (Consume("false")) { *out = Value::Bool(false); return true; }
    if (Consume("null")) { *out = Value(); return true; }
    // Non-finite numbers as Python's json module writes them (json.dumps(float("inf"))).
    if (Consume("NaN")) { *out = Value::Number(std::numeric_limits<double>::quiet_NaN()); return true; }
    if (Consume("Infinity")) { *out = Value::Number(std::numeric_limits<double>::infinity()); return true; }
    if (Consume("-Infinity")) { *out = Value::Number(-std::numeric_limits<double>::infinity()); return true; }
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
    return Fail(std::string("unexpected character '") + c + "'");
  }

  bool ParseNumber(Value *out) {
    size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    bool integer = true;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c >= '0' && c <= '9') {
        ++pos_;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integer = false;
        ++pos_;
      } else {
        break;
      }
    }
    std::string token = text_.substr(start, pos_ - start);
    if (token == "-" || token.empty()) return Fail("malformed number");
    errno = 0;
    char *end = nullptr;
    if (integer) {
      long long v = std::strtoll(token.c_str(), &end, 10);
      if (errno == 0 && end != nullptr && *end == '\0') {
        *out = Value::Int(v);
        return true;
      }
      errno = 0;
    }
    double d = std::strtod(token.c_str(), &end);
    if (end == nullptr || *end != '\0' || errno == ERANGE) return Fail("malformed number '" + token + "'");
    *out = Value::Number(d);
    return true;
  }

  static void AppendUtf8(uint32_t cp, std::string *s) {
    if (cp < 0x80) {
      s->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      s->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      s->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      s->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  bool ParseHex4(uint32_t *cp) {
    if (pos_ + 4 > text_.size()) return Fail("truncated \\u escape");
    *cp = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      *cp <<= 4;
      if (h >= '0' && h <= '9') *cp |= static_cast<uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') *cp |= static_cast<uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') *cp |= static_cast<uint32_t>(h - 'A' + 10);
      else return Fail("bad \\u escape");
    }
    return true;
  }

  bool ParseString(std::string *s) {
    ++pos_;  // opening quote
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return Fail("control character in string");
      if (c != '\\') {
        s->push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) break;
      char e = text_[pos_++];
      switch (e) {
        case '"': s->push_back('"'); break;
        case '\\': s->push_back('\\'); break;
        case '/': s->push_back('/'); break;
        case 'b': s->push_back('\b'); break;
        case 'f': s->push_back('\f'); break;
        case 'n': s->push_back('\n'); break;
        case 'r': s->push_back('\r'); break;
        case 't': s->push_back('\t'); break;
        case 'u': {
          uint32_t cp = 0;
          if (!ParseHex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && text_.compare(pos_, 2, "\\u") == 0) {
            pos_ += 2;
            uint32_t low = 0;
            if (!ParseHex4(&low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) return Fail("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(cp, s);
          break;
        }
        default: return Fail("bad escape in string");
      }
    }
    return Fail("unterminated string");
  }

  bool ParseArray(Value *out, int depth) {
    ++pos_;
    *out = Value::Array();
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      Value item;
      if (!ParseValue(&item, depth + 1)) return false;
      out->Append(std::move(item));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return Fail("expected ',' or ']'");
    }
  }

  bool ParseObject(Value *out, int depth) {
    ++pos_;
    *out = Value::Object();
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Fail("expected an object key");
      std::string key;
      if (!ParseString(&key)) return false;
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':') return Fail("expected ':'");
      ++pos_;
      Value item;
      if (!ParseValue(&item, depth + 1)) return false;
      if (out->Find(key) != nullptr) return Fail("duplicate key '" + key + "'");
      out->Set(key, std::move(item));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return Fail("expected ',' or '}'");
    }
  }

  const std::string &text_;
  size_t pos_ = 0;
  std::string error_;
};

bool Parse(const std::string &text, Value *out, std::string *error) {
  Parser parser(text);
  return parser.ParseDocument(out, error);
}
}  // namespace json
}  // namespace ge_twin
