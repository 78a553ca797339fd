#include "twin/om/om_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

#include "twin/om/model_def_check.h"
#include "twin/om/om_format.h"
#include "twin/om/sha256.h"

namespace asc_twin::om {
namespace {

uint32_t LoadU32(const uint8_t *p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}

uint64_t LoadU64(const uint8_t *p) { return uint64_t{LoadU32(p)} | (uint64_t{LoadU32(p + 4)} << 32); }

bool Fail(ReadError *error, ReadErrorKind kind, const std::string &message) {
  if (error != nullptr) {
    error->kind = kind;
    error->message = "invalid OM: " + message;
  }
  return false;
}

std::string Hex32(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08X", value);
  return text;
}

struct Entry {
  uint32_t index;
  uint32_t type;
  uint64_t offset;
  uint64_t length;
  const uint8_t *sha256;
};

std::string EntryName(const Entry &entry) {
  return "partition " + std::to_string(entry.index) + " (" + PartitionTypeName(entry.type) + ")";
}

bool ReadHeader(const uint8_t *bytes, size_t size, OmContainer *out, uint32_t *partition_count, ReadError *error) {
  if (size < kOffHeaderSize + 4) {
    return Fail(error, ReadErrorKind::kTruncated,
                "truncated: " + std::to_string(size) + " bytes, the header alone needs " + std::to_string(kHeaderSize));
  }
  const uint32_t magic = LoadU32(bytes + kOffMagic);
  if (magic != kMagic) {
    return Fail(error, ReadErrorKind::kBadMagic,
                "bad magic " + Hex32(magic) + " (expected " + Hex32(kMagic) + ", \"IMOD\"): not an OM file");
  }
  const uint32_t version = LoadU32(bytes + kOffFormatVersion);
  if (version == 0 || version > kFormatVersion) {
    std::string why = version == 0 ? "format version 0 is invalid"
                                   : "format version " + std::to_string(version) + " is newer than the newest " +
                                         "this runtime reads (" + std::to_string(kFormatVersion) + ")";
    if (version == kCannModelVersion)
      why += "; this looks like an OM written by CANN's own ATC, which the twin cannot run";
    return Fail(error, ReadErrorKind::kUnsupportedVersion, why);
  }
  const uint32_t header_size = LoadU32(bytes + kOffHeaderSize);
  if (header_size != kHeaderSize) {
    return Fail(error, ReadErrorKind::kBadHeaderSize,
                "header size " + std::to_string(header_size) + " is not the version-1 header size " +
                    std::to_string(kHeaderSize));
  }
  if (size < kHeaderSize) {
    return Fail(error, ReadErrorKind::kTruncated,
                "truncated: " + std::to_string(size) + " bytes, the header alone needs " + std::to_string(kHeaderSize));
  }
  const uint32_t flags = LoadU32(bytes + kOffFlags);
  if ((flags & ~KnownFlags(version)) != 0) {
    return Fail(error, ReadErrorKind::kBadHeaderField,
                "unknown header flags " + Hex32(flags & ~KnownFlags(version)) + " for format version " +
                    std::to_string(version));
  }
  for (size_t i = kOffReserved; i < kHeaderSize; ++i) {
    if (bytes[i] != 0) {
      return Fail(error, ReadErrorKind::kBadHeaderField, "reserved header byte " + std::to_string(i) + " is not zero");
    }
  }
  const char *soc = reinterpret_cast<const char *>(bytes + kOffSocVersion);
  const size_t soc_length = strnlen(soc, kSocVersionCapacity);
  if (soc_length == 0 || soc_length == kSocVersionCapacity) {
    return Fail(error, ReadErrorKind::kBadHeaderField, "SoC version field is empty or not NUL-terminated");
  }
  for (size_t i = 0; i < soc_length; ++i) {
    if (soc[i] < 0x21 || soc[i] > 0x7e) {
      return Fail(error, ReadErrorKind::kBadHeaderField, "SoC version field holds a non-printable character");
    }
  }
  for (size_t i = soc_length; i < kSocVersionCapacity; ++i) {
    if (soc[i] != 0) return Fail(error, ReadErrorKind::kBadHeaderField, "SoC version field is not NUL-padded");
  }
  const uint32_t count = LoadU32(bytes + kOffPartitionCount);
  if (count == 0 || count > kMaxPartitions) {
    return Fail(error, ReadErrorKind::kBadHeaderField,
                "partition count " + std::to_string(count) + " is outside [1, " + std::to_string(kMaxPartitions) + "]");
  }
  out->format_version = version;
  out->flags = flags;
  out->soc_version.assign(soc, soc_length);
  out->npu_arch = LoadU32(bytes + kOffNpuArch);
  *partition_count = count;
  return true;
}

bool CheckHeaderDigest(const uint8_t *bytes, size_t table_end, ReadError *error) {
  uint8_t header[kHeaderSize];
  std::memcpy(header, bytes, kHeaderSize);
  std::memset(header + kOffHeaderSha256, 0, 32);
  Sha256 hasher;
  hasher.Update(header, kHeaderSize);
  hasher.Update(bytes + kHeaderSize, table_end - kHeaderSize);
  const Sha256Digest digest = hasher.Finish();
  if (std::memcmp(digest.data(), bytes + kOffHeaderSha256, 32) != 0) {
    return Fail(error, ReadErrorKind::kBadHeaderChecksum,
                "header checksum mismatch (SHA-256 over header and partition table is " + ToHex(digest) +
                    "): the file is corrupt");
  }
  return true;
}

bool ReadEntries(const uint8_t *bytes, size_t size, uint32_t version, uint32_t count, size_t table_end,
                 std::vector<Entry> *entries, ReadError *error) {
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t *p = bytes + kHeaderSize + size_t{i} * kPartitionEntrySize;
    Entry entry{i, LoadU32(p + kOffEntryType), LoadU64(p + kOffEntryOffset), LoadU64(p + kOffEntryLength),
                p + kOffEntrySha256};
    if (entry.type < static_cast<uint32_t>(PartitionType::kModelDef) ||
        entry.type > static_cast<uint32_t>(PartitionType::kGraph) || PartitionTypeSince(entry.type) > version) {
      return Fail(error, ReadErrorKind::kBadPartitionEntry,
                  "partition " + std::to_string(i) + " has unknown type " + std::to_string(entry.type) +
                      " for format version " + std::to_string(version));
    }
    if (LoadU32(p + kOffEntryReserved) != 0) {
      return Fail(error, ReadErrorKind::kBadPartitionEntry, EntryName(entry) + " reserved field is not zero");
    }
    if (entry.offset < table_end || entry.offset > size || entry.length > size - entry.offset) {
      return Fail(error, ReadErrorKind::kPartitionOutOfRange,
                  EntryName(entry) + " [offset " + std::to_string(entry.offset) + ", length " +
                      std::to_string(entry.length) + "] is outside the data region [" + std::to_string(table_end) +
                      ", " + std::to_string(size) + ")");
    }
    entries->push_back(entry);
  }
  std::vector<Entry> by_offset = *entries;
  std::sort(by_offset.begin(), by_offset.end(), [](const Entry &a, const Entry &b) {
    return a.offset != b.offset ? a.offset < b.offset : a.index < b.index;
  });
  for (size_t i = 1; i < by_offset.size(); ++i) {
    const Entry &prev = by_offset[i - 1];
    const Entry &next = by_offset[i];
    // Empty partitions occupy no bytes and cannot overlap anything.
    if (prev.length > 0 && next.length > 0 && next.offset < prev.offset + prev.length) {
      return Fail(error, ReadErrorKind::kPartitionOverlap,
                  EntryName(prev) + " [" + std::to_string(prev.offset) + ", " +
                      std::to_string(prev.offset + prev.length) + ") overlaps " + EntryName(next) + " [" +
                      std::to_string(next.offset) + ", " + std::to_string(next.offset + next.length) + ")");
    }
  }
  // Every byte between the table and the end belongs to a partition or is zero padding, so
  // that no byte of a valid container escapes validation.
  uint64_t cursor = table_end;
  for (const Entry &entry : by_offset) {
    for (uint64_t at = cursor; at < entry.offset; ++at) {
      if (bytes[at] != 0) {
        return Fail(error, ReadErrorKind::kBadPadding,
                    "padding byte at offset " + std::to_string(at) + " (outside every partition) is not zero");
      }
    }
    cursor = std::max<uint64_t>(cursor, entry.offset + entry.length);
  }
  for (uint64_t at = cursor; at < size; ++at) {
    if (bytes[at] != 0) {
      return Fail(error, ReadErrorKind::kBadPadding,
                  "padding byte at offset " + std::to_string(at) + " (outside every partition) is not zero");
    }
  }
  return true;
}

}  // namespace

