#include "twin/runtime/internal/elf_image.h"

#include <elf.h>

#include <cctype>
#include <cstring>
#include <set>

#include "asc_twin/aicore_abi.h"

namespace asc_twin::rt {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
constexpr const char *kHostMachineName = "x86-64";
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
constexpr const char *kHostMachineName = "aarch64";
#else
#error "unsupported host architecture"
#endif

Status Bad(const std::string &what) { return Status(ACL_ERROR_INVALID_PARAM, "invalid kernel binary: " + what); }

struct Section {
  std::string name;
  uint32_t type;
  uint64_t offset;
  uint64_t size;
};

struct ElfView {
  uint16_t type;
  std::vector<Section> sections;
};

// Validates the header and section table of an ELF64 little-endian image for this host.
StatusOr<ElfView> ReadElf(const uint8_t *data, size_t length, const std::string &what) {
  if (length < sizeof(Elf64_Ehdr)) {
    return Bad(what + " is truncated: " + std::to_string(length) + " bytes, smaller than an ELF header");
  }
  Elf64_Ehdr header;
  std::memcpy(&header, data, sizeof(header));
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return Bad(what + " is not an ELF file (wrong magic)");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return Bad(what + " is not a 64-bit little-endian ELF");
  }
  if (header.e_machine != kHostMachine) {
    return Bad(what + " is for ELF machine " + std::to_string(header.e_machine) + ", the twin's device runs " +
               kHostMachineName + " code (" + std::to_string(kHostMachine) + ")");
  }
  if (header.e_shnum == 0 || header.e_shentsize != sizeof(Elf64_Shdr)) {
    return Bad(what + " has no usable section header table");
  }
  const uint64_t table_bytes = uint64_t{header.e_shnum} * sizeof(Elf64_Shdr);
  if (header.e_shoff > length || table_bytes > length - header.e_shoff) {
    return Bad(what + " is truncated: its section header table ends past byte " + std::to_string(length));
  }
  if (header.e_shstrndx >= header.e_shnum) return Bad(what + " has an out-of-range section name table index");
  std::vector<Elf64_Shdr> headers(header.e_shnum);
  std::memcpy(headers.data(), data + header.e_shoff, table_bytes);
  for (size_t i = 0; i < headers.size(); ++i) {
    const Elf64_Shdr &sh = headers[i];
    if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > length || sh.sh_size > length - sh.sh_offset)) {
      return Bad(what + " is truncated: section " + std::to_string(i) + " ends past byte " + std::to_string(length));
    }
  }
  const Elf64_Shdr &names = headers[header.e_shstrndx];
  if (names.sh_type == SHT_NOBITS) return Bad(what + " has no section name table");
  ElfView view{header.e_type, {}};
  for (const Elf64_Shdr &sh : headers) {
    if (sh.sh_name >= names.sh_size) return Bad(what + " has a section name outside the name table");
    const char *name = reinterpret_cast<const char *>(data + names.sh_offset + sh.sh_name);
    const size_t max_len = names.sh_size - sh.sh_name;
    view.sections.push_back(Section{std::string(name, strnlen(name, max_len)), sh.sh_type, sh.sh_offset, sh.sh_size});
  }
  return view;
}

const Section *FindSection(const ElfView &view, const char *name) {
  for (const Section &section : view.sections) {
    if (section.name == name) return &section;
  }
  return nullptr;
}

bool IsIdentifier(const std::string &name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

bool ParseU32(const std::string &text, uint32_t *out) {
  if (text.empty() || text.size() > 10) return false;
  uint64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value > UINT32_MAX) return false;
  *out = static_cast<uint32_t>(value);
  return true;
}

std::string Trim(const std::string &text) {
  size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

}  // namespace

