// Byte layout of the OM container (see FORMAT.md). All integers little-endian.
#ifndef TWIN_OM_OM_FORMAT_H_
#define TWIN_OM_OM_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace asc_twin::om {

// CANN's OM magic (ModelFileHeader.magic, MODEL_FILE_MAGIC_NUM): the bytes "IMOD" on disk.
constexpr uint32_t kMagic = 0x444F4D49u;
// The newest layout this code reads. Bump on any layout change.
constexpr uint32_t kFormatVersion = 2;
// What writers produce for a model without a GRAPH partition (byte-identical to version-1 files).
constexpr uint32_t kStaticFormatVersion = 1;
// The first version with the REQUIRES_PYTHON flag and the GRAPH partition.
constexpr uint32_t kPythonFormatVersion = 2;
// CANN's own OM header carries 0x10000000 in the same place; used only to explain a refusal.
constexpr uint32_t kCannModelVersion = 0x10000000u;

constexpr size_t kHeaderSize = 128;
constexpr size_t kSocVersionCapacity = 32;  // NUL-padded; at most 31 characters
constexpr size_t kPartitionEntrySize = 56;
constexpr uint32_t kMaxPartitions = 4096;
constexpr size_t kPartitionAlignment = 64;  // the writer aligns partition data; readers do not require it

// Header field offsets.
constexpr size_t kOffMagic = 0;
constexpr size_t kOffFormatVersion = 4;
constexpr size_t kOffHeaderSize = 8;
constexpr size_t kOffPartitionCount = 12;
constexpr size_t kOffFlags = 16;
constexpr size_t kOffNpuArch = 20;
constexpr size_t kOffSocVersion = 24;
constexpr size_t kOffFileSize = 56;
constexpr size_t kOffHeaderSha256 = 64;
constexpr size_t kOffReserved = 96;  // 32 zero bytes

// Partition entry field offsets (relative to the entry).
constexpr size_t kOffEntryType = 0;
constexpr size_t kOffEntryReserved = 4;
constexpr size_t kOffEntryOffset = 8;
constexpr size_t kOffEntryLength = 16;
constexpr size_t kOffEntrySha256 = 24;

// Version 2: the model runs through Python; its graph is in the GRAPH partition.
constexpr uint32_t kFlagRequiresPython = 0x1u;
// Flags a version defines; any other set bit is refused (it would change the meaning).
constexpr uint32_t KnownFlags(uint32_t format_version) {
  return format_version >= kPythonFormatVersion ? kFlagRequiresPython : 0u;
}

enum class PartitionType : uint32_t {
  kModelDef = 1,
  kKernelBinary = 2,
  kConstants = 3,
  kGraph = 4,  // version 2: AIR bytes of a model that runs through Python
};

// The first format version that knows a partition type.
constexpr uint32_t PartitionTypeSince(uint32_t type) {
  return type == static_cast<uint32_t>(PartitionType::kGraph) ? kPythonFormatVersion : 1u;
}

const char *PartitionTypeName(uint32_t type);

}  // namespace asc_twin::om

#endif  // TWIN_OM_OM_FORMAT_H_
