// Copyright mxcts authors.
//
// Lowered names (lowered_names.h). A probe's `tag` is a constant pointer,
// placed by the device link in relocated read-only data: its value is the
// addend of an R_*_RELATIVE relocation, an address in the image. Several
// symbols may name that address (gcc adds `name.localalias` for a local
// alias of a global function): names with a dot are not symbols a program
// can ask for, and of the rest the shortest is taken. mxcc's device prefix
// (`__mcdev_`) is removed.
//
// Tested by lowered_names_test.cc and conformance/api/compilation.

#include "reference/rtc/lowered_names.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "reference/module_image/elf_check.h"

namespace mxcts::rtc {
namespace {

constexpr absl::string_view kDevicePrefix = "__mcdev_";
constexpr absl::string_view kProbePrefix = "_ZN15__mcrtc_loweredILi";

// True if `expression` is a name (`kernel<float>`, `ns::table`) rather than
// a pointer expression (`&kernel<int>`, a cast): a name gets `&`.
bool NamesAnEntity(absl::string_view expression) {
  if (expression.empty()) return false;
  const char first = expression.front();
  if (!absl::ascii_isalpha(first) && first != '_' && first != ':') return false;
  for (absl::string_view cast :
       {"static_cast", "reinterpret_cast", "const_cast"}) {
    if (absl::StartsWith(expression, cast)) return false;
  }
  return true;
}

}  // namespace

std::string ProbeSource(const std::vector<std::string>& expressions) {
  if (expressions.empty()) return "";
  std::string text =
      "\n#line 1 \"<mcrtc name expressions>\"\n"
      "template <int __mcrtc_index, auto __mcrtc_entity> struct "
      "__mcrtc_lowered { static constexpr decltype(__mcrtc_entity) tag = "
      "__mcrtc_entity; };\n";
  for (size_t i = 0; i < expressions.size(); ++i) {
    absl::string_view expression = absl::StripAsciiWhitespace(expressions[i]);
    absl::StrAppend(&text, "template struct __mcrtc_lowered<", i, ", ",
                    NamesAnEntity(expression) ? "&(" : "(", expression,
                    ")>;\n");
  }
  return text;
}

bool IsProbe(absl::string_view symbol, size_t index) {
  if (absl::StartsWith(symbol, kDevicePrefix)) {
    symbol.remove_prefix(kDevicePrefix.size());
  }
  return absl::StartsWith(symbol, absl::StrCat(kProbePrefix, index, "E"));
}

absl::StatusOr<std::vector<std::string>> LowerNames(const unsigned char* image,
                                                    size_t size, size_t count) {
  std::vector<std::string> names(count);
  if (count == 0) return names;
  absl::StatusOr<std::vector<module_image::ElfSymbol>> exported =
      module_image::ReadSymbols(image, size,
                                module_image::SymbolTable::kDynamic);
  if (!exported.ok()) return exported.status();
  absl::StatusOr<std::vector<module_image::ElfSymbol>> all =
      module_image::ReadSymbols(image, size,
                                module_image::SymbolTable::kStatic);
  if (!all.ok()) return all.status();
  // The names a program may ask for, by address.
  absl::flat_hash_map<uint64_t, std::string> by_address;
  for (const module_image::ElfSymbol& symbol : *all) {
    if (!absl::StartsWith(symbol.name, kDevicePrefix) ||
        absl::StrContains(symbol.name, '.') ||
        absl::StartsWith(symbol.name.substr(kDevicePrefix.size()),
                         kProbePrefix)) {
      continue;
    }
    std::string name = symbol.name.substr(kDevicePrefix.size());
    auto [it, inserted] = by_address.try_emplace(symbol.value, name);
    if (!inserted && name.size() < it->second.size()) it->second = name;
  }
  for (size_t i = 0; i < count; ++i) {
    const module_image::ElfSymbol* probe = nullptr;
    for (const module_image::ElfSymbol& symbol : *exported) {
      if (IsProbe(symbol.name, i)) {
        probe = &symbol;
        break;
      }
    }
    if (probe == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the device image has no probe for name expression ", i));
    }
    absl::StatusOr<uint64_t> target =
        module_image::LoadedValueAt(image, size, probe->value);
    if (!target.ok()) return target.status();
    auto it = by_address.find(*target);
    if (it == by_address.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("no symbol names the entity of name expression ", i));
    }
    names[i] = it->second;
  }
  return names;
}

}  // namespace mxcts::rtc
