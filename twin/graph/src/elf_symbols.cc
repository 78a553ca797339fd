#include "elf_symbols.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace ge_twin {
namespace {
// Largest .dynsym/.dynstr we read (a proto library's tables are far smaller).
constexpr uint64_t kMaxTableBytes = 256ull << 20;

class File {
 public:
  explicit File(const std::string &path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    struct stat st;
    if (fd_ >= 0 && ::fstat(fd_, &st) == 0) size_ = static_cast<uint64_t>(st.st_size);
  }
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File &) = delete;
  File &operator=(const File &) = delete;

  bool Read(uint64_t offset, uint64_t length, void *out) const {
    if (fd_ < 0 || offset > size_ || length > size_ - offset) return false;
    auto *p = static_cast<char *>(out);
    while (length > 0) {
      ssize_t n = ::pread(fd_, p, length, static_cast<off_t>(offset));
      if (n <= 0) return false;
      p += n;
      offset += static_cast<uint64_t>(n);
      length -= static_cast<uint64_t>(n);
    }
    return true;
  }

 private:
  int fd_;
  uint64_t size_ = 0;
};

template <typename Ehdr, typename Shdr, typename Sym>
bool Scan(const File &file, const std::string &needle, std::vector<std::string> *names) {
  Ehdr eh;
  if (!file.Read(0, sizeof(eh), &eh) || eh.e_shentsize != sizeof(Shdr) || eh.e_shnum == 0) return false;
  std::vector<Shdr> sections(eh.e_shnum);
  if (!file.Read(eh.e_shoff, sizeof(Shdr) * sections.size(), sections.data())) return false;
  for (const Shdr &sh : sections) {
    if (sh.sh_type != SHT_DYNSYM) continue;
    if (sh.sh_link >= sections.size() || sh.sh_entsize != sizeof(Sym) || sh.sh_size > kMaxTableBytes) return false;
    const Shdr &strtab = sections[sh.sh_link];
    if (strtab.sh_size > kMaxTableBytes) return false;
    std::string strings(strtab.sh_size, '\0');
    std::vector<Sym> symbols(sh.sh_size / sizeof(Sym));
    if (!file.Read(strtab.sh_offset, strings.size(), &strings[0]) ||
        !file.Read(sh.sh_offset, sizeof(Sym) * symbols.size(), symbols.data())) {
      return false;
    }
    for (const Sym &sym : symbols) {
      if (sym.st_shndx != SHN_UNDEF || sym.st_name >= strings.size()) continue;
      std::string name(strings.c_str() + sym.st_name);  // strtab entries are NUL-terminated
      if (name.find(needle) != std::string::npos) names->push_back(name);
    }
    return true;
  }
  return true;  // no .dynsym: nothing undefined
}
}  // namespace

bool UndefinedDynamicSymbols(const std::string &path, const std::string &needle, std::vector<std::string> *names) {
  names->clear();
  File file(path);
  unsigned char ident[EI_NIDENT];
  if (!file.Read(0, sizeof(ident), ident) || std::memcmp(ident, ELFMAG, SELFMAG) != 0) return false;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (ident[EI_DATA] != ELFDATA2LSB) return false;
#else
  if (ident[EI_DATA] != ELFDATA2MSB) return false;
#endif
  bool ok = false;
  if (ident[EI_CLASS] == ELFCLASS64) ok = Scan<Elf64_Ehdr, Elf64_Shdr, Elf64_Sym>(file, needle, names);
  if (ident[EI_CLASS] == ELFCLASS32) ok = Scan<Elf32_Ehdr, Elf32_Shdr, Elf32_Sym>(file, needle, names);
  if (!ok) names->clear();
  return ok;
}
}  // namespace ge_twin
