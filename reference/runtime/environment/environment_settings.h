// Copyright mxcts authors.
//
// reference/runtime/environment/environment_settings.h: the environment
// variables of the runtime guide's table 4.1 (docs/spec/api-environment.md),
// read once per process, validated, and handed to the layers that act on
// them.
//
// The runtime reads every variable at its first use in the process (the
// device table's initialization), never again
// [api.env.general.read-at-initialization]. Parsing is strict: a value is
// one of the documented texts, or a number written as the table writes it
// (decimal digits only; `0x` and hexadecimal digits where the table uses
// hexadecimal), nothing around it. A value that is not valid is reported in
// one warning naming the variable, the value and what applies instead, and
// the default applies [api.env.general.invalid-value-uses-default]
// [api.env.general.invalid-value-warns]; a number above the largest value
// of a timeout is clamped to it, with a warning. With MXLOG_LEVEL=debug one
// line per variable says the setting in force
// [api.env.general.settings-logged-at-debug].
//
// Who acts on what: devices/ (MACA_VISIBLE_DEVICES, MACA_DEVICE_ORDER),
// timeline/ (MACA_LAUNCH_BLOCKING), traps/ and the engine
// (MACA_TRAP_HANDLER, MACA_KERNEL_TIMEOUT, MACA_MONITOR_HANG_TIMEOUT),
// process/ (MACA_MPS_MODE), memory_tracing.h (MACA_HOTSPOT_MEMSTACK). The
// policy variables (MACA_GRAPH_LAUNCH_MODE, MACA_DIRECT_DISPATCH,
// MACA_LAUNCH_MODE, MACA_CPU_THREAD_POLICY, MACA_SYNC_POLICY,
// MACA_PRIORITY_QUEUE_POLICY) are read, validated and kept: the sequential
// reference has no hardware queues, caches or dispatch threads for them to
// change, as their clauses say. The binary cache and module loading read
// their own variables (MACA_CACHE_*, MACA_MODULE_LOADING) right after
// these, logging them in the same words, and MXLOG_LEVEL is the log's
// (reference/logging).
//
//   const EnvironmentSettings& settings = ProcessEnvironment();
//   if (settings.launch_blocking) ...
//
// Thread safety: ProcessEnvironment may be called from any thread; the
// first call reads, the others wait for it.

#ifndef MXCTS_REFERENCE_RUNTIME_ENVIRONMENT_ENVIRONMENT_SETTINGS_H_
#define MXCTS_REFERENCE_RUNTIME_ENVIRONMENT_ENVIRONMENT_SETTINGS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mxcts::runtime {

struct EnvironmentSettings {
  // MACA_VISIBLE_DEVICES as set (devices/visible_devices.h parses it
  // against the devices); nullopt when unset.
  std::optional<std::string> visible_devices;
  // MACA_DEVICE_ORDER: PCI_BUS_ID (true) or FASTEST_FIRST (false, default).
  bool device_order_pci_bus_id = false;
  // MACA_LAUNCH_BLOCKING: 1 makes every launch synchronous.
  bool launch_blocking = false;
  // MACA_TRAP_HANDLER: 0, 1 (default) or 2.
  int trap_handler = 1;
  // MACA_GRAPH_LAUNCH_MODE: 0 (default) or 1.
  int graph_launch_mode = 0;
  // MACA_DIRECT_DISPATCH: 0 (default) or 1.
  int direct_dispatch = 0;
  // MACA_LAUNCH_MODE: 0, 1 (default) or 2.
  int launch_mode = 1;
  // MACA_CPU_THREAD_POLICY: -1, 0 (default), 1 or 2.
  int cpu_thread_policy = 0;
  // MACA_SYNC_POLICY: 0 (default) to 3.
  int sync_policy = 0;
  // MACA_PRIORITY_QUEUE_POLICY: 0 (default: 4 queues per priority) or
  // 0xHNL, 4 bits each for the high, normal and low priority queues.
  unsigned priority_queue_policy = 0;
  // MACA_MPS_MODE: 0 (default) or 1.
  int mps_mode = 0;
  // MACA_HOTSPOT_MEMSTACK: 0 (default), 1 (trace the API's allocations)
  // or 2 (with their call stacks).
  int hotspot_memstack = 0;
  // MACA_KERNEL_TIMEOUT: milliseconds, 0 (default: none) to 60000.
  unsigned kernel_timeout_milliseconds = 0;
  // MACA_MONITOR_HANG_TIMEOUT: seconds, 0 (default: off) to 0xFFFF.
  unsigned monitor_hang_timeout_seconds = 0;
};

// What reading the environment found: the settings, one warning per
// variable whose value is not valid, and one line per variable for the
// debug log.
struct EnvironmentReading {
  EnvironmentSettings settings;
  std::vector<std::string> warnings;
  std::vector<std::string> setting_lines;
};

// Reads the variables through `lookup` (null: unset). Logs nothing.
EnvironmentReading ReadEnvironment(
    const std::function<const char*(const char*)>& lookup);

// The process's settings: the first call reads the environment, logs the
// warnings (warning level) and the settings (debug level); every call
// returns the same object.
const EnvironmentSettings& ProcessEnvironment();

// The names of the variables this package reads, in table 4.1's order.
std::vector<std::string> EnvironmentVariableNames();

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_ENVIRONMENT_ENVIRONMENT_SETTINGS_H_
