#include "twin/platform/ini/ini_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ascend_twin {
namespace {
std::string Trim(const std::string &s) {
  const size_t b = s.find_first_not_of(" \t\r");
  const size_t e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Printable and bounded, so an error about a binary or huge line stays one short line.
std::string Shown(const std::string &line) {
  std::string out;
  for (char c : line.substr(0, 60)) out += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
  return line.size() > 60 ? out + "..." : out;
}
}  // namespace

bool ParseIni(const std::string &text, const std::string &source, IniSections *out, std::string *error) {
  IniSections sections;
  std::string section;
  std::istringstream in(text);
  std::string raw;
  for (int number = 1; std::getline(in, raw); ++number) {
    const std::string where = source + ":" + std::to_string(number) + ": ";
    const std::string line = Trim(raw);
    if (line.empty() || line[0] == ';' || line[0] == '#') continue;
    if (line[0] == '[') {
      if (line.back() != ']') {
        *error = where + "section header '" + Shown(line) + "' does not end with ']'";
        return false;
      }
      section = Trim(line.substr(1, line.size() - 2));
      if (section.empty()) {
        *error = where + "empty section name";
        return false;
      }
      if (!sections.emplace(section, std::map<std::string, std::string>()).second) {
        *error = std::string(where).append("section [").append(section).append("] appears twice");
        return false;
      }
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string::npos) {
      *error = where + "expected '[section]' or 'key=value', got '" + Shown(line) + "'";
      return false;
    }
    const std::string key = Trim(line.substr(0, eq));
    if (key.empty()) {
      *error = where + "'" + Shown(line) + "' has no key before '='";
      return false;
    }
    if (!sections[section].emplace(key, Trim(line.substr(eq + 1))).second) {
      *error = std::string(where)
                   .append("key '")
                   .append(key)
                   .append("' appears twice in ")
                   .append(section.empty() ? "the file" : "[" + section + "]");
      return false;
    }
  }
  *out = std::move(sections);
  return true;
}

bool ReadIniFile(const std::string &path, IniSections *out, std::string *error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    *error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  return ParseIni(text.str(), path, out, error);
}
}  // namespace ascend_twin