const char *PartitionTypeName(uint32_t type) {
  switch (static_cast<PartitionType>(type)) {
    case PartitionType::kModelDef:
      return "MODEL_DEF";
    case PartitionType::kKernelBinary:
      return "KERNEL_BINARY";
    case PartitionType::kConstants:
      return "CONSTANTS";
    case PartitionType::kGraph:
      return "GRAPH";
  }
  return "UNKNOWN";
}

const char *ReadErrorKindName(ReadErrorKind kind) {
  switch (kind) {
    case ReadErrorKind::kTruncated:
      return "truncated";
    case ReadErrorKind::kBadMagic:
      return "bad magic";
    case ReadErrorKind::kUnsupportedVersion:
      return "unsupported version";
    case ReadErrorKind::kBadHeaderSize:
      return "bad header size";
    case ReadErrorKind::kBadHeaderField:
      return "bad header field";
    case ReadErrorKind::kBadHeaderChecksum:
      return "bad header checksum";
    case ReadErrorKind::kTrailingBytes:
      return "trailing bytes";
    case ReadErrorKind::kBadPartitionEntry:
      return "bad partition entry";
    case ReadErrorKind::kPartitionOutOfRange:
      return "partition out of range";
    case ReadErrorKind::kPartitionOverlap:
      return "partition overlap";
    case ReadErrorKind::kBadPadding:
      return "bad padding";
    case ReadErrorKind::kBadPartitionChecksum:
      return "bad partition checksum";
    case ReadErrorKind::kBadModelDef:
      return "bad model definition";
    case ReadErrorKind::kModelDefMismatch:
      return "model definition mismatch";
    case ReadErrorKind::kBadModelField:
      return "bad model field";
    case ReadErrorKind::kBadGraph:
      return "bad graph";
  }
  return "unknown";
}

