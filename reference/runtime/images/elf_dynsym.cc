// Copyright mxcts authors.
//
// Reading .dynsym from ELF bytes. The steps, each checked against the
// buffer before it is read:
//   1. the ELF header: magic, class 64, little-endian, a section header
//      table that lies inside the bytes with entries of Elf64_Shdr size;
//   2. the first SHT_DYNSYM section: entries of Elf64_Sym size, inside the
//      bytes; its sh_link names a SHT_STRTAB section inside the bytes;
//   3. each symbol with a section index (defined): its name offset lies in
//      the string table and the name ends with a NUL inside it.
// Reads go through memcpy, so unaligned input is fine.
//
// Tested by elf_dynsym_test.cc.

#include "reference/runtime/images/elf_dynsym.h"

#include <elf.h>

#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "mcr/mc_runtime_types.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/images/elf_reading.h"

namespace mxcts::runtime {
namespace {

using elf_reading::Corrupt;
using elf_reading::Inside;
using elf_reading::ReadAt;

constexpr char kKernelRecordPrefix[] =
    "__mcdev__ZN13__mc_internal12DeviceKernel";
constexpr char kKernelRecordSuffix[] = "6recordE";
constexpr char kVariableRecordPrefix[] = "__mcdev___mc_variable_record_";

}  // namespace

absl::StatusOr<std::vector<std::string>> ReadDefinedDynamicSymbols(
    const unsigned char* bytes, size_t size) {
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
  if (header.e_shentsize != sizeof(Elf64_Shdr) ||
      !Inside(header.e_shoff, uint64_t{header.e_shnum} * sizeof(Elf64_Shdr),
              size)) {
    return Corrupt("section header table out of bounds");
  }
  auto section = [&](unsigned index) {
    return ReadAt<Elf64_Shdr>(bytes,
                              header.e_shoff + index * sizeof(Elf64_Shdr));
  };
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr dynsym = section(i);
    if (dynsym.sh_type != SHT_DYNSYM) continue;
    if (dynsym.sh_entsize != sizeof(Elf64_Sym) ||
        !Inside(dynsym.sh_offset, dynsym.sh_size, size)) {
      return Corrupt(".dynsym out of bounds");
    }
    if (dynsym.sh_link >= header.e_shnum) {
      return Corrupt(".dynsym names no string table");
    }
    Elf64_Shdr strtab = section(dynsym.sh_link);
    if (strtab.sh_type != SHT_STRTAB ||
        !Inside(strtab.sh_offset, strtab.sh_size, size)) {
      return Corrupt(".dynstr out of bounds");
    }
    const char* strings =
        reinterpret_cast<const char*>(bytes) + strtab.sh_offset;
    std::vector<std::string> names;
    uint64_t count = dynsym.sh_size / sizeof(Elf64_Sym);
    for (uint64_t s = 0; s < count; ++s) {
      Elf64_Sym symbol =
          ReadAt<Elf64_Sym>(bytes, dynsym.sh_offset + s * sizeof(Elf64_Sym));
      if (symbol.st_shndx == SHN_UNDEF || symbol.st_name == 0) continue;
      if (symbol.st_name >= strtab.sh_size) {
        return Corrupt("symbol name out of bounds");
      }
      const char* name = strings + symbol.st_name;
      size_t room = strtab.sh_size - symbol.st_name;
      size_t length = strnlen(name, room);
      if (length == room) return Corrupt("unterminated symbol name");
      names.emplace_back(name, length);
    }
    return names;
  }
  return Corrupt("no .dynsym section");
}

bool IsKernelRecordSymbol(absl::string_view name) {
  return name.size() >
             sizeof(kKernelRecordPrefix) + sizeof(kKernelRecordSuffix) - 2 &&
         absl::StartsWith(name, kKernelRecordPrefix) &&
         absl::EndsWith(name, kKernelRecordSuffix);
}

bool IsVariableRecordSymbol(absl::string_view name) {
  return name.size() > sizeof(kVariableRecordPrefix) - 1 &&
         absl::StartsWith(name, kVariableRecordPrefix);
}

std::string KernelDisplayName(absl::string_view key) {
  constexpr absl::string_view kMarker = "Sig F = ";
  size_t start = key.find(kMarker);
  size_t end = key.rfind(']');
  if (start == absl::string_view::npos || end == absl::string_view::npos ||
      end < start + kMarker.size()) {
    return std::string(key);
  }
  start += kMarker.size();
  // A kernel with internal linkage in relocatable device code has its
  // source's tag after its name ("...; Sig F = k; long long unsigned int
  // Unit = 123]").
  size_t unit = key.find("; ", start);
  if (unit != absl::string_view::npos && unit < end) end = unit;
  return std::string(key.substr(start, end - start));
}

std::string VariableDisplayName(absl::string_view key) {
  return std::string(key.substr(0, key.find('@')));
}

}  // namespace mxcts::runtime
