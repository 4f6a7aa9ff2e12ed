// Copyright mxcts authors.
//
// The structural check of a device image (elf_check.h). Order:
//   1. the ELF header: magic, class, data, version, ET_DYN, the host's
//      machine, header sizes;
//   2. the program headers: inside the bytes; each PT_LOAD's file part
//      inside the bytes, no larger than its memory part, a power-of-two
//      alignment congruent with its offset, in ascending address order and
//      not overlapping; exactly one PT_DYNAMIC inside a PT_LOAD's file part;
//   3. the dynamic section: each entry up to DT_NULL inside PT_DYNAMIC; the
//      tables it names (strings, symbols, hashes, relocations, init and
//      fini arrays, versions) inside the file part of one PT_LOAD;
//   4. every relocation: a type the dynamic loader handles for an image, a
//      target inside a writable PT_LOAD's memory, a symbol index inside the
//      dynamic symbol table;
//   5. the section headers: inside the bytes, each section's contents
//      inside the bytes, its link a section index.
// Reads go through memcpy, so unaligned input is fine; sizes are compared
// by subtraction, so no sum overflows.
//
// Tested by elf_check_test.cc.

#include "reference/module_image/elf_check.h"

#include <elf.h>

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace mxcts::module_image {
namespace {

absl::Status Bad(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("device image: ", why));
}

bool Inside(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

template <typename T>
T ReadAt(const unsigned char* bytes, uint64_t offset) {
  T value;
  std::memcpy(&value, bytes + offset, sizeof(T));
  return value;
}

#if defined(__x86_64__)
constexpr unsigned kMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kMachine = EM_AARCH64;
#else
#error "the reference's device images are built for x86-64 or AArch64"
#endif

bool PowerOfTwo(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

// The relocation types a device image may hold: what the host compiler
// and linker emit for position-independent code.
bool KnownRelocation(uint32_t type) {
#if defined(__x86_64__)
  switch (type) {
    case R_X86_64_NONE:
    case R_X86_64_64:
    case R_X86_64_GLOB_DAT:
    case R_X86_64_JUMP_SLOT:
    case R_X86_64_RELATIVE:
    case R_X86_64_DTPMOD64:
    case R_X86_64_DTPOFF64:
    case R_X86_64_TPOFF64:
    case R_X86_64_IRELATIVE:
      return true;
    default:
      return false;
  }
#else
  switch (type) {
    case R_AARCH64_NONE:
    case R_AARCH64_ABS64:
    case R_AARCH64_GLOB_DAT:
    case R_AARCH64_JUMP_SLOT:
    case R_AARCH64_RELATIVE:
    case R_AARCH64_TLS_DTPMOD:
    case R_AARCH64_TLS_DTPREL:
    case R_AARCH64_TLS_TPREL:
    case R_AARCH64_IRELATIVE:
      return true;
    default:
      return false;
  }
#endif
}

class Checker {
 public:
  Checker(const unsigned char* bytes, size_t size)
      : bytes_(bytes), size_(size) {}

  absl::Status Run() {
    if (bytes_ == nullptr || size_ < sizeof(Elf64_Ehdr)) {
      return Bad("shorter than an ELF header");
    }
    header_ = ReadAt<Elf64_Ehdr>(bytes_, 0);
    if (std::memcmp(header_.e_ident, ELFMAG, SELFMAG) != 0) {
      return Bad("not an ELF object");
    }
    if (header_.e_ident[EI_CLASS] != ELFCLASS64 ||
        header_.e_ident[EI_DATA] != ELFDATA2LSB ||
        header_.e_ident[EI_VERSION] != EV_CURRENT ||
        header_.e_version != EV_CURRENT) {
      return Bad("not a 64-bit little-endian ELF object of version 1");
    }
    if (header_.e_type != ET_DYN) return Bad("not a shared object");
    if (header_.e_machine != kMachine) {
      return Bad(absl::StrFormat("built for ELF machine %u, not this host's %u",
                                 header_.e_machine, kMachine));
    }
    if (header_.e_ehsize != sizeof(Elf64_Ehdr)) {
      return Bad("ELF header size is wrong");
    }
    if (absl::Status s = CheckSegments(); !s.ok()) return s;
    if (absl::Status s = CheckDynamic(); !s.ok()) return s;
    return CheckSections();
  }

 private:
  absl::Status CheckSegments() {
    if (header_.e_phentsize != sizeof(Elf64_Phdr) || header_.e_phnum == 0 ||
        header_.e_phnum == PN_XNUM ||
        !Inside(header_.e_phoff, uint64_t{header_.e_phnum} * sizeof(Elf64_Phdr),
                size_)) {
      return Bad("program header table out of bounds");
    }
    uint64_t end_of_previous = 0;
    int dynamic_count = 0;
    for (unsigned i = 0; i < header_.e_phnum; ++i) {
      Elf64_Phdr p =
          ReadAt<Elf64_Phdr>(bytes_, header_.e_phoff + i * sizeof(Elf64_Phdr));
      if (p.p_type == PT_DYNAMIC) {
        ++dynamic_count;
        dynamic_ = p;
        continue;
      }
      if (p.p_type != PT_LOAD) continue;
      if (!Inside(p.p_offset, p.p_filesz, size_) || p.p_filesz > p.p_memsz ||
          p.p_memsz > (uint64_t{1} << 32) || p.p_vaddr > (uint64_t{1} << 40)) {
        return Bad(absl::StrFormat("loadable segment %u out of bounds", i));
      }
      if (p.p_align > 1 && (!PowerOfTwo(p.p_align) ||
                            p.p_vaddr % p.p_align != p.p_offset % p.p_align)) {
        return Bad(absl::StrFormat("loadable segment %u is misaligned", i));
      }
      if (!loads_.empty() && p.p_vaddr < end_of_previous) {
        return Bad(absl::StrFormat(
            "loadable segment %u overlaps or precedes the one before", i));
      }
      end_of_previous = p.p_vaddr + p.p_memsz;
      loads_.push_back(p);
    }
    if (loads_.empty()) return Bad("no loadable segment");
    if (dynamic_count != 1) return Bad("not exactly one dynamic segment");
    if (dynamic_.p_filesz % sizeof(Elf64_Dyn) != 0 ||
        !InFile(dynamic_.p_vaddr, dynamic_.p_filesz) ||
        !Inside(dynamic_.p_offset, dynamic_.p_filesz, size_)) {
      return Bad("dynamic segment out of bounds");
    }
    return absl::OkStatus();
  }

  // The file offset of [address, address + length) if a PT_LOAD holds it
  // in its file part.
  bool FileOffset(uint64_t address, uint64_t length, uint64_t* offset) const {
    for (const Elf64_Phdr& p : loads_) {
      if (address >= p.p_vaddr &&
          Inside(address - p.p_vaddr, length, p.p_filesz)) {
        *offset = p.p_offset + (address - p.p_vaddr);
        return true;
      }
    }
    return false;
  }
  bool InFile(uint64_t address, uint64_t length) const {
    uint64_t offset;
    return FileOffset(address, length, &offset);
  }
  bool InWritableMemory(uint64_t address, uint64_t length) const {
    for (const Elf64_Phdr& p : loads_) {
      if ((p.p_flags & PF_W) != 0 && address >= p.p_vaddr &&
          Inside(address - p.p_vaddr, length, p.p_memsz)) {
        return true;
      }
    }
    return false;
  }
  bool InMemory(uint64_t address) const {
    for (const Elf64_Phdr& p : loads_) {
      if (address >= p.p_vaddr && address - p.p_vaddr < p.p_memsz) return true;
    }
    return false;
  }

  absl::Status CheckDynamic() {
    uint64_t values[DT_NUM] = {};
    bool present[DT_NUM] = {};
    uint64_t gnu_hash = 0, versym = 0, verneed = 0, verdef = 0;
    bool terminated = false;
    std::vector<uint64_t> needed;
    const uint64_t count = dynamic_.p_filesz / sizeof(Elf64_Dyn);
    for (uint64_t i = 0; i < count; ++i) {
      Elf64_Dyn d =
          ReadAt<Elf64_Dyn>(bytes_, dynamic_.p_offset + i * sizeof(Elf64_Dyn));
      if (d.d_tag == DT_NULL) {
        terminated = true;
        break;
      }
      if (d.d_tag >= 0 && d.d_tag < DT_NUM) {
        values[d.d_tag] = d.d_un.d_val;
        present[d.d_tag] = true;
      }
      if (d.d_tag == DT_NEEDED) needed.push_back(d.d_un.d_val);
      if (d.d_tag == DT_GNU_HASH) gnu_hash = d.d_un.d_ptr;
      if (d.d_tag == DT_VERSYM) versym = d.d_un.d_ptr;
      if (d.d_tag == DT_VERNEED) verneed = d.d_un.d_ptr;
      if (d.d_tag == DT_VERDEF) verdef = d.d_un.d_ptr;
    }
    if (!terminated) return Bad("dynamic section has no end");
    if (!present[DT_STRTAB] || !present[DT_STRSZ] || !present[DT_SYMTAB]) {
      return Bad("dynamic section lacks its string or symbol table");
    }
    if (!InFile(values[DT_STRTAB], values[DT_STRSZ])) {
      return Bad("dynamic string table out of bounds");
    }
    for (uint64_t name : needed) {
      if (name >= values[DT_STRSZ])
        return Bad("needed library name out of bounds");
    }
    if (present[DT_SYMENT] && values[DT_SYMENT] != sizeof(Elf64_Sym)) {
      return Bad("dynamic symbol entries of the wrong size");
    }
    // Addresses the loader follows without a size: each must lie in a
    // segment's file part, with room for the first entry.
    struct Pointer {
      uint64_t address;
      uint64_t length;
      const char* what;
    };
    std::vector<Pointer> pointers = {
        {values[DT_SYMTAB], sizeof(Elf64_Sym), "dynamic symbol table"}};
    if (present[DT_HASH])
      pointers.push_back({values[DT_HASH], 8, "hash table"});
    if (gnu_hash != 0) pointers.push_back({gnu_hash, 16, "GNU hash table"});
    if (versym != 0) pointers.push_back({versym, 2, "symbol versions"});
    if (verneed != 0) pointers.push_back({verneed, 16, "needed versions"});
    if (verdef != 0) pointers.push_back({verdef, 20, "defined versions"});
    for (const Pointer& p : pointers) {
      if (!InFile(p.address, p.length)) {
        return Bad(absl::StrCat(p.what, " out of bounds"));
      }
    }
    // Arrays of function addresses the loader calls.
    for (auto [address_tag, size_tag] :
         {std::pair{DT_INIT_ARRAY, DT_INIT_ARRAYSZ},
          std::pair{DT_FINI_ARRAY, DT_FINI_ARRAYSZ}}) {
      if (!present[address_tag]) continue;
      if (values[size_tag] % 8 != 0 ||
          !InWritableOrFile(values[address_tag], values[size_tag])) {
        return Bad("init or fini array out of bounds");
      }
    }
    for (int tag : {DT_INIT, DT_FINI}) {
      if (present[tag] && !InMemory(values[tag])) {
        return Bad("init or fini function out of bounds");
      }
    }
    // The number of dynamic symbols, for the relocations' symbol indices:
    // what .dynsym's section header says, else the table's room.
    uint64_t symbol_offset = 0;
    FileOffset(values[DT_SYMTAB], sizeof(Elf64_Sym), &symbol_offset);
    symbol_count_ = (size_ - symbol_offset) / sizeof(Elf64_Sym);
    if (present[DT_RELA]) {
      if (!present[DT_RELASZ]) return Bad("relocations without a size");
      if (absl::Status s = CheckRelocations(values[DT_RELA], values[DT_RELASZ]);
          !s.ok()) {
        return s;
      }
    }
    if (present[DT_JMPREL]) {
      if (!present[DT_PLTRELSZ] ||
          (present[DT_PLTREL] && values[DT_PLTREL] != DT_RELA)) {
        return Bad("procedure linkage relocations of the wrong form");
      }
      if (absl::Status s =
              CheckRelocations(values[DT_JMPREL], values[DT_PLTRELSZ]);
          !s.ok()) {
        return s;
      }
    }
    if (present[DT_REL] || present[DT_TEXTREL]) {
      return Bad("relocations of a form device images do not use");
    }
    return absl::OkStatus();
  }

  bool InWritableOrFile(uint64_t address, uint64_t length) const {
    return InWritableMemory(address, length) || InFile(address, length);
  }

  absl::Status CheckRelocations(uint64_t address, uint64_t length) {
    uint64_t offset;
    if (length % sizeof(Elf64_Rela) != 0 ||
        !FileOffset(address, length, &offset)) {
      return Bad("relocation table out of bounds");
    }
    for (uint64_t i = 0; i < length / sizeof(Elf64_Rela); ++i) {
      Elf64_Rela r =
          ReadAt<Elf64_Rela>(bytes_, offset + i * sizeof(Elf64_Rela));
      const uint32_t type = ELF64_R_TYPE(r.r_info);
      if (!KnownRelocation(type)) {
        return Bad(
            absl::StrFormat("relocation %u has unknown type %u", i, type));
      }
      if (!InWritableMemory(r.r_offset, 8)) {
        return Bad(absl::StrFormat(
            "relocation %u writes outside the image's writable memory", i));
      }
      if (ELF64_R_SYM(r.r_info) >= symbol_count_) {
        return Bad(absl::StrFormat("relocation %u names no symbol", i));
      }
    }
    return absl::OkStatus();
  }

  absl::Status CheckSections() {
    if (header_.e_shnum == 0) return absl::OkStatus();
    if (header_.e_shentsize != sizeof(Elf64_Shdr) ||
        !Inside(header_.e_shoff, uint64_t{header_.e_shnum} * sizeof(Elf64_Shdr),
                size_)) {
      return Bad("section header table out of bounds");
    }
    if (header_.e_shstrndx != SHN_UNDEF &&
        header_.e_shstrndx >= header_.e_shnum) {
      return Bad("section name table index out of bounds");
    }
    for (unsigned i = 0; i < header_.e_shnum; ++i) {
      Elf64_Shdr s =
          ReadAt<Elf64_Shdr>(bytes_, header_.e_shoff + i * sizeof(Elf64_Shdr));
      if (s.sh_type != SHT_NOBITS && s.sh_type != SHT_NULL &&
          !Inside(s.sh_offset, s.sh_size, size_)) {
        return Bad(absl::StrFormat("section %u out of bounds", i));
      }
      if (s.sh_link >= header_.e_shnum) {
        return Bad(absl::StrFormat("section %u links to no section", i));
      }
    }
    return absl::OkStatus();
  }

  const unsigned char* bytes_;
  size_t size_;
  Elf64_Ehdr header_{};
  Elf64_Phdr dynamic_{};
  std::vector<Elf64_Phdr> loads_;
  uint64_t symbol_count_ = 0;
};

}  // namespace

absl::Status CheckSharedObject(const unsigned char* bytes, size_t size) {
  return Checker(bytes, size).Run();
}

absl::StatusOr<std::vector<ElfSymbol>> ReadSymbols(const unsigned char* bytes,
                                                   size_t size,
                                                   SymbolTable table) {
  if (bytes == nullptr || size < sizeof(Elf64_Ehdr)) {
    return Bad("shorter than an ELF header");
  }
  Elf64_Ehdr header = ReadAt<Elf64_Ehdr>(bytes, 0);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return Bad("not an ELF object");
  }
  if (header.e_shentsize != sizeof(Elf64_Shdr) ||
      !Inside(header.e_shoff, uint64_t{header.e_shnum} * sizeof(Elf64_Shdr),
              size)) {
    return Bad("section header table out of bounds");
  }
  const uint32_t wanted =
      table == SymbolTable::kDynamic ? SHT_DYNSYM : SHT_SYMTAB;
  auto section = [&](unsigned index) {
    return ReadAt<Elf64_Shdr>(bytes,
                              header.e_shoff + index * sizeof(Elf64_Shdr));
  };
  std::vector<ElfSymbol> symbols;
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr symtab = section(i);
    if (symtab.sh_type != wanted) continue;
    if (symtab.sh_entsize != sizeof(Elf64_Sym) ||
        !Inside(symtab.sh_offset, symtab.sh_size, size)) {
      return Bad("symbol table out of bounds");
    }
    if (symtab.sh_link >= header.e_shnum) {
      return Bad("symbol table names no string table");
    }
    Elf64_Shdr strtab = section(symtab.sh_link);
    if (strtab.sh_type != SHT_STRTAB ||
        !Inside(strtab.sh_offset, strtab.sh_size, size)) {
      return Bad("symbol string table out of bounds");
    }
    const char* strings =
        reinterpret_cast<const char*>(bytes) + strtab.sh_offset;
    const uint64_t count = symtab.sh_size / sizeof(Elf64_Sym);
    for (uint64_t s = 0; s < count; ++s) {
      Elf64_Sym symbol =
          ReadAt<Elf64_Sym>(bytes, symtab.sh_offset + s * sizeof(Elf64_Sym));
      if (symbol.st_shndx == SHN_UNDEF || symbol.st_name == 0) continue;
      if (symbol.st_name >= strtab.sh_size) {
        return Bad("symbol name out of bounds");
      }
      const char* name = strings + symbol.st_name;
      const size_t room = strtab.sh_size - symbol.st_name;
      const size_t length = strnlen(name, room);
      if (length == room) return Bad("unterminated symbol name");
      ElfSymbol entry;
      entry.name.assign(name, length);
      entry.value = symbol.st_value;
      entry.size = symbol.st_size;
      entry.type = ELF64_ST_TYPE(symbol.st_info);
      entry.local = ELF64_ST_BIND(symbol.st_info) == STB_LOCAL;
      symbols.push_back(std::move(entry));
    }
    return symbols;
  }
  return symbols;
}

