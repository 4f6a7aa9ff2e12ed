// Copyright mxcts authors.
//
// The trace names code with dladdr: exported symbols (the runtime's, shared
// libraries', a program linked with -rdynamic) by name, anything else by
// its object file and the offset into it, which addr2line turns into a
// source line. The stack of MACA_HOTSPOT_MEMSTACK=2 comes from backtrace(3),
// whose first frames (this file and the entry point) are dropped.
//
// Tested by memory_tracing_test.cc and conformance/api/environment.

#include "reference/runtime/environment/memory_tracing.h"

#include <dlfcn.h>
#include <execinfo.h>

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/logging/log.h"
#include "reference/runtime/environment/environment_settings.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

constexpr int kMaxStackFrames = 32;
// backtrace's frames inside the trace: TraceMemoryCall and the entry point.
constexpr int kTraceFrames = 2;

}  // namespace

bool MemoryTracingEnabled() {
  return ProcessEnvironment().hotspot_memstack != 0 &&
         logging::LogEnabled(logging::Severity::kInfo);
}

std::string DescribeCodeAddress(const void* address) {
  Dl_info info{};
  if (address == nullptr || dladdr(address, &info) == 0) {
    return absl::StrFormat("%p", address);
  }
  const uintptr_t at = reinterpret_cast<uintptr_t>(address);
  const char* object = info.dli_fname != nullptr ? info.dli_fname : "?";
  if (info.dli_sname != nullptr && info.dli_saddr != nullptr) {
    return absl::StrFormat("%s+0x%x (%s)", info.dli_sname,
                           at - reinterpret_cast<uintptr_t>(info.dli_saddr),
                           object);
  }
  return absl::StrFormat("%s+0x%x", object,
                         at - reinterpret_cast<uintptr_t>(info.dli_fbase));
}

void TraceMemoryCall(const char* api, mcError_t result, const void* pointer,
                     size_t bytes, const void* caller) {
  if (!MemoryTracingEnabled()) return;
  // [api.env.hotspot-memstack.reference-trace]
  std::string line = absl::StrCat("memory trace: ", api);
  if (bytes > 0 || pointer == nullptr) {
    absl::StrAppend(&line, "(", bytes,
                    " bytes) = ", absl::StrFormat("%p", pointer));
  } else {
    absl::StrAppend(&line, "(", absl::StrFormat("%p", pointer), ")");
  }
  absl::StrAppend(&line, ", ", ErrorName(result), ", called from ",
                  DescribeCodeAddress(caller));
  if (ProcessEnvironment().hotspot_memstack == 2) {
    void* frames[kMaxStackFrames];
    const int count = backtrace(frames, kMaxStackFrames);
    absl::StrAppend(&line, "; stack:");
    for (int i = kTraceFrames; i < count; ++i) {
      absl::StrAppend(&line, i == kTraceFrames ? " " : " <- ",
                      DescribeCodeAddress(frames[i]));
    }
  }
  logging::WriteLog("MCR", logging::Severity::kInfo, __FILE__, __LINE__, line);
}

}  // namespace mxcts::runtime
