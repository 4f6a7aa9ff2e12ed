// Copyright mxcts authors.
//
// The MACA_ variables come parsed from the environment settings (which warn
// about invalid values); MXCTS_MEMCHECK, the reference's own, is read here.
//
// Tested by trap_environment_test.cc.

#include "reference/runtime/traps/trap_environment.h"

#include <cstdlib>
#include <cstring>

#include "reference/device/engine.h"
#include "reference/runtime/environment/environment_settings.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/traps/fault_classifier.h"

namespace mxcts::runtime {

using mxcts::device::TrapPolicy;

bool ParseCheckedMemory(const char* value) {
  return value != nullptr && std::strcmp(value, "1") == 0;
}

TrapEnvironment ReadTrapEnvironment() {
  TrapEnvironment environment;
  const EnvironmentSettings& settings = ProcessEnvironment();
  // [api.env.trap-handler.values]
  environment.policy = static_cast<TrapPolicy>(settings.trap_handler);
  // [api.env.kernel-timeout.values]
  environment.kernel_timeout_milliseconds =
      settings.kernel_timeout_milliseconds;
  // [api.env.monitor-hang-timeout.values]
  environment.monitor_hang_timeout_seconds =
      settings.monitor_hang_timeout_seconds;
  environment.checked_memory =
      ParseCheckedMemory(std::getenv("MXCTS_MEMCHECK"));
  return environment;
}

void ApplyTrapEnvironment(const TrapEnvironment& environment) {
  mxcts::device::SetTrapPolicy(environment.policy);
  mxcts::device::SetKernelTimeoutMilliseconds(
      environment.kernel_timeout_milliseconds);
  mxcts::device::SetHangTimeoutSeconds(
      environment.monitor_hang_timeout_seconds);
  MemoryManager::Get().SetCheckedMode(environment.checked_memory);
  // [lang.ub.memory.out-of-bounds-shared]
  mxcts::device::SetSharedMemoryChecked(environment.checked_memory);
  mxcts::device::SetFaultClassifier(&ClassifyRuntimeFault);
}

}  // namespace mxcts::runtime
