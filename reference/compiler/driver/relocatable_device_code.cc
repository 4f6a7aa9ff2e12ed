// Copyright mxcts authors.
//
// The driver reads objects and archives itself rather than asking objdump
// or ar: it needs only the section headers of ELF64 little-endian objects
// (the host compiler's output on every machine the reference runs on) and
// the member headers of ar archives, and reading them here gives one
// diagnostic, naming the file, for every way they can be damaged.
//
// ELF: the section header table (e_shoff, e_shentsize, e_shnum) and the
// section names (e_shstrndx); an object with 65280 sections or more keeps
// the real count in section 0's sh_size and the name table's index in its
// sh_link. ar: "!<arch>\n", then members, each a 60-byte header (name,
// date, uid, gid, mode, size, "`\n") and its data padded to an even size.
// Names are GNU ("name/", "/N" into the "//" table) or BSD ("#1/N", the
// name being the first N bytes of the data); "/" and "/SYM64/" are symbol
// tables.
//
// Tested by relocatable_device_code_test.cc.

#include "reference/compiler/driver/relocatable_device_code.h"

#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "reference/compiler/driver/process.h"

namespace mxcts::driver {
namespace {

constexpr std::string_view kArchiveMagic = "!<arch>\n";
constexpr std::string_view kThinArchiveMagic = "!<thin>\n";
constexpr size_t kArchiveHeaderSize = 60;
constexpr size_t kElfHeaderSize = 64;
constexpr size_t kSectionHeaderSize = 64;
constexpr uint16_t kElfRelocatable = 1;      // ET_REL
constexpr uint16_t kExtendedIndex = 0xffff;  // SHN_XINDEX

absl::Status Damaged(const std::string& origin, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(origin, ": ", why));
}

uint64_t Little(std::string_view bytes, size_t offset, size_t width) {
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i) {
    value |=
        static_cast<uint64_t>(static_cast<unsigned char>(bytes[offset + i]))
        << (8 * i);
  }
  return value;
}

bool IsElf64Little(std::string_view bytes) {
  return bytes.size() >= kElfHeaderSize &&
         bytes.substr(0, 4) ==
             "\x7f"
             "ELF" &&
         bytes[4] == 2 && bytes[5] == 1;
}

// One section header's fields that matter here.
struct Section {
  uint32_t name = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint32_t type = 0;
};

constexpr uint32_t kNoBits = 8;  // SHT_NOBITS: no bytes in the file

absl::StatusOr<std::vector<RelocatableDeviceCode>> ParseElf(
    std::string_view bytes, const std::string& origin) {
  std::vector<RelocatableDeviceCode> found;
  if (Little(bytes, 16, 2) != kElfRelocatable) return found;
  uint64_t table = Little(bytes, 0x28, 8);
  uint64_t entry_size = Little(bytes, 0x3a, 2);
  uint64_t count = Little(bytes, 0x3c, 2);
  uint64_t names_index = Little(bytes, 0x3e, 2);
  if (table == 0) return found;
  if (entry_size < kSectionHeaderSize) {
    return Damaged(origin, "ELF section headers are too small");
  }
  auto section = [&](uint64_t index) -> absl::StatusOr<Section> {
    uint64_t at = table + index * entry_size;
    if (at < table || at > bytes.size() ||
        bytes.size() - at < kSectionHeaderSize) {
      return Damaged(origin, "truncated ELF section header table");
    }
    Section s;
    s.name = static_cast<uint32_t>(Little(bytes, at, 4));
    s.type = static_cast<uint32_t>(Little(bytes, at + 4, 4));
    s.offset = Little(bytes, at + 0x18, 8);
    s.size = Little(bytes, at + 0x20, 8);
    s.link = static_cast<uint32_t>(Little(bytes, at + 0x28, 4));
    if (s.type != kNoBits &&
        (s.offset > bytes.size() || bytes.size() - s.offset < s.size)) {
      return Damaged(origin, "an ELF section extends past the end of the file");
    }
    return s;
  };
  if (count == 0 || names_index == kExtendedIndex) {
    absl::StatusOr<Section> first = section(0);
    if (!first.ok()) return first.status();
    if (count == 0) count = first->size;
    if (names_index == kExtendedIndex) names_index = first->link;
  }
  if (names_index >= count) {
    return Damaged(origin, "the ELF section name table index is out of range");
  }
  absl::StatusOr<Section> names = section(names_index);
  if (!names.ok()) return names.status();
  std::string_view name_table = bytes.substr(names->offset, names->size);
  for (uint64_t i = 0; i < count; ++i) {
    absl::StatusOr<Section> s = section(i);
    if (!s.ok()) return s.status();
    if (s->name >= name_table.size()) {
      return Damaged(origin, "an ELF section name is out of range");
    }
    std::string_view name = name_table.substr(s->name);
    name = name.substr(0, name.find('\0'));
    if (name.substr(0, std::strlen(kDeviceCodeSectionPrefix)) !=
        kDeviceCodeSectionPrefix) {
      continue;
    }
    RelocatableDeviceCode code;
    code.image_symbol =
        std::string(name.substr(std::strlen(kDeviceCodeSectionPrefix)));
    code.origin = origin;
    code.object = std::string(bytes.substr(s->offset, s->size));
    found.push_back(std::move(code));
  }
  return found;
}

