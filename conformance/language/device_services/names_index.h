// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/language/device_services/names_index.h
// -----------------------------------------------------------------------------
//
// Whether a diagnostic names a block or thread index, in whatever wording
// the implementation chose. The spec requires a failed device assertion's
// message to name the block index and the thread index, each as its three
// components [lang.assert.failure.message-contents], but not how: the
// reference writes "block (0,0,0) thread (3,0,0)", another implementation
// "block: [0,0,0], thread: [3,0,0]" or "threadIdx = (3, 0, 0)". What every
// such wording shares, and what this looks for, is the word ("block",
// "thread") followed by the three components, in order, before any other
// number:
//
//   NamesIndex(err, "thread", {3, 0, 0});  // true for each wording above
//   NamesIndex(err, "thread", {4, 0, 0});  // false for each
//
// A check of the reference's exact wording belongs under
// Claimed("reference_choices") (conformance/testing/claimed.h).

#ifndef MXCTS_CONFORMANCE_LANGUAGE_DEVICE_SERVICES_NAMES_INDEX_H_
#define MXCTS_CONFORMANCE_LANGUAGE_DEVICE_SERVICES_NAMES_INDEX_H_

#include <cctype>
#include <cstddef>
#include <string>

namespace mxcts::conformance {

// The three components of a block or thread index.
struct IndexComponents {
  unsigned x = 0;
  unsigned y = 0;
  unsigned z = 0;
};

namespace names_index_internal {

inline bool IsWordCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

inline bool IsDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Reads the decimal number at `*at` and moves past it; false where there
// is none.
inline bool ReadNumber(const std::string& text, size_t* at,
                       unsigned long* value) {
  if (*at >= text.size() || !IsDigit(text[*at])) return false;
  *value = 0;
  while (*at < text.size() && IsDigit(text[*at])) {
    *value = *value * 10 + static_cast<unsigned long>(text[*at] - '0');
    ++*at;
  }
  return true;
}

// Moves past spaces and tabs.
inline void SkipBlanks(const std::string& text, size_t* at) {
  while (*at < text.size() && (text[*at] == ' ' || text[*at] == '\t')) ++*at;
}

// True where the first number after `*at` (reached within `window`
// characters that are neither digits nor line breaks) starts the list
// "x,y,z" of `index`, blanks allowed around the commas.
inline bool ComponentsFollow(const std::string& text, size_t at,
                             const IndexComponents& index) {
  constexpr size_t kWindow = 16;
  const size_t limit = at + kWindow;
  while (at < text.size() && at < limit && !IsDigit(text[at]) &&
         text[at] != '\n') {
    ++at;
  }
  const unsigned long expected[] = {index.x, index.y, index.z};
  for (int component = 0; component < 3; ++component) {
    if (component > 0) {
      SkipBlanks(text, &at);
      if (at >= text.size() || text[at] != ',') return false;
      ++at;
      SkipBlanks(text, &at);
    }
    unsigned long value = 0;
    if (!ReadNumber(text, &at, &value) || value != expected[component]) {
      return false;
    }
  }
  return true;
}

inline std::string Lower(std::string text) {
  for (char& c : text) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return text;
}

}  // namespace names_index_internal

// True where `text` names `index` after the word `label` (lower case:
// "block" or "thread"): the word in any case, at the start of a word (so
// "threadIdx" counts and "CheckThreadIsNot" does not), then, within a few
// characters without digits or line breaks, the components "x,y,z" in any
// brackets.
inline bool NamesIndex(const std::string& text, const std::string& label,
                       const IndexComponents& index) {
  using names_index_internal::ComponentsFollow;
  using names_index_internal::IsWordCharacter;
  const std::string lower = names_index_internal::Lower(text);
  for (size_t at = lower.find(label); at != std::string::npos;
       at = lower.find(label, at + 1)) {
    if (at > 0 && IsWordCharacter(lower[at - 1])) continue;
    if (ComponentsFollow(lower, at + label.size(), index)) return true;
  }
  return false;
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_LANGUAGE_DEVICE_SERVICES_NAMES_INDEX_H_
