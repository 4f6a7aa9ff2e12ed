// Copyright mxcts authors.
//
// reference/runtime/ipc/handle_codec.h: what the reference writes into the
// 64 bytes of an mcIpcMemHandle_t and an mcIpcEventHandle_t.
//
// A handle names the exporting process (pid and start time, so that a
// reused pid is not mistaken for the exporter), the descriptor of the
// memory file that holds the exported memory or event in that process, and
// what the file must be (its name carries the generation; the size and
// offset say where the allocation lies in it). The bytes are plain data
// [api.ipc.handle.plain-data]: fixed-width little-endian fields, a magic
// word per handle kind and a checksum, so that bytes that are no handle
// (all zero, say) decode to nothing [api.ipc.open-mem-handle.invalid-handle].
//
//   bytes   field
//   0..3    magic: "MXIM" (memory) or "MXIE" (event)
//   4..5    format version, 1
//   8..11   exporter pid
//   12..15  descriptor of the memory file in the exporter
//   16..23  exporter start time (ProcessStartTime)
//   24..31  generation (memory) or serial (event): names the file
//   32..39  allocation size in bytes (memory)
//   40..47  file size in bytes, whole pages (memory)
//   48..51  offset of the allocation in the file (memory)
//   52..55  system index of the device
//   56..63  checksum (FNV-1a of bytes 0..55)
//
//   MemHandleFields fields = ...;
//   mcIpcMemHandle_t handle = EncodeMemHandle(fields);
//   std::optional<MemHandleFields> back = DecodeMemHandle(handle);  // fields

#ifndef MXCTS_REFERENCE_RUNTIME_IPC_HANDLE_CODEC_H_
#define MXCTS_REFERENCE_RUNTIME_IPC_HANDLE_CODEC_H_

#include <stddef.h>
#include <stdint.h>

#include <optional>

#include "mc_runtime_api.h"

namespace mxcts::runtime {

// [api.ipc.handle.size]
static_assert(sizeof(mcIpcMemHandle_t) == 64 &&
                  sizeof(mcIpcEventHandle_t) == 64,
              "the reference's handles are 64 bytes");

// Where an exported allocation lives.
struct MemHandleFields {
  int pid = 0;
  int fd = -1;
  uint64_t start_time = 0;
  uint64_t generation = 0;
  uint64_t size = 0;       // the allocation's size
  uint64_t file_size = 0;  // whole pages holding it
  uint32_t offset = 0;     // its first byte's offset in the file
  int device = 0;          // system index of its device

  bool operator==(const MemHandleFields& other) const;
};

// Where an exported interprocess event lives.
struct EventHandleFields {
  int pid = 0;
  int fd = -1;
  uint64_t start_time = 0;
  uint64_t serial = 0;
  int device = 0;  // system index of the event's device

  bool operator==(const EventHandleFields& other) const;
};

mcIpcMemHandle_t EncodeMemHandle(const MemHandleFields& fields);
// Nullopt unless `handle` holds what EncodeMemHandle writes (magic, version,
// checksum) and a sane layout (size within file size).
std::optional<MemHandleFields> DecodeMemHandle(const mcIpcMemHandle_t& handle);

mcIpcEventHandle_t EncodeEventHandle(const EventHandleFields& fields);
std::optional<EventHandleFields> DecodeEventHandle(
    const mcIpcEventHandle_t& handle);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_IPC_HANDLE_CODEC_H_
