// Copyright mxcts authors.
//
// Parsing is strict: only decimal digits make a number, so "20ms", " 5" and
// "-1" are not numbers; a number too long for any integer type counts as
// above the limit. The choices for invalid values are the ones the header
// states, each tied to its clause.
//
// Tested by trap_environment_test.cc.

#include "reference/runtime/traps/trap_environment.h"

#include <cstdlib>
#include <cstring>

#include "reference/device/engine.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/traps/fault_classifier.h"

namespace mxcts::runtime {

using mxcts::device::TrapPolicy;

TrapPolicy ParseTrapPolicy(const char* value) {
  // [api.trap.policy.invalid-value-uses-default]
  if (value == nullptr || std::strlen(value) != 1) return TrapPolicy::kFatal;
  switch (value[0]) {
    case '0':
      return TrapPolicy::kOff;
    case '2':
      return TrapPolicy::kFatalAndNumeric;
    default:
      return TrapPolicy::kFatal;
  }
}

unsigned ParseKernelTimeout(const char* value) {
  if (value == nullptr || value[0] == '\0') return 0;
  unsigned long long milliseconds = 0;
  for (const char* c = value; *c != '\0'; ++c) {
    // [api.env.kernel-timeout.out-of-range] Not a decimal number: ignored.
    if (*c < '0' || *c > '9') return 0;
    if (milliseconds <= mxcts::device::kMaxKernelTimeoutMilliseconds) {
      milliseconds = milliseconds * 10 + static_cast<unsigned>(*c - '0');
    }
  }
  // [api.env.kernel-timeout.out-of-range] Above the range: clamped.
  if (milliseconds > mxcts::device::kMaxKernelTimeoutMilliseconds) {
    return mxcts::device::kMaxKernelTimeoutMilliseconds;
  }
  return static_cast<unsigned>(milliseconds);
}

bool ParseCheckedMemory(const char* value) {
  return value != nullptr && std::strcmp(value, "1") == 0;
}

TrapEnvironment ReadTrapEnvironment() {
  TrapEnvironment environment;
  environment.policy = ParseTrapPolicy(std::getenv("MACA_TRAP_HANDLER"));
  environment.kernel_timeout_milliseconds =
      ParseKernelTimeout(std::getenv("MACA_KERNEL_TIMEOUT"));
  environment.checked_memory =
      ParseCheckedMemory(std::getenv("MXCTS_MEMCHECK"));
  return environment;
}

void ApplyTrapEnvironment(const TrapEnvironment& environment) {
  mxcts::device::SetTrapPolicy(environment.policy);
  mxcts::device::SetKernelTimeoutMilliseconds(
      environment.kernel_timeout_milliseconds);
  MemoryManager::Get().SetCheckedMode(environment.checked_memory);
  // [lang.ub.memory.out-of-bounds-shared]
  mxcts::device::SetSharedMemoryChecked(environment.checked_memory);
  mxcts::device::SetFaultClassifier(&ClassifyRuntimeFault);
}

}  // namespace mxcts::runtime
