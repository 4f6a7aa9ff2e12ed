// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/child_process.h
// -----------------------------------------------------------------------------
//
// A second process for the interprocess (IPC) tests: the test binary runs
// itself again (/proc/self/exe, posix_spawn: never a fork of a process that
// has used the runtime) in a child role, and the two talk over a pair of
// pipes, one line per message. A role is a function the test file defines
// with MX_CHILD_ROLE; the child runs it instead of the tests (from a
// GoogleTest environment, after main has started) and exits with its
// verdict: 0 if the role returned "", else 1 after writing the problems to
// stderr. Handles travel as hex text (ToHex, FromHex).
//
//   MX_CHILD_ROLE(ReadFirstByte) {
//     mcIpcMemHandle_t handle;
//     if (!FromHex(parent.Receive(), &handle)) return "no handle";
//     void* q = nullptr;
//     if (mcIpcOpenMemHandle(&q, handle, 0) != mcSuccess) return "open failed";
//     ...
//     return "";
//   }
//
//   TEST(Ipc, ChildReads) {
//     ChildProcess child("ReadFirstByte");
//     child.Send(ToHex(handle));
//     EXPECT_EQ(child.Wait(), 0);
//   }
//
// The child inherits the environment (the timeline mode among it), minus
// the variables through which Bazel collects results, so that only the
// parent reports; ChildProcess's `environment` adds or replaces variables.
// `argument` reaches the role as `argument`. Receive waits at most 60
// seconds and returns "" on a closed pipe or a timeout, so a child that
// dies does not hang the test; Signal ends a child from outside, as a
// user's Ctrl+C or kill would.
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_CHILD_PROCESS_H_
#define MXCTS_CONFORMANCE_API_TESTING_CHILD_PROCESS_H_

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

namespace mxcts::conformance {

// The descriptors a child reads and writes its parent's messages on.
inline constexpr int kChildReadFd = 100;
inline constexpr int kChildWriteFd = 101;
inline constexpr const char* kChildRoleVariable = "MXCTS_TEST_CHILD_ROLE";
inline constexpr const char* kChildArgumentVariable =
    "MXCTS_TEST_CHILD_ARGUMENT";

// `size` bytes at `data` as lowercase hex.
inline std::string ToHex(const void* data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < size; ++i) {
    unsigned char byte = static_cast<const unsigned char*>(data)[i];
    text += digits[byte >> 4];
    text += digits[byte & 15];
  }
  return text;
}
template <typename T>
std::string ToHex(const T& value) {
  return ToHex(&value, sizeof value);
}

// Fills `size` bytes at `data` from `text` (2 * size hex digits); false if
// `text` is not that.
inline bool FromHex(const std::string& text, void* data, size_t size) {
  if (text.size() != 2 * size) return false;
  auto digit = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (size_t i = 0; i < size; ++i) {
    int high = digit(text[2 * i]), low = digit(text[2 * i + 1]);
    if (high < 0 || low < 0) return false;
    static_cast<unsigned char*>(data)[i] =
        static_cast<unsigned char>(high << 4 | low);
  }
  return true;
}
template <typename T>
bool FromHex(const std::string& text, T* value) {
  return FromHex(text, value, sizeof *value);
}

// The value of `key` in an argument of the form "key=value;key=value"
// (decimal), or `fallback` if it has none.
inline long ChildArgument(const std::string& argument, const std::string& key,
                          long fallback) {
  size_t at = 0;
  while (at < argument.size()) {
    size_t end = argument.find(';', at);
    if (end == std::string::npos) end = argument.size();
    std::string entry = argument.substr(at, end - at);
    if (entry.compare(0, key.size() + 1, key + "=") == 0) {
      return std::strtol(entry.c_str() + key.size() + 1, nullptr, 10);
    }
    at = end + 1;
  }
  return fallback;
}

// One end of the line protocol: Send writes a line, Receive reads one.
class LineChannel {
 public:
  LineChannel(int read_fd, int write_fd)
      : read_fd_(read_fd), write_fd_(write_fd) {}

