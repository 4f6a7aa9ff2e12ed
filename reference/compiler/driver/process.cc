// Copyright mxcts authors.
//
// RunProcess(): posix_spawnp with file actions that point the child's stdout
// and stderr at pipes when the caller captures them. The parent drains both
// pipes with poll() until both reach end of file, then reaps the child, so a
// child that writes much to one stream while we wait on the other cannot
// block. The pipes are made close-on-exec; dup2 in the child clears that flag
// on the copies that become fds 1 and 2, so no other fd leaks into the tool.
//
// TemporaryDirectory: mkdtemp under $TMPDIR, removed recursively with
// std::filesystem at destruction.
//
// Tested by process_test.cc.

#include "reference/compiler/driver/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"

extern char** environ;

namespace mxcts::driver {
namespace {

absl::Status ErrnoStatus(int error, const std::string& what) {
  std::string message = absl::StrCat(what, ": ", std::strerror(error));
  if (error == ENOENT) return absl::NotFoundError(message);
  if (error == EACCES) return absl::PermissionDeniedError(message);
  return absl::InternalError(message);
}

// A pipe whose ends close when the object goes away.
struct Pipe {
  int read_end = -1;
  int write_end = -1;
  ~Pipe() {
    if (read_end >= 0) close(read_end);
    if (write_end >= 0) close(write_end);
  }
  bool Open() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    read_end = fds[0];
    write_end = fds[1];
    return true;
  }
  void CloseWriteEnd() {
    close(write_end);
    write_end = -1;
  }
};

// Reads both pipes (those with read_end >= 0) to end of file.
void Drain(Pipe* out, std::string* out_text, Pipe* err, std::string* err_text) {
  struct Stream {
    Pipe* pipe;
    std::string* text;
  } streams[2] = {{out, out_text}, {err, err_text}};
  char buffer[1 << 14];
  while (true) {
    pollfd fds[2];
    Stream* owners[2];
    nfds_t count = 0;
    for (Stream& stream : streams) {
      if (stream.pipe->read_end < 0) continue;
      fds[count] = {stream.pipe->read_end, POLLIN, 0};
      owners[count++] = &stream;
    }
    if (count == 0) return;
    if (poll(fds, count, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (nfds_t i = 0; i < count; ++i) {
      if (fds[i].revents == 0) continue;
      ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n > 0) {
        owners[i]->text->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(owners[i]->pipe->read_end);
        owners[i]->pipe->read_end = -1;
      }
    }
  }
}

// Our environment with `overrides` ("NAME=VALUE") replacing or adding
// entries. The strings live in `storage`.
std::vector<char*> MakeEnvironment(const std::vector<std::string>& overrides,
                                   std::vector<std::string>* storage) {
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string text = *entry;
    std::string name = text.substr(0, text.find('=') + 1);
    bool replaced = false;
    for (const std::string& override : overrides) {
      replaced = replaced || override.compare(0, name.size(), name) == 0;
    }
    if (!replaced) storage->push_back(text);
  }
  storage->insert(storage->end(), overrides.begin(), overrides.end());
  std::vector<char*> pointers;
  for (std::string& text : *storage) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

volatile sig_atomic_t pending_interrupt = 0;

void RecordInterrupt(int signal_number) { pending_interrupt = signal_number; }

bool IsSafeForShell(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || std::strchr("-_./=:,+@%", c) != nullptr;
}

}  // namespace

std::string ProcessResult::Describe() const {
  if (signal != 0) {
    return absl::StrCat("signal ", signal, " (", strsignal(signal), ")");
  }
  return absl::StrCat("exit status ", exit_code);
}

void InstallInterruptHandlers() {
  struct sigaction action = {};
  action.sa_handler = RecordInterrupt;
  sigemptyset(&action.sa_mask);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    sigaction(signal_number, &action, nullptr);
  }
}

int PendingInterrupt() { return pending_interrupt; }

absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                         const ProcessOptions& options) {
  if (argv.empty()) return absl::InvalidArgumentError("empty command");
  if (pending_interrupt != 0) return absl::CancelledError("interrupted");
  std::vector<char*> pointers;
  pointers.reserve(argv.size() + 1);
  for (const std::string& word : argv) {
    pointers.push_back(const_cast<char*>(word.c_str()));
  }
  pointers.push_back(nullptr);

  Pipe out, err;
  if ((options.capture_stdout && !out.Open()) ||
      (options.capture_stderr && !err.Open())) {
    return ErrnoStatus(errno, "cannot create a pipe");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (options.capture_stdout) {
    posix_spawn_file_actions_adddup2(&actions, out.write_end, STDOUT_FILENO);
  }
  if (options.capture_stderr) {
    posix_spawn_file_actions_adddup2(&actions, err.write_end, STDERR_FILENO);
  }
  std::vector<std::string> environment_storage;
  std::vector<char*> environment =
      MakeEnvironment(options.environment_overrides, &environment_storage);
  pid_t pid;
  int error = posix_spawnp(&pid, pointers[0], &actions, nullptr,
                           pointers.data(), environment.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    return ErrnoStatus(error, absl::StrCat("cannot run '", argv[0], "'"));
  }
  if (options.capture_stdout) out.CloseWriteEnd();
  if (options.capture_stderr) err.CloseWriteEnd();

  ProcessResult result;
  Drain(&out, &result.stdout_text, &err, &result.stderr_text);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return ErrnoStatus(errno, "waitpid");
  }
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  } else {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

std::string FormatCommand(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& word : argv) {
    if (!line.empty()) line += ' ';
    bool safe = !word.empty();
    for (char c : word) safe = safe && IsSafeForShell(c);
    if (safe) {
      line += word;
      continue;
    }
    line += '\'';
    for (char c : word) {
      if (c == '\'') {
        line += "'\\''";
      } else {
        line += c;
      }
    }
    line += '\'';
  }
  return line;
}

absl::StatusOr<TemporaryDirectory> TemporaryDirectory::Create(
    const std::string& prefix) {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string base = (tmpdir != nullptr && *tmpdir != '\0') ? tmpdir : "/tmp";
  std::error_code ignored;
  std::filesystem::path absolute = std::filesystem::absolute(base, ignored);
  if (!absolute.empty()) base = absolute.string();
  std::string pattern = absl::StrCat(base, "/", prefix, "-XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) {
    return ErrnoStatus(errno,
                       absl::StrCat("cannot create a directory in ", base));
  }
  return TemporaryDirectory(pattern);
}

TemporaryDirectory::TemporaryDirectory(TemporaryDirectory&& other) noexcept
    : path_(std::move(other.path_)), keep_(other.keep_) {
  other.path_.clear();
}

TemporaryDirectory& TemporaryDirectory::operator=(
    TemporaryDirectory&& other) noexcept {
  if (this != &other) {
    Remove();
    path_ = std::move(other.path_);
    keep_ = other.keep_;
    other.path_.clear();
  }
  return *this;
}

TemporaryDirectory::~TemporaryDirectory() { Remove(); }

void TemporaryDirectory::Remove() {
  if (path_.empty() || keep_) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
  path_.clear();
}

std::string TemporaryDirectory::File(const std::string& name) const {
  return absl::StrCat(path_, "/", name);
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr)
    return ErrnoStatus(errno, absl::StrCat("cannot open ", path));
  std::string contents;
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
    contents.append(buffer, count);
  }
  bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return absl::InternalError(absl::StrCat("cannot read ", path));
  return contents;
}

absl::Status WriteFile(const std::string& path, const std::string& contents) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    return ErrnoStatus(errno, absl::StrCat("cannot create ", path));
  }
  bool failed =
      std::fwrite(contents.data(), 1, contents.size(), file) != contents.size();
  failed = (std::fclose(file) != 0) || failed;
  if (failed) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace mxcts::driver
