// Reads the undefined dynamic symbols of an ELF shared object without loading it (so nothing in
// a library that is about to be refused runs).
#ifndef GE_TWIN_GRAPH_SRC_ELF_SYMBOLS_H_
#define GE_TWIN_GRAPH_SRC_ELF_SYMBOLS_H_

#include <string>
#include <vector>

namespace ge_twin {
// The names of the undefined symbols in .dynsym that contain `needle`. Returns false (and leaves
// `names` empty) for anything that is not a readable, well-formed native-endian ELF file with
// section headers; callers then fall back to what dlopen reports.
bool UndefinedDynamicSymbols(const std::string &path, const std::string &needle, std::vector<std::string> *names);
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_ELF_SYMBOLS_H_