absl::StatusOr<uint64_t> LoadedValueAt(const unsigned char* bytes, size_t size,
                                       uint64_t address) {
  if (bytes == nullptr || size < sizeof(Elf64_Ehdr)) {
    return Bad("shorter than an ELF header");
  }
  Elf64_Ehdr header = ReadAt<Elf64_Ehdr>(bytes, 0);
  if (header.e_shentsize != sizeof(Elf64_Shdr) ||
      !Inside(header.e_shoff, uint64_t{header.e_shnum} * sizeof(Elf64_Shdr),
              size) ||
      header.e_phentsize != sizeof(Elf64_Phdr) ||
      !Inside(header.e_phoff, uint64_t{header.e_phnum} * sizeof(Elf64_Phdr),
              size)) {
    return Bad("header tables out of bounds");
  }
  auto section = [&](unsigned index) {
    return ReadAt<Elf64_Shdr>(bytes,
                              header.e_shoff + index * sizeof(Elf64_Shdr));
  };
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr rela = section(i);
    if (rela.sh_type != SHT_RELA) continue;
    if (rela.sh_entsize != sizeof(Elf64_Rela) ||
        !Inside(rela.sh_offset, rela.sh_size, size)) {
      return Bad("relocation section out of bounds");
    }
    for (uint64_t r = 0; r < rela.sh_size / sizeof(Elf64_Rela); ++r) {
      Elf64_Rela entry =
          ReadAt<Elf64_Rela>(bytes, rela.sh_offset + r * sizeof(Elf64_Rela));
      if (entry.r_offset != address) continue;
      const uint32_t type = ELF64_R_TYPE(entry.r_info);
#if defined(__x86_64__)
      const bool relative = type == R_X86_64_RELATIVE;
      const bool absolute = type == R_X86_64_64;
#else
      const bool relative = type == R_AARCH64_RELATIVE;
      const bool absolute = type == R_AARCH64_ABS64;
#endif
      if (relative) return static_cast<uint64_t>(entry.r_addend);
      if (absolute && rela.sh_link < header.e_shnum) {
        Elf64_Shdr symbols = section(rela.sh_link);
        const uint64_t at =
            symbols.sh_offset + ELF64_R_SYM(entry.r_info) * sizeof(Elf64_Sym);
        if (symbols.sh_entsize != sizeof(Elf64_Sym) ||
            !Inside(at, sizeof(Elf64_Sym), size) ||
            !Inside(symbols.sh_offset, symbols.sh_size, size)) {
          return Bad("relocation symbol out of bounds");
        }
        return ReadAt<Elf64_Sym>(bytes, at).st_value +
               static_cast<uint64_t>(entry.r_addend);
      }
    }
  }
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr p =
        ReadAt<Elf64_Phdr>(bytes, header.e_phoff + i * sizeof(Elf64_Phdr));
    if (p.p_type != PT_LOAD || address < p.p_vaddr ||
        !Inside(address - p.p_vaddr, 8, p.p_filesz) ||
        !Inside(p.p_offset + (address - p.p_vaddr), 8, size)) {
      continue;
    }
    return ReadAt<uint64_t>(bytes, p.p_offset + (address - p.p_vaddr));
  }
  return absl::NotFoundError("no loadable segment holds the address");
}

}  // namespace mxcts::module_image
