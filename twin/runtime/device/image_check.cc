#include "twin/runtime/device/image_check.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "asc_twin/aicore_abi.h"

namespace asc_twin::rt {
namespace {

constexpr uint64_t kMaxSpan = uint64_t{1} << 30;  // a kernel image mapping more than 1 GiB is not one

Status Bad(const std::string &what) { return Status(ACL_ERROR_INVALID_PARAM, "invalid kernel binary: " + what); }

bool InFile(uint64_t offset, uint64_t size, size_t length) { return offset <= length && size <= length - offset; }

struct Image {
  const uint8_t *data;
  size_t length;
  std::vector<Elf64_Phdr> loads;
  // File offset of [vaddr, vaddr + size) if it lies in one PT_LOAD's file bytes.
  bool Offset(uint64_t vaddr, uint64_t size, uint64_t *offset) const {
    for (const Elf64_Phdr &ph : loads) {
      if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr <= ph.p_filesz && size <= ph.p_filesz - (vaddr - ph.p_vaddr)) {
        *offset = ph.p_offset + (vaddr - ph.p_vaddr);
        return true;
      }
    }
    return false;
  }
};

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

const std::vector<std::string> &AllowedNeededLibraries() {
  static const std::vector<std::string> allowed = {
      "libc.so.6",       "libm.so.6",  "libstdc++.so.6",       "libgcc_s.so.1",
      "libpthread.so.0", "libdl.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"};
  return allowed;
}

Status CheckDeviceImage(const uint8_t *data, size_t length, const std::vector<std::string> &kernels) {
  if (length < sizeof(Elf64_Ehdr)) return Bad("truncated ELF header");
  Elf64_Ehdr eh;
  std::memcpy(&eh, data, sizeof(eh));
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) return Bad("not ELF64");
  if (eh.e_type != ET_DYN) return Bad("the device image is not a shared object (ET_DYN)");
  if (eh.e_ehsize != sizeof(Elf64_Ehdr)) return Bad("bad ELF header size " + std::to_string(eh.e_ehsize));
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum >= PN_XNUM) {
    return Bad("no usable program header table");
  }
  if (!InFile(eh.e_phoff, uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr), length)) {
    return Bad("program header table outside the file");
  }
  Image image{data, length, {}};
  const Elf64_Phdr *dynamic = nullptr;
  std::vector<Elf64_Phdr> headers(eh.e_phnum);
  std::memcpy(headers.data(), data + eh.e_phoff, headers.size() * sizeof(Elf64_Phdr));
  uint64_t last_end = 0;
  bool first_load = true;
  for (size_t i = 0; i < headers.size(); ++i) {
    const Elf64_Phdr &ph = headers[i];
    const std::string where = "program header " + std::to_string(i);
    switch (ph.p_type) {
      case PT_LOAD: {
        if (!InFile(ph.p_offset, ph.p_filesz, length)) return Bad(where + " (PT_LOAD) reaches past the file");
        if (ph.p_filesz > ph.p_memsz) return Bad(where + " has p_filesz > p_memsz");
        if (ph.p_align == 0 || (ph.p_align & (ph.p_align - 1)) != 0 || ph.p_align > (uint64_t{1} << 21)) {
          return Bad(where + " has alignment " + Hex(ph.p_align));
        }
        if (ph.p_vaddr % ph.p_align != ph.p_offset % ph.p_align) return Bad(where + " is misaligned");
        if (ph.p_memsz > kMaxSpan || ph.p_vaddr > kMaxSpan || ph.p_vaddr + ph.p_memsz > kMaxSpan) {
          return Bad(where + " maps beyond 1 GiB");
        }
        if (!first_load && ph.p_vaddr < last_end) return Bad(where + " overlaps or precedes the previous PT_LOAD");
        if ((ph.p_flags & PF_W) && (ph.p_flags & PF_X)) return Bad(where + " is writable and executable");
        first_load = false;
        last_end = ph.p_vaddr + ph.p_memsz;
        image.loads.push_back(ph);
        break;
      }
      case PT_DYNAMIC:
        if (dynamic != nullptr) return Bad("more than one PT_DYNAMIC");
        dynamic = &headers[i];
        break;
      case PT_INTERP:
        return Bad("has a PT_INTERP (a program, not a kernel image)");
      case PT_GNU_STACK:
        if (ph.p_flags & PF_X) return Bad("asks for an executable stack");
        break;
      case PT_TLS:
        if (!InFile(ph.p_offset, ph.p_filesz, length) || ph.p_filesz > ph.p_memsz || ph.p_memsz > (uint64_t{1} << 24)) {
          return Bad(where + " (PT_TLS) is malformed");
        }
        break;
      default:  // PT_NOTE, PT_PHDR, PT_GNU_EH_FRAME, PT_GNU_RELRO, PT_GNU_PROPERTY, ...: data only
        break;
    }
  }
  if (image.loads.empty()) return Bad("has no PT_LOAD segment");
  if (dynamic == nullptr) return Bad("has no PT_DYNAMIC");
  uint64_t dyn_offset = 0;
  if (dynamic->p_filesz % sizeof(Elf64_Dyn) != 0 || dynamic->p_filesz == 0 ||
      !image.Offset(dynamic->p_vaddr, dynamic->p_filesz, &dyn_offset) || dyn_offset != dynamic->p_offset) {
    return Bad("PT_DYNAMIC is not inside a loaded segment");
  }
  std::vector<Elf64_Dyn> dyn(dynamic->p_filesz / sizeof(Elf64_Dyn));
  std::memcpy(dyn.data(), data + dyn_offset, dynamic->p_filesz);
  uint64_t strtab = 0, strsz = 0;
  bool has_strtab = false, terminated = false;
  // Tables the loader walks: (address tag, size tag, entry size) must lie inside a segment.
  std::map<int64_t, uint64_t> values;
  std::vector<uint64_t> needed;
  for (const Elf64_Dyn &d : dyn) {
    if (d.d_tag == DT_NULL) {
      terminated = true;
      break;
    }
    if (d.d_tag >= 0 && d.d_tag < DT_NUM) values[d.d_tag] = d.d_un.d_val;
    switch (d.d_tag) {
      case DT_NEEDED:
        needed.push_back(d.d_un.d_val);
        break;
      case DT_REL:
      case DT_RELSZ:
        return Bad("has REL relocations (x86-64 images use RELA)");
      case DT_PLTREL:
        if (d.d_un.d_val != DT_RELA) return Bad("DT_PLTREL is not DT_RELA");
        break;
      case DT_RELAENT:
        if (d.d_un.d_val != sizeof(Elf64_Rela)) return Bad("DT_RELAENT is not " + std::to_string(sizeof(Elf64_Rela)));
        break;
      case DT_SYMENT:
        if (d.d_un.d_val != sizeof(Elf64_Sym)) return Bad("DT_SYMENT is not " + std::to_string(sizeof(Elf64_Sym)));
        break;
      case DT_STRTAB:
        strtab = d.d_un.d_ptr;
        has_strtab = true;
        break;
      case DT_STRSZ:
        strsz = d.d_un.d_val;
        break;
      case DT_INIT:
        return Bad("has DT_INIT: a kernel image may not run code when loaded");
      case DT_FINI:
        return Bad("has DT_FINI: a kernel image may not run code when unloaded");
      case DT_INIT_ARRAY:
      case DT_PREINIT_ARRAY:
        return Bad("has constructors (DT_INIT_ARRAY/DT_PREINIT_ARRAY): a kernel image may not run code when loaded");
      case DT_FINI_ARRAY:
        return Bad("has destructors (DT_FINI_ARRAY)");
      case DT_INIT_ARRAYSZ:
      case DT_FINI_ARRAYSZ:
      case DT_PREINIT_ARRAYSZ:
        if (d.d_un.d_val != 0) return Bad("has constructors or destructors");
        break;
      case DT_TEXTREL:
        return Bad("has text relocations (DT_TEXTREL)");
      case DT_FLAGS:
        if (d.d_un.d_val & DF_TEXTREL) return Bad("has text relocations (DF_TEXTREL)");
        break;
      case DT_RPATH:
      case DT_RUNPATH:
        return Bad("has a library search path (DT_RPATH/DT_RUNPATH)");
      case DT_AUDIT:
      case DT_DEPAUDIT:
        return Bad("names an audit library (DT_AUDIT)");
      case DT_FILTER:
      case DT_AUXILIARY:
        return Bad("is a filter library (DT_FILTER/DT_AUXILIARY)");
      default:
        break;
    }
  }
  if (!terminated) return Bad("the dynamic section has no DT_NULL");
  const struct {
    int64_t address, size;
    const char *what;
  } tables[] = {{DT_RELA, DT_RELASZ, "DT_RELA"}, {DT_JMPREL, DT_PLTRELSZ, "DT_JMPREL"}};
  for (const auto &table : tables) {
    const bool has_address = values.count(table.address) != 0, has_size = values.count(table.size) != 0;
    if (has_address != has_size) return Bad(std::string(table.what) + " without its size (or a size without it)");
    uint64_t at = 0;
    if (has_address && values[table.size] != 0 &&
        (values[table.size] % sizeof(Elf64_Rela) != 0 ||
         !image.Offset(values[table.address], values[table.size], &at))) {
      return Bad(std::string(table.what) + " is not inside a loaded segment");
    }
  }
  for (const int64_t tag : {DT_SYMTAB, DT_HASH}) {
    uint64_t at = 0;
    if (values.count(tag) != 0 && !image.Offset(values[tag], 1, &at)) {
      return Bad("a dynamic table (tag " + std::to_string(tag) + ") is not inside a loaded segment");
    }
  }
  if (!needed.empty() || has_strtab) {
    uint64_t str_offset = 0;
    if (!has_strtab || strsz == 0 || !image.Offset(strtab, strsz, &str_offset)) {
      return Bad("DT_STRTAB/DT_STRSZ are not inside a loaded segment");
    }
    const std::vector<std::string> &allowed = AllowedNeededLibraries();
    for (uint64_t name_at : needed) {
      if (name_at >= strsz) return Bad("a DT_NEEDED name is outside DT_STRTAB");
      const char *name = reinterpret_cast<const char *>(data + str_offset + name_at);
      const std::string lib(name, strnlen(name, strsz - name_at));
      if (lib.size() == strsz - name_at) return Bad("a DT_NEEDED name is not terminated");
      if (std::find(allowed.begin(), allowed.end(), lib) == allowed.end()) {
        std::string list;
        for (const std::string &a : allowed) list.append(list.empty() ? "" : ", ").append(a);
        return Bad(
            std::string("needs '").append(lib).append("', which is not an allowed library (").append(list).append(")"));
      }
    }
  }
  // Entry and info symbols, from the section headers' .dynsym/.dynstr.
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
      !InFile(eh.e_shoff, uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr), length)) {
    return Bad("no usable section header table");
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  std::memcpy(sections.data(), data + eh.e_shoff, sections.size() * sizeof(Elf64_Shdr));
  std::set<std::string> defined;
  const Elf64_Shdr *dynsym = nullptr;
  for (const Elf64_Shdr &sh : sections) {
    if (sh.sh_type != SHT_DYNSYM) continue;
    if (dynsym != nullptr) return Bad("more than one .dynsym");
    dynsym = &sh;
    if (sh.sh_entsize != sizeof(Elf64_Sym) || !InFile(sh.sh_offset, sh.sh_size, length) ||
        sh.sh_link >= sections.size()) {
      return Bad(".dynsym is malformed");
    }
    const Elf64_Shdr &names = sections[sh.sh_link];
    if (names.sh_type != SHT_STRTAB || !InFile(names.sh_offset, names.sh_size, length))
      return Bad(".dynstr is malformed");
    const size_t count = sh.sh_size / sizeof(Elf64_Sym);
    for (size_t i = 0; i < count; ++i) {
      Elf64_Sym sym;
      std::memcpy(&sym, data + sh.sh_offset + i * sizeof(Elf64_Sym), sizeof(sym));
      if (ELF64_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) {
        return Bad("has an IFUNC symbol: its resolver would run when the image is loaded");
      }
      if (sym.st_shndx == SHN_UNDEF || sym.st_name >= names.sh_size) continue;
      const char *name = reinterpret_cast<const char *>(data + names.sh_offset + sym.st_name);
      defined.insert(std::string(name, strnlen(name, names.sh_size - sym.st_name)));
    }
  }
  // The loader resolves symbols through DT_SYMTAB: it must be the .dynsym checked above.
  if (values.count(DT_SYMTAB) != 0 && (dynsym == nullptr || dynsym->sh_addr != values[DT_SYMTAB])) {
    return Bad("DT_SYMTAB is not the .dynsym section");
  }
  const uint64_t symbols = dynsym != nullptr ? dynsym->sh_size / sizeof(Elf64_Sym) : 0;
  // Every relocation writes inside the image's own segments, with a plain type: no IRELATIVE
  // (an ifunc resolver runs at load), no write anywhere else in the device process.
  for (const auto &table : tables) {
    if (values.count(table.address) == 0 || values[table.size] == 0) continue;
    uint64_t at = 0;
    image.Offset(values[table.address], values[table.size], &at);  // checked above
    const uint64_t count = values[table.size] / sizeof(Elf64_Rela);
    for (uint64_t i = 0; i < count; ++i) {
      Elf64_Rela rela;
      std::memcpy(&rela, data + at + i * sizeof(Elf64_Rela), sizeof(rela));
      const uint32_t type = ELF64_R_TYPE(rela.r_info);
      const uint32_t sym = ELF64_R_SYM(rela.r_info);
#if defined(__x86_64__)
      const bool allowed_type = type == R_X86_64_NONE || type == R_X86_64_64 || type == R_X86_64_GLOB_DAT ||
                                type == R_X86_64_JUMP_SLOT || type == R_X86_64_RELATIVE || type == R_X86_64_DTPMOD64 ||
                                type == R_X86_64_DTPOFF64 || type == R_X86_64_TPOFF64;
#else
      const bool allowed_type = true;
#endif
      if (!allowed_type) {
        return Bad(std::string(table.what) + " entry " + std::to_string(i) + " has relocation type " +
                   std::to_string(type) + ", which a kernel image may not use");
      }
      if (sym != 0 && sym >= symbols)
        return Bad(std::string(table.what) + " entry " + std::to_string(i) + " names no symbol");
      bool inside = false;
      for (const Elf64_Phdr &ph : image.loads) {
        if (rela.r_offset >= ph.p_vaddr && ph.p_memsz >= 8 && rela.r_offset - ph.p_vaddr <= ph.p_memsz - 8) {
          inside = true;
          break;
        }
      }
      if (!inside) {
        return Bad(std::string(table.what) + " entry " + std::to_string(i) + " writes at " + Hex(rela.r_offset) +
                   ", outside the image's segments");
      }
    }
  }
  for (const std::string &kernel : kernels) {
    for (const char *prefix : {ASC_TWIN_ENTRY_PREFIX, ASC_TWIN_INFO_PREFIX}) {
      if (defined.count(prefix + kernel) == 0) {
        return Bad(std::string(ASC_TWIN_META_SECTION)
                       .append(" lists kernel '")
                       .append(kernel)
                       .append("' but the binary does not export ")
                       .append(prefix)
                       .append(kernel));
      }
    }
  }
  return Status::Ok();
}

}  // namespace asc_twin::rt
