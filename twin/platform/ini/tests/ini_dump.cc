// Test helper: reads one file with the C++ ini reader and prints what it holds, one
// "<section>\t<key>\t<value>" line each (sorted), or "error\t<message>" with exit status 1, so
// test_ini_readers.py can compare the C++ and Python readers on the same bytes.
#include <cstdio>
#include <string>

#include "twin/platform/ini/ini_file.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: ini_dump FILE\n");
    return 2;
  }
  ascend_twin::IniSections sections;
  std::string error;
  if (!ascend_twin::ReadIniFile(argv[1], &sections, &error)) {
    std::printf("error\t%s\n", error.c_str());
    return 1;
  }
  for (const auto &section : sections) {
    for (const auto &entry : section.second) {
      std::printf("%s\t%s\t%s\n", section.first.c_str(), entry.first.c_str(), entry.second.c_str());
    }
  }
  return 0;
}