StatusOr<KernelMeta> ParseKernelMeta(const std::string &raw) {
  const std::string text = raw.substr(0, raw.find('\0'));
  const std::string where = std::string(ASC_TWIN_META_SECTION) + " ";
  KernelMeta meta;
  bool has_abi = false, has_arch = false;
  std::set<std::string> seen;
  size_t line_no = 0, start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = Trim(text.substr(start, end - start));
    start = end + 1;
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos) {
      return Bad(std::string(where)
                     .append("line ")
                     .append(std::to_string(line_no))
                     .append(" '")
                     .append(line)
                     .append("' is not key=value"));
    }
    const std::string key = Trim(line.substr(0, eq)), value = Trim(line.substr(eq + 1));
    if (key == "abi") {
      if (!ParseU32(value, &meta.abi)) {
        return Bad(std::string(where).append("abi='").append(value).append("' is not a number"));
      }
      has_abi = true;
    } else if (key == "npu_arch") {
      if (!ParseU32(value, &meta.npu_arch)) {
        return Bad(std::string(where).append("npu_arch='").append(value).append("' is not a number"));
      }
      has_arch = true;
    } else if (key == "npu_arch_flag") {
      meta.npu_arch_flag = value;
    } else if (key == "kernel") {
      if (!IsIdentifier(value)) {
        return Bad(std::string(where).append("kernel='").append(value).append("' is not a C identifier"));
      }
      if (!seen.insert(value).second) {
        return Bad(std::string(where).append("lists kernel '").append(value).append("' twice"));
      }
      meta.kernels.push_back(value);
    }  // other keys: ignored, so newer producers can add information
  }
  if (!has_abi) return Bad(where + "has no abi= line");
  if (meta.abi != ASC_TWIN_ABI_VERSION) {
    return Bad("built for twin ABI " + std::to_string(meta.abi) + ", this runtime implements ABI " +
               std::to_string(ASC_TWIN_ABI_VERSION) + ": rebuild the kernel with the current bisheng");
  }
  if (!has_arch) return Bad(where + "has no npu_arch= line");
  if (meta.kernels.empty()) return Bad(where + "lists no kernel= line");
  return meta;
}

StatusOr<DeviceImage> ReadKernelBinary(const void *data, size_t length) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  StatusOr<ElfView> outer = ReadElf(bytes, length, "the binary");
  if (!outer.ok()) return outer.status();
  DeviceImage image;
  const uint8_t *device = bytes;
  size_t device_length = length;
  ElfView view = outer.value();
  if (view.type == ET_REL) {
    const Section *aicore = FindSection(view, ASC_TWIN_AICORE_SECTION);
    if (aicore == nullptr || aicore->type == SHT_NOBITS) {
      return Bad(std::string("host object (ET_REL) has no ") + ASC_TWIN_AICORE_SECTION + " section");
    }
    device = bytes + aicore->offset;
    device_length = aicore->size;
    image.from_host_object = true;
    StatusOr<ElfView> inner =
        ReadElf(device, device_length, std::string(ASC_TWIN_AICORE_SECTION) + " of the host object");
    if (!inner.ok()) return inner.status();
    view = inner.value();
    if (view.type != ET_DYN) return Bad(std::string(ASC_TWIN_AICORE_SECTION) + " does not hold a shared object");
  } else if (view.type != ET_DYN) {
    return Bad("ELF type " + std::to_string(view.type) +
               " is neither a device binary (ET_DYN) nor a host object (ET_REL)");
  }
  const Section *meta_section = FindSection(view, ASC_TWIN_META_SECTION);
  if (meta_section == nullptr || meta_section->type == SHT_NOBITS) {
    return Bad(std::string("device binary has no ") + ASC_TWIN_META_SECTION +
               " section (not built by bisheng for the twin)");
  }
  StatusOr<KernelMeta> meta =
      ParseKernelMeta(std::string(reinterpret_cast<const char *>(device + meta_section->offset), meta_section->size));
  if (!meta.ok()) return meta.status();
  image.meta = meta.value();
  image.bytes.assign(device, device + device_length);
  return image;
}

}  // namespace asc_twin::rt