bool CheckOmHeader(const void *header, size_t header_bytes, uint64_t container_size, ReadError *error) {
  if (header == nullptr) return Fail(error, ReadErrorKind::kTruncated, "no data (null pointer)");
  const uint8_t *bytes = static_cast<const uint8_t *>(header);
  // A short file is all header: ReadHeader's own truncation messages name its real size.
  const size_t size = header_bytes < container_size ? header_bytes : static_cast<size_t>(container_size);
  OmContainer result;
  uint32_t count = 0;
  if (!ReadHeader(bytes, size, &result, &count, error)) return false;
  const uint64_t table_end = kHeaderSize + uint64_t{count} * kPartitionEntrySize;
  if (container_size < table_end) {
    return Fail(error, ReadErrorKind::kTruncated,
                "truncated: " + std::to_string(container_size) + " bytes, the header and " + std::to_string(count) +
                    "-entry partition table need " + std::to_string(table_end));
  }
  const uint64_t file_size = LoadU64(bytes + kOffFileSize);
  if (container_size < file_size) {
    return Fail(
        error, ReadErrorKind::kTruncated,
        "truncated: " + std::to_string(container_size) + " bytes, the header says " + std::to_string(file_size));
  }
  if (container_size > file_size) {
    return Fail(error, ReadErrorKind::kTrailingBytes,
                std::to_string(container_size - file_size) + " unexpected bytes after the " +
                    std::to_string(file_size) + "-byte container");
  }
  return true;
}

