// A small JSON value, parser and writer for the C ABI (no external dependency).
#ifndef GE_TWIN_GRAPH_SRC_JSON_H_
#define GE_TWIN_GRAPH_SRC_JSON_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ge_twin {
namespace json {
class Value {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  Value() = default;
  static Value Bool(bool b);
  static Value Int(int64_t i);
  static Value Number(double d);
  static Value String(std::string s);
  static Value Array();
  static Value Object();

  Kind kind() const { return kind_; }
  bool IsNull() const { return kind_ == Kind::kNull; }
  bool IsBool() const { return kind_ == Kind::kBool; }
  bool IsNumber() const { return kind_ == Kind::kNumber; }
  bool IsString() const { return kind_ == Kind::kString; }
  bool IsArray() const { return kind_ == Kind::kArray; }
  bool IsObject() const { return kind_ == Kind::kObject; }
  // True if the number was written without fraction/exponent and fits int64.
  bool IsInteger() const { return kind_ == Kind::kNumber && is_integer_; }

  bool AsBool() const { return bool_; }
  int64_t AsInt() const { return int_; }
  double AsDouble() const { return number_; }
  const std::string &AsString() const { return string_; }
  const std::vector<Value> &Items() const { return items_; }
  const std::vector<std::pair<std::string, Value>> &Members() const { return members_; }
  const Value *Find(const std::string &key) const;

  Value &Append(Value v);
  Value &Set(const std::string &key, Value v);  // keeps insertion order

  std::string Dump() const;

 private:
  friend class Parser;
  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  bool is_integer_ = false;
  int64_t int_ = 0;
  double number_ = 0;
  std::string string_;
  std::vector<Value> items_;
  std::vector<std::pair<std::string, Value>> members_;
};

// Parses one JSON document; on failure returns false with a message naming the offset.
bool Parse(const std::string &text, Value *out, std::string *error);
}  // namespace json
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_JSON_H_
