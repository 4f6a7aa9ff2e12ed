// Copyright mxcts authors.
//
// process.h: how mxcc runs the host tools (g++, objcopy, ld) and where it
// keeps the files passed between them.
//
// Every tool is started with posix_spawnp and an argument vector, never
// through a shell, so no argument is ever re-split or expanded: a source
// named `my file;rm -rf x.cu` is one argument. A tool's stdout and stderr go
// to mxcc's own unless the caller asks to capture them (the device link
// captures stderr to rewrite ld's messages).
//
// Example:
//
//   absl::StatusOr<mxcts::driver::TemporaryDirectory> temp =
//       mxcts::driver::TemporaryDirectory::Create("mxcc");
//   absl::StatusOr<mxcts::driver::ProcessResult> result =
//       mxcts::driver::RunProcess({"g++", "-c", "a.cc", "-o",
//       temp->File("a.o")});
//   if (!result.ok()) ...           // g++ could not be started
//   if (!result->succeeded()) ...   // g++ ran and failed

#ifndef MXCTS_REFERENCE_COMPILER_DRIVER_PROCESS_H_
#define MXCTS_REFERENCE_COMPILER_DRIVER_PROCESS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mxcts::driver {

struct ProcessOptions {
  bool capture_stdout = false;  // else the child writes to our stdout
  bool capture_stderr = false;  // else the child writes to our stderr
  // "NAME=VALUE" entries set in the child's environment on top of ours.
  std::vector<std::string> environment_overrides;
};

struct ProcessResult {
  int exit_code = 0;        // the child's exit status, when it exited
  int signal = 0;           // the signal that ended the child, else 0
  std::string stdout_text;  // when captured
  std::string stderr_text;  // when captured

  bool succeeded() const { return signal == 0 && exit_code == 0; }
  // "exit status 1" or "signal 9 (Killed)".
  std::string Describe() const;
};

// Runs `argv[0]` (looked up on PATH unless it holds a '/') with `argv`, in
// the current directory and environment, and waits for it. Fails with
// NotFoundError (or another code) naming the program when it cannot be
// started, and with CancelledError when an interrupt is pending; a program
// that starts and then fails is a successful call whose result says so.
// `argv` must not be empty.
absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                         const ProcessOptions& options = {});

// Makes SIGINT, SIGTERM and SIGHUP set a flag instead of ending mxcc at
// once, so that temporary files are removed on the way out: a tool that the
// same signal ended fails, and RunProcess() starts nothing more once the
// flag is set. The caller re-raises PendingInterrupt() when it is done.
void InstallInterruptHandlers();

// The signal received since InstallInterruptHandlers(), or 0.
int PendingInterrupt();

// `argv` as one line a shell would read back into the same words: words
// holding only safe characters as they are, others in single quotes.
std::string FormatCommand(const std::vector<std::string>& argv);

// A private directory for intermediate files, created under $TMPDIR (else
// /tmp) with mode 0700 and removed with its contents when the object is
// destroyed, unless Keep() was called. Movable, not copyable.
class TemporaryDirectory {
 public:
  // Creates `<$TMPDIR>/<prefix>-XXXXXX`. Fails naming the directory.
  static absl::StatusOr<TemporaryDirectory> Create(const std::string& prefix);

  TemporaryDirectory(TemporaryDirectory&& other) noexcept;
  TemporaryDirectory& operator=(TemporaryDirectory&& other) noexcept;
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  ~TemporaryDirectory();

  // The directory's absolute path.
  const std::string& path() const { return path_; }
  // The absolute path of `name` inside the directory.
  std::string File(const std::string& name) const;
  // Leaves the directory in place at destruction.
  void Keep() { keep_ = true; }

 private:
  explicit TemporaryDirectory(std::string path) : path_(std::move(path)) {}
  void Remove();

  std::string path_;
  bool keep_ = false;
};

// Reads the whole file at `path`; fails naming it.
absl::StatusOr<std::string> ReadFile(const std::string& path);

// Replaces the file at `path` with `contents`; fails naming it.
absl::Status WriteFile(const std::string& path, const std::string& contents);

}  // namespace mxcts::driver

#endif  // MXCTS_REFERENCE_COMPILER_DRIVER_PROCESS_H_
