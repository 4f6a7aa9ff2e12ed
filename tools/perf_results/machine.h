// Copyright mxcts authors.
//
// tools/perf_results/machine.h: the fingerprint of the machine a run was
// measured on, recorded with every run so that a change of machine is not
// mistaken for a change of the code.
//
//   Machine here = LocalMachine();
//   // here.cpu_model == "AMD EPYC 7B13", here.cores == 2, ...

#ifndef MXCTS_TOOLS_PERF_RESULTS_MACHINE_H_
#define MXCTS_TOOLS_PERF_RESULTS_MACHINE_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace mxcts::perf_results {

struct Machine {
  std::string cpu_model;     // "unknown" when it cannot be read
  int cores = 0;             // online logical CPUs
  int64_t memory_bytes = 0;  // physical memory; 0 when unknown
  std::string kernel;        // `uname -sr`; "" when unknown
};

// The machine this process runs on, from /proc/cpuinfo ("model name"),
// /proc/meminfo ("MemTotal"), the online CPU count and uname(2). Never
// fails: what cannot be read is left at its "unknown" value.
Machine LocalMachine();

// The first "model name" of a /proc/cpuinfo text, or "unknown".
std::string CpuModelFromCpuinfo(absl::string_view cpuinfo);

// MemTotal of a /proc/meminfo text in bytes, or 0.
int64_t MemoryBytesFromMeminfo(absl::string_view meminfo);

// One line for people: "AMD EPYC 7B13, 2 cores, 23.4 GiB, Linux 6.1.0".
std::string Describe(const Machine& machine);

}  // namespace mxcts::perf_results

#endif  // MXCTS_TOOLS_PERF_RESULTS_MACHINE_H_
