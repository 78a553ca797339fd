// The one reader of the twin's .ini files, for C++: SoC platform configs (<SoC>.ini) and the OPP
// vendors config (vendors/config.ini). ascend_ini.py is the Python reader of the same format;
// the format and its errors are described in twin/platform/README.md ("The ini format").
#ifndef TWIN_PLATFORM_INI_INI_FILE_H_
#define TWIN_PLATFORM_INI_INI_FILE_H_

#include <map>
#include <string>

namespace ascend_twin {
// section -> key -> value. Keys before any [section] line belong to the section "".
using IniSections = std::map<std::string, std::map<std::string, std::string>>;

// Parses ini text; false with *error = "<source>:<line>: <what is wrong>" (one line).
bool ParseIni(const std::string &text, const std::string &source, IniSections *out, std::string *error);

// Reads and parses a file; false with a one-line *error naming the file (unreadable or malformed).
bool ReadIniFile(const std::string &path, IniSections *out, std::string *error);
}  // namespace ascend_twin

#endif  // TWIN_PLATFORM_INI_INI_FILE_H_
