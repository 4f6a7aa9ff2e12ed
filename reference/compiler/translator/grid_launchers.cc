// Copyright mxcts authors.
//
// Finding the functions that launch grids (grid_launchers.h): one pass over
// each definition's body collects whether it launches and which names it
// calls (a name followed by `(`, or by template arguments and `(`); then
// the launching set grows until no caller is added.
//
// Tested by grid_launchers_test.cc.

#include "reference/compiler/translator/grid_launchers.h"

#include <map>
#include <string_view>

namespace mxcts::compiler::translator_internal {
namespace {

bool IsLaunchEntryPoint(std::string_view name) {
  return name == "mcLaunchDevice" || name == "mcLaunchDeviceV2" ||
         name == "mcGetParameterBuffer" || name == "mcGetParameterBufferV2";
}

struct Body {
  bool launches = false;
  std::set<std::string> calls;
};

Body ReadBody(const TokenStream& s, int begin, int end) {
  Body body;
  for (int k = begin; k < end; ++k) {
    if (s.IsLaunchOpen(k)) {
      body.launches = true;
      continue;
    }
    if (!s.IsName(k) || s.Is(k - 1, ".") || s.Is(k - 1, "->")) continue;
    int after = k + 1;
    if (s.Is(after, "<")) {
      const int close = s.MatchAngle(after, end);
      if (close > after) after = close + 1;
    }
    if (!s.Is(after, "(")) continue;
    const std::string name(s.at(k).text);
    if (IsLaunchEntryPoint(name)) {
      body.launches = true;
    } else {
      body.calls.insert(name);
    }
  }
  return body;
}

}  // namespace

std::set<std::string> FindGridLaunchers(const Context& c) {
  const TokenStream& s = c.s;
  // Function name -> what its definitions (all overloads) do.
  std::map<std::string, Body> bodies;
  for (const FunctionDeclaration& f : c.index.functions) {
    if (!f.is_definition() || f.system_header) continue;
    Body read = ReadBody(s, f.body_open, f.body_end);
    Body& body = bodies[std::string(s.at(f.name).text)];
    body.launches = body.launches || read.launches;
    body.calls.insert(read.calls.begin(), read.calls.end());
  }
  std::set<std::string> launchers;
  for (const auto& [name, body] : bodies) {
    if (body.launches) launchers.insert(name);
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, body] : bodies) {
      if (launchers.count(name) != 0) continue;
      for (const std::string& callee : body.calls) {
        if (launchers.count(callee) != 0) {
          launchers.insert(name);
          grew = true;
          break;
        }
      }
    }
  }
  return launchers;
}

}  // namespace mxcts::compiler::translator_internal