bool ReadOm(const void *data, size_t size, OmContainer *out, ReadError *error) {
  if (data == nullptr || out == nullptr) return Fail(error, ReadErrorKind::kTruncated, "no data (null pointer)");
  const uint8_t *bytes = static_cast<const uint8_t *>(data);
  OmContainer result;
  uint32_t count = 0;
  if (!ReadHeader(bytes, size, &result, &count, error)) return false;

  const size_t table_end = kHeaderSize + size_t{count} * kPartitionEntrySize;
  if (size < table_end) {
    return Fail(error, ReadErrorKind::kTruncated,
                "truncated: " + std::to_string(size) + " bytes, the header and " + std::to_string(count) +
                    "-entry partition table need " + std::to_string(table_end));
  }
  if (!CheckHeaderDigest(bytes, table_end, error)) return false;
  const uint64_t file_size = LoadU64(bytes + kOffFileSize);
  if (size < file_size) {
    return Fail(error, ReadErrorKind::kTruncated,
                "truncated: " + std::to_string(size) + " bytes, the header says " + std::to_string(file_size));
  }
  if (size > file_size) {
    return Fail(error, ReadErrorKind::kTrailingBytes,
                std::to_string(size - file_size) + " unexpected bytes after the " + std::to_string(file_size) +
                    "-byte container");
  }

  std::vector<Entry> entries;
  if (!ReadEntries(bytes, size, result.format_version, count, table_end, &entries, error)) return false;

  const Entry *model_def = nullptr;
  for (const Entry &entry : entries) {
    const Sha256Digest digest = Sha256::Of(bytes + entry.offset, entry.length);
    if (std::memcmp(digest.data(), entry.sha256, 32) != 0) {
      return Fail(error, ReadErrorKind::kBadPartitionChecksum,
                  EntryName(entry) + " checksum mismatch (content SHA-256 " + ToHex(digest) + "): the file is corrupt");
    }
    const ByteSpan span{bytes + entry.offset, static_cast<size_t>(entry.length)};
    switch (static_cast<PartitionType>(entry.type)) {
      case PartitionType::kModelDef:
        if (model_def != nullptr) {
          return Fail(error, ReadErrorKind::kBadPartitionEntry, "more than one MODEL_DEF partition");
        }
        model_def = &entry;
        break;
      case PartitionType::kKernelBinary:
        if (entry.length == 0) return Fail(error, ReadErrorKind::kBadPartitionEntry, EntryName(entry) + " is empty");
        result.kernel_binaries.push_back(span);
        break;
      case PartitionType::kConstants:
        if (result.constants.data != nullptr) {
          return Fail(error, ReadErrorKind::kBadPartitionEntry, "more than one CONSTANTS partition");
        }
        result.constants = span;
        break;
      case PartitionType::kGraph:
        if (result.graph.data != nullptr) {
          return Fail(error, ReadErrorKind::kBadPartitionEntry, "more than one GRAPH partition");
        }
        if (entry.length == 0) return Fail(error, ReadErrorKind::kBadPartitionEntry, EntryName(entry) + " is empty");
        result.graph = span;
        break;
    }
  }
  if (model_def == nullptr) return Fail(error, ReadErrorKind::kBadPartitionEntry, "no MODEL_DEF partition");
  if (result.requires_python() != (result.graph.data != nullptr)) {
    return Fail(error, ReadErrorKind::kBadPartitionEntry,
                result.graph.data == nullptr ? "the header flag REQUIRES_PYTHON is set but there is no GRAPH partition"
                                             : "a GRAPH partition without the header flag REQUIRES_PYTHON");
  }
  if (model_def->length > static_cast<uint64_t>(std::numeric_limits<int>::max()) ||
      !result.model_def.ParseFromArray(bytes + model_def->offset, static_cast<int>(model_def->length))) {
    return Fail(error, ReadErrorKind::kBadModelDef,
                EntryName(*model_def) + " does not parse as asc_twin.om.ModelDef (" +
                    std::to_string(model_def->length) + " bytes)");
  }
  std::string why;
  ReadErrorKind kind = ReadErrorKind::kBadModelField;
  if (!CheckModelDef(result, &kind, &why)) return Fail(error, kind, why);
  if (result.graph.data != nullptr && !CheckGraph(result, &why)) return Fail(error, ReadErrorKind::kBadGraph, why);
  *out = std::move(result);
  return true;
}

}  // namespace asc_twin::om
