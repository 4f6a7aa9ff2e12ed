// Copyright mxcts authors.
//
// reference/rtc/program.h: an mcrtc program (mcrtcProgram points at one)
// and the table of live programs.
//
// A program holds what mcrtcCreateProgram copied (source, name, headers),
// the name expressions added before compilation, and the results of its
// last compilation (log, module image, lowered names). The table knows
// which handles are live, so that a null, destroyed or made-up handle is
// MCRTC_ERROR_INVALID_PROGRAM instead of a crash
// [api.rtc.program.invalid-handle-invalid-program]. Each program has its
// own lock, so distinct programs compile at once while calls on one
// program are serialized [api.rtc.thread-safety.distinct-programs].
//
// Tested by conformance/api/compilation.

#ifndef MXCTS_REFERENCE_RTC_PROGRAM_H_
#define MXCTS_REFERENCE_RTC_PROGRAM_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"

namespace mxcts::rtc {

struct Program {
  absl::Mutex mu;
  std::string source;
  std::string name;
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::string> name_expressions ABSL_GUARDED_BY(mu);
  bool compiled ABSL_GUARDED_BY(mu) = false;  // successfully
  bool compile_attempted ABSL_GUARDED_BY(mu) = false;
  std::string log ABSL_GUARDED_BY(mu);
  std::string image ABSL_GUARDED_BY(mu);
  // Lowered name of each expression, by expression text.
  absl::flat_hash_map<std::string, std::string> lowered ABSL_GUARDED_BY(mu);
};

class ProgramTable {
 public:
  static ProgramTable& Get();
  // Takes `program`, returns its handle value.
  Program* Add(std::unique_ptr<Program> program);
  // The live program at `handle`, or null. The program stays alive while
  // the caller uses it: only Remove destroys programs, and a program must
  // not be destroyed while another call uses it.
  Program* Find(const void* handle);
  // Destroys the program at `handle`; false if it is not live.
  bool Remove(const void* handle);

 private:
  absl::Mutex mu_;
  absl::flat_hash_map<const void*, std::unique_ptr<Program>> programs_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::rtc

#endif  // MXCTS_REFERENCE_RTC_PROGRAM_H_