  // Writes `line` and a newline; false if the other end is gone.
  bool Send(const std::string& line) {
    std::string text = line + "\n";
    size_t done = 0;
    while (done < text.size()) {
      ssize_t n = write(write_fd_, text.data() + done, text.size() - done);
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }
  // The next line without its newline; "" if the other end closed or
  // nothing came within `timeout_ms`.
  std::string Receive(int timeout_ms = 60000) {
    for (;;) {
      size_t newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return line;
      }
      pollfd ready{read_fd_, POLLIN, 0};
      if (poll(&ready, 1, timeout_ms) <= 0) return "";
      char chunk[512];
      ssize_t n = read(read_fd_, chunk, sizeof chunk);
      if (n <= 0) return "";
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

 private:
  int read_fd_;
  int write_fd_;
  std::string buffer_;
};

// A role: what a child runs; returns "" if all went as expected.
using ChildRoleFunction = std::string (*)(LineChannel& parent,
                                          const std::string& argument);

inline std::map<std::string, ChildRoleFunction>& ChildRoles() {
  static std::map<std::string, ChildRoleFunction> roles;
  return roles;
}

inline bool RegisterChildRole(const char* name, ChildRoleFunction role) {
  ChildRoles()[name] = role;
  return true;
}

// In a child, runs its role before any test and exits with its verdict.
class ChildRoleEnvironment : public testing::Environment {
 public:
  void SetUp() override {
    const char* role = getenv(kChildRoleVariable);
    if (role == nullptr) return;
    const char* argument = getenv(kChildArgumentVariable);
    std::string problems = "unknown child role";
    auto it = ChildRoles().find(role);
    if (it != ChildRoles().end()) {
      LineChannel parent(kChildReadFd, kChildWriteFd);
      problems = it->second(parent, argument == nullptr ? "" : argument);
    }
    std::fflush(stdout);
    if (!problems.empty()) {
      std::fprintf(stderr, "child role %s failed: %s\n", role,
                   problems.c_str());
      std::fflush(stderr);
      _exit(1);
    }
    _exit(0);
  }
};

inline const bool child_role_environment_added =
    (testing::AddGlobalTestEnvironment(new ChildRoleEnvironment), true);

// The test binary again, in role `role`, with pipes to it.
class ChildProcess {
 public:
  explicit ChildProcess(const std::string& role,
                        const std::string& argument = "",
                        const std::vector<std::pair<std::string, std::string>>&
                            environment = {}) {
    // A message to a child that has exited fails instead of killing the
    // test.
    signal(SIGPIPE, SIG_IGN);
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0) return;
    if (pipe2(from_child, O_CLOEXEC) != 0) return;
    std::map<std::string, std::string> variables;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      std::string text = *entry;
      size_t equals = text.find('=');
      if (equals == std::string::npos) continue;
      variables[text.substr(0, equals)] = text.substr(equals + 1);
    }
    // Only the parent reports to Bazel.
    for (const char* name :
         {"TEST_PREMATURE_EXIT_FILE", "XML_OUTPUT_FILE", "GTEST_OUTPUT",
          "TEST_SHARD_STATUS_FILE", "TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX",
          "GTEST_SHARD_STATUS_FILE", "GTEST_TOTAL_SHARDS",
          "GTEST_SHARD_INDEX"}) {
      variables.erase(name);
    }
    variables[kChildRoleVariable] = role;
    variables[kChildArgumentVariable] = argument;
    for (const auto& [name, value] : environment) variables[name] = value;
    std::vector<std::string> entries;
    for (const auto& [name, value] : variables) {
      entries.push_back(name + "=" + value);
    }
    std::vector<char*> envp;
    for (std::string& entry : entries) envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::string program = "/proc/self/exe";
    std::string filter = "--gtest_filter=*";
    char* argv[] = {program.data(), filter.data(), nullptr};

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], kChildReadFd);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], kChildWriteFd);
    pid_t pid = -1;
    if (posix_spawn(&pid, program.c_str(), &actions, nullptr, argv,
                    envp.data()) == 0) {
      pid_ = pid;
    }
    posix_spawn_file_actions_destroy(&actions);
    close(to_child[0]);
    close(from_child[1]);
    channel_ = LineChannel(from_child[0], to_child[1]);
    read_fd_ = from_child[0];
    write_fd_ = to_child[1];
  }
  ~ChildProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      Wait();
    }
    if (read_fd_ >= 0) close(read_fd_);
    if (write_fd_ >= 0) close(write_fd_);
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  bool started() const { return pid_ > 0; }
  // Sends `signal` to the child (SIGINT is what Ctrl+C sends); false if it
  // is not running or the signal could not be sent. Wait then reports
  // 128 + the signal if it ended the child.
  bool Signal(int signal) { return pid_ > 0 && kill(pid_, signal) == 0; }
  bool Send(const std::string& line) { return channel_.Send(line); }
  std::string Receive(int timeout_ms = 60000) {
    return channel_.Receive(timeout_ms);
  }
  // Waits for the child to exit: its exit code, or 128 + the signal that
  // ended it; -1 if it never started.
  int Wait() {
    if (pid_ <= 0) return exit_code_;
    int status = 0;
    if (waitpid(pid_, &status, 0) == pid_) {
      exit_code_ = WIFEXITED(status)     ? WEXITSTATUS(status)
                   : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                         : -1;
    }
    pid_ = -1;
    return exit_code_;
  }

 private:
  pid_t pid_ = -1;
  int exit_code_ = -1;
  int read_fd_ = -1;
  int write_fd_ = -1;
  LineChannel channel_{-1, -1};
};

}  // namespace mxcts::conformance

// Defines child role `name`: a function of (LineChannel& parent,
// const std::string& argument) returning "" or the problems found.
#define MX_CHILD_ROLE(name)                                              \
  std::string name##ChildRole(::mxcts::conformance::LineChannel& parent, \
                              const std::string& argument);              \
  [[maybe_unused]] static const bool name##_child_role_registered =      \
      ::mxcts::conformance::RegisterChildRole(#name, &name##ChildRole);  \
  std::string name##ChildRole(                                           \
      [[maybe_unused]] ::mxcts::conformance::LineChannel& parent,        \
      [[maybe_unused]] const std::string& argument)

#endif  // MXCTS_CONFORMANCE_API_TESTING_CHILD_PROCESS_H_
