// The JSON subset gen_esb reads: the graph library's GeTwinGraphListOpProtos answer.
#ifndef TWIN_ES_GEN_ESB_JSON_VALUE_H_
#define TWIN_ES_GEN_ESB_JSON_VALUE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gen_esb {
struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  bool integral = false;  // written without fraction or exponent
  int64_t integer = 0;
  std::string text;       // a string, or a number's source text
  std::vector<JsonValue> items;
  std::map<std::string, JsonValue> members;

  const JsonValue *Find(const std::string &key) const;
  const std::string &Str(const std::string &key) const;  // "" if absent or not a string
};

// Parses text; on failure returns false and sets *error to "<cause> at offset <n>".
bool ParseJson(const std::string &text, JsonValue *out, std::string *error);
}  // namespace gen_esb

#endif  // TWIN_ES_GEN_ESB_JSON_VALUE_H_
