// Copyright mxcts authors.
//
// The handle layout of handle_codec.h, written byte by byte so that it does
// not depend on the host's struct layout. Decoding checks the magic word,
// the version and the checksum, then that the fields describe a possible
// file (a positive size that fits the file past its offset, an offset
// within the first page).
//
// Tested by handle_codec_test.cc.

#include "reference/runtime/ipc/handle_codec.h"

#include <cstring>

namespace mxcts::runtime {
namespace {

constexpr uint16_t kVersion = 1;
constexpr size_t kChecksummed = 56;
constexpr uint32_t kMaxOffset = 1u << 16;  // below any page size we map

class Writer {
 public:
  explicit Writer(char* bytes) : bytes_(bytes) {}
  void Put(size_t at, uint64_t value, int width) {
    for (int i = 0; i < width; ++i) {
      bytes_[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
    }
  }

 private:
  char* bytes_;
};

uint64_t Get(const char* bytes, size_t at, int width) {
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    value |= uint64_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
  }
  return value;
}

uint64_t Checksum(const char* bytes) {
  uint64_t hash = 0xcbf29ce484222325;  // FNV-1a
  for (size_t i = 0; i < kChecksummed; ++i) {
    hash ^= static_cast<unsigned char>(bytes[i]);
    hash *= 0x100000001b3;
  }
  return hash;
}

uint32_t Magic(char a, char b, char c, char d) {
  return static_cast<uint32_t>(a) | static_cast<uint32_t>(b) << 8 |
         static_cast<uint32_t>(c) << 16 | static_cast<uint32_t>(d) << 24;
}

const uint32_t kMemMagic = Magic('M', 'X', 'I', 'M');
const uint32_t kEventMagic = Magic('M', 'X', 'I', 'E');

void WriteCommon(char* bytes, uint32_t magic, int pid, int fd,
                 uint64_t start_time, uint64_t generation, int device) {
  std::memset(bytes, 0, 64);
  Writer w(bytes);
  w.Put(0, magic, 4);
  w.Put(4, kVersion, 2);
  w.Put(8, static_cast<uint32_t>(pid), 4);
  w.Put(12, static_cast<uint32_t>(fd), 4);
  w.Put(16, start_time, 8);
  w.Put(24, generation, 8);
  w.Put(52, static_cast<uint32_t>(device), 4);
}

void Seal(char* bytes) { Writer(bytes).Put(56, Checksum(bytes), 8); }

bool Valid(const char* bytes, uint32_t magic) {
  return Get(bytes, 0, 4) == magic && Get(bytes, 4, 2) == kVersion &&
         Get(bytes, 56, 8) == Checksum(bytes);
}

}  // namespace

bool MemHandleFields::operator==(const MemHandleFields& o) const {
  return pid == o.pid && fd == o.fd && start_time == o.start_time &&
         generation == o.generation && size == o.size &&
         file_size == o.file_size && offset == o.offset && device == o.device;
}

bool EventHandleFields::operator==(const EventHandleFields& o) const {
  return pid == o.pid && fd == o.fd && start_time == o.start_time &&
         serial == o.serial && device == o.device;
}

mcIpcMemHandle_t EncodeMemHandle(const MemHandleFields& fields) {
  mcIpcMemHandle_t handle;
  char* bytes = handle.reserved;
  WriteCommon(bytes, kMemMagic, fields.pid, fields.fd, fields.start_time,
              fields.generation, fields.device);
  Writer extra(bytes);
  extra.Put(32, fields.size, 8);
  extra.Put(40, fields.file_size, 8);
  extra.Put(48, fields.offset, 4);
  Seal(bytes);
  return handle;
}

std::optional<MemHandleFields> DecodeMemHandle(const mcIpcMemHandle_t& handle) {
  const char* bytes = handle.reserved;
  if (!Valid(bytes, kMemMagic)) return std::nullopt;
  MemHandleFields fields;
  fields.pid = static_cast<int>(Get(bytes, 8, 4));
  fields.fd = static_cast<int>(Get(bytes, 12, 4));
  fields.start_time = Get(bytes, 16, 8);
  fields.generation = Get(bytes, 24, 8);
  fields.size = Get(bytes, 32, 8);
  fields.file_size = Get(bytes, 40, 8);
  fields.offset = static_cast<uint32_t>(Get(bytes, 48, 4));
  fields.device = static_cast<int>(Get(bytes, 52, 4));
  if (fields.pid <= 0 || fields.fd < 0 || fields.size == 0 ||
      fields.offset >= kMaxOffset || fields.file_size < fields.offset ||
      fields.size > fields.file_size - fields.offset) {
    return std::nullopt;
  }
  return fields;
}

mcIpcEventHandle_t EncodeEventHandle(const EventHandleFields& fields) {
  mcIpcEventHandle_t handle;
  WriteCommon(handle.reserved, kEventMagic, fields.pid, fields.fd,
              fields.start_time, fields.serial, fields.device);
  Seal(handle.reserved);
  return handle;
}

std::optional<EventHandleFields> DecodeEventHandle(
    const mcIpcEventHandle_t& handle) {
  const char* bytes = handle.reserved;
  if (!Valid(bytes, kEventMagic)) return std::nullopt;
  EventHandleFields fields;
  fields.pid = static_cast<int>(Get(bytes, 8, 4));
  fields.fd = static_cast<int>(Get(bytes, 12, 4));
  fields.start_time = Get(bytes, 16, 8);
  fields.serial = Get(bytes, 24, 8);
  fields.device = static_cast<int>(Get(bytes, 52, 4));
  if (fields.pid <= 0 || fields.fd < 0) return std::nullopt;
  return fields;
}

}  // namespace mxcts::runtime