// A decimal field of an archive member header, space-padded.
bool ArchiveNumber(std::string_view field, uint64_t* value) {
  *value = 0;
  bool digits = false;
  for (char c : field) {
    if (c == ' ') break;
    if (c < '0' || c > '9') return false;
    *value = *value * 10 + static_cast<uint64_t>(c - '0');
    digits = true;
  }
  return digits;
}

absl::StatusOr<std::vector<RelocatableDeviceCode>> ParseArchive(
    std::string_view bytes, const std::string& origin) {
  std::vector<RelocatableDeviceCode> found;
  std::string_view long_names;
  size_t at = kArchiveMagic.size();
  while (at < bytes.size()) {
    if (bytes[at] == '\n') {  // padding some writers leave at the end
      ++at;
      continue;
    }
    if (bytes.size() - at < kArchiveHeaderSize) {
      return Damaged(origin, "truncated archive member header");
    }
    std::string_view header = bytes.substr(at, kArchiveHeaderSize);
    uint64_t size = 0;
    if (header.substr(58, 2) != "`\n" ||
        !ArchiveNumber(header.substr(48, 10), &size)) {
      return Damaged(origin, absl::StrCat("malformed archive member header at "
                                          "offset ",
                                          at));
    }
    at += kArchiveHeaderSize;
    if (bytes.size() - at < size) {
      return Damaged(origin,
                     "an archive member extends past the end of the "
                     "file");
    }
    std::string_view data = bytes.substr(at, size);
    at += size + (size % 2);
    std::string_view field = header.substr(0, 16);
    field = field.substr(0, field.find_last_not_of(' ') + 1);
    std::string name;
    if (field == "/" || field == "/SYM64/" || field == "__.SYMDEF" ||
        field == "__.SYMDEF SORTED") {
      continue;  // symbol tables
    }
    if (field == "//") {
      long_names = data;
      continue;
    }
    if (field.size() > 1 && field[0] == '/') {
      uint64_t offset = 0;
      if (!ArchiveNumber(field.substr(1), &offset) ||
          offset >= long_names.size()) {
        return Damaged(origin,
                       absl::StrCat("archive member name '", std::string(field),
                                    "' is not in the name table"));
      }
      std::string_view rest = long_names.substr(offset);
      name = std::string(rest.substr(0, rest.find("/\n")));
    } else if (field.substr(0, 3) == "#1/") {
      uint64_t length = 0;
      if (!ArchiveNumber(field.substr(3), &length) || length > data.size()) {
        return Damaged(origin, absl::StrCat("malformed archive member name '",
                                            std::string(field), "'"));
      }
      name = std::string(data.substr(0, length));
      name = name.substr(0, name.find('\0'));
      data.remove_prefix(length);
    } else {
      name = std::string(field);
      if (!name.empty() && name.back() == '/') name.pop_back();
    }
    if (!IsElf64Little(data)) continue;
    absl::StatusOr<std::vector<RelocatableDeviceCode>> member =
        ParseElf(data, absl::StrCat(origin, "(", name, ")"));
    if (!member.ok()) return member.status();
    for (RelocatableDeviceCode& code : *member) {
      found.push_back(std::move(code));
    }
  }
  return found;
}

}  // namespace

std::string DeviceCodeCarrierAssembly(const std::string& image_symbol,
                                      const std::string& device_object) {
  std::string quoted;
  for (char c : device_object) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return absl::StrCat(
      "# The relocatable device code of one MXMACA source, generated by "
      "mxcc.\n",
      "\t.section ", kDeviceCodeSectionPrefix, image_symbol,
      ",\"e\",@progbits\n",            //
      "\t.incbin \"", quoted, "\"\n",  //
      "\n",                            //
      "\t.section .note.GNU-stack,\"\",@progbits\n");
}

absl::StatusOr<std::vector<RelocatableDeviceCode>> ParseRelocatableDeviceCode(
    std::string_view bytes, const std::string& origin) {
  if (bytes.substr(0, kThinArchiveMagic.size()) == kThinArchiveMagic) {
    return Damaged(origin,
                   "thin archives are not read for device code (their "
                   "members are elsewhere); make a normal archive with "
                   "'ar rcs'");
  }
  if (bytes.substr(0, kArchiveMagic.size()) == kArchiveMagic) {
    return ParseArchive(bytes, origin);
  }
  if (IsElf64Little(bytes)) return ParseElf(bytes, origin);
  return std::vector<RelocatableDeviceCode>();
}

absl::StatusOr<std::vector<RelocatableDeviceCode>> FindRelocatableDeviceCode(
    const std::string& path) {
  absl::StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  return ParseRelocatableDeviceCode(*bytes, path);
}

}  // namespace mxcts::driver
