// Copyright mxcts authors.
//
// The table of live mcrtc programs (program.h).
//
// Tested by conformance/api/compilation.

#include "reference/rtc/program.h"

namespace mxcts::rtc {

ProgramTable& ProgramTable::Get() {
  static ProgramTable* table = new ProgramTable;
  return *table;
}

Program* ProgramTable::Add(std::unique_ptr<Program> program) {
  Program* raw = program.get();
  absl::MutexLock lock(&mu_);
  programs_.emplace(raw, std::move(program));
  return raw;
}

Program* ProgramTable::Find(const void* handle) {
  absl::MutexLock lock(&mu_);
  auto it = programs_.find(handle);
  return it == programs_.end() ? nullptr : it->second.get();
}

bool ProgramTable::Remove(const void* handle) {
  std::unique_ptr<Program> gone;
  absl::MutexLock lock(&mu_);
  auto it = programs_.find(handle);
  if (it == programs_.end()) return false;
  gone = std::move(it->second);
  programs_.erase(it);
  return true;
}

}  // namespace mxcts::rtc
