// Copyright mxcts authors.
//
// Both readers start from the ELF header (magic, 64-bit class,
// little-endian) and then walk one table, checking that it lies inside the
// bytes before reading an entry: the section header table and its string
// table (e_shstrndx) for FindSection, the program header table for
// ExecutableSegments. Reads go through memcpy, so unaligned input is fine.
//
// Tested by elf_layout_test.cc.

#include "reference/runtime/images/elf_layout.h"

#include <elf.h>

#include <cstring>

#include "absl/strings/str_cat.h"
#include "mcr/mc_runtime_types.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/images/elf_reading.h"

namespace mxcts::runtime {
namespace {

using elf_reading::Corrupt;
using elf_reading::Inside;
using elf_reading::ReadAt;

absl::StatusOr<Elf64_Ehdr> ReadHeader(const unsigned char* bytes, size_t size) {
  if (bytes == nullptr || size < sizeof(Elf64_Ehdr)) {
    return Corrupt("shorter than an ELF header");
  }
  Elf64_Ehdr header = ReadAt<Elf64_Ehdr>(bytes, 0);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return Corrupt("not an ELF object");
  }
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return Corrupt("not a 64-bit little-endian ELF object");
  }
  return header;
}

}  // namespace

absl::StatusOr<std::optional<ElfRange>> FindSection(const unsigned char* bytes,
                                                    size_t size,
                                                    absl::string_view name) {
  absl::StatusOr<Elf64_Ehdr> header = ReadHeader(bytes, size);
  if (!header.ok()) return header.status();
  if (header->e_shentsize != sizeof(Elf64_Shdr) ||
      !Inside(header->e_shoff, uint64_t{header->e_shnum} * sizeof(Elf64_Shdr),
              size)) {
    return Corrupt("section header table out of bounds");
  }
  if (header->e_shstrndx >= header->e_shnum) {
    return Corrupt("no section name table");
  }
  auto section = [&](unsigned index) {
    return ReadAt<Elf64_Shdr>(bytes,
                              header->e_shoff + index * sizeof(Elf64_Shdr));
  };
  const Elf64_Shdr names = section(header->e_shstrndx);
  if (!Inside(names.sh_offset, names.sh_size, size)) {
    return Corrupt("section name table out of bounds");
  }
  const char* strings = reinterpret_cast<const char*>(bytes) + names.sh_offset;
  for (unsigned i = 0; i < header->e_shnum; ++i) {
    const Elf64_Shdr candidate = section(i);
    if (candidate.sh_name >= names.sh_size) {
      return Corrupt("section name out of bounds");
    }
    const size_t room = names.sh_size - candidate.sh_name;
    const size_t length = strnlen(strings + candidate.sh_name, room);
    if (length == room) return Corrupt("unterminated section name");
    if (absl::string_view(strings + candidate.sh_name, length) != name) {
      continue;
    }
    if ((candidate.sh_flags & SHF_ALLOC) == 0 || candidate.sh_size == 0) {
      return std::optional<ElfRange>();
    }
    return std::optional<ElfRange>(
        ElfRange{candidate.sh_addr, candidate.sh_size});
  }
  return std::optional<ElfRange>();
}

absl::StatusOr<std::vector<ElfRange>> ExecutableSegments(
    const unsigned char* bytes, size_t size) {
  absl::StatusOr<Elf64_Ehdr> header = ReadHeader(bytes, size);
  if (!header.ok()) return header.status();
  if (header->e_phentsize != sizeof(Elf64_Phdr) ||
      !Inside(header->e_phoff, uint64_t{header->e_phnum} * sizeof(Elf64_Phdr),
              size)) {
    return Corrupt("program header table out of bounds");
  }
  std::vector<ElfRange> segments;
  for (unsigned i = 0; i < header->e_phnum; ++i) {
    const Elf64_Phdr segment = ReadAt<Elf64_Phdr>(
        bytes, header->e_phoff + uint64_t{i} * sizeof(Elf64_Phdr));
    if (segment.p_type == PT_LOAD && (segment.p_flags & PF_X) != 0 &&
        segment.p_memsz > 0) {
      segments.push_back(ElfRange{segment.p_vaddr, segment.p_memsz});
    }
  }
  return segments;
}

}  // namespace mxcts::runtime
