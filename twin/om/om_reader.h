// Parses and fully validates an OM container held in memory (see FORMAT.md) before anything
// uses it: header, partition table, every SHA-256, the ModelDef and every index in it. Each
// defect gives a distinct ReadErrorKind and one line naming the field and the cause.
#ifndef TWIN_OM_OM_READER_H_
#define TWIN_OM_OM_READER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "twin/om/om.pb.h"
#include "twin/om/om_format.h"

namespace asc_twin::om {

enum class ReadErrorKind {
  kTruncated,  // fewer bytes than the header / table / file_size need
  kBadMagic,
  kUnsupportedVersion,  // 0, or newer than kFormatVersion
  kBadHeaderSize,
  kBadHeaderField,  // flags, reserved bytes, SoC string, partition count
  kBadHeaderChecksum,
  kTrailingBytes,      // more bytes than file_size says
  kBadPartitionEntry,  // unknown type, reserved field, missing/duplicate MODEL_DEF ...
  kPartitionOutOfRange,
  kPartitionOverlap,
  kBadPadding,  // a byte outside every partition (alignment gap) is not zero
  kBadPartitionChecksum,
  kBadModelDef,       // the MODEL_DEF bytes are not a ModelDef
  kModelDefMismatch,  // ModelDef disagrees with the header (version, SoC, arch)
  kBadModelField,     // an index, size or name in the ModelDef is out of range / empty
  kBadGraph,          // the GRAPH partition is not an AIR model matching the ModelDef
};

struct ReadError {
  ReadErrorKind kind = ReadErrorKind::kTruncated;
  std::string message;  // one line
};

struct ByteSpan {
  const uint8_t *data = nullptr;
  size_t size = 0;
};

// A validated container. Spans point into the caller's buffer, which must outlive them.
struct OmContainer {
  uint32_t format_version = 0;
  uint32_t flags = 0;
  std::string soc_version;
  uint32_t npu_arch = 0;
  ModelDef model_def;
  std::vector<ByteSpan> kernel_binaries;  // KERNEL_BINARY partitions in table order
  ByteSpan constants;                     // empty if there is no CONSTANTS partition
  ByteSpan graph;                         // AIR bytes (version 2, REQUIRES_PYTHON), else empty

  bool requires_python() const { return (flags & kFlagRequiresPython) != 0; }
};

// Returns true and fills `out`, or false and fills `error`.
bool ReadOm(const void *data, size_t size, OmContainer *out, ReadError *error);

// The checks ReadOm makes on the header alone (`header_bytes` = min(kHeaderSize, size) first
// bytes), against a container of `container_size` bytes, with ReadOm's messages: what a file
// loader runs before it reads the rest, so a file that is not an OM of its own size is refused
// from 128 bytes. ReadOm still checks everything on the whole container.
bool CheckOmHeader(const void *header, size_t header_bytes, uint64_t container_size, ReadError *error);

const char *ReadErrorKindName(ReadErrorKind kind);

}  // namespace asc_twin::om

#endif  // TWIN_OM_OM_READER_H_
