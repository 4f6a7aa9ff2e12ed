// Copyright mxcts authors.
//
// One child, watched. fork() rather than posix_spawn: the child must join a
// process group of its own, ask to die with its parent and send stderr into
// the same pipe as stdout before exec. A second, close-on-exec pipe carries
// exec's errno back, so "cannot run" is told apart from a binary that ran
// and exited 127.
//
// The parent loops on poll() over the output pipe, with a timeout that is
// the earlier of the stall deadline and a short tick; every tick also asks
// waitpid(WNOHANG) whether the child has ended, because the pipe may stay
// open after it (a grandchild that kept it) or close before it (a child
// that closed its output and went on). The deadline moves whenever the
// progress shows a new marker. Once the child has ended, the pipe is
// drained, and the group is killed so that nothing lingers.
//
// Tested by case_isolation_cli_test.sh.

#include "conformance/testing/monitored_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

extern char** environ;

namespace mxcts::conformance {
namespace {

using Clock = std::chrono::steady_clock;

// The running child's process group, for the signal handler.
volatile sig_atomic_t running_group = 0;

void KillGroupAndDie(int signal_number) {
  if (running_group > 0) kill(-running_group, SIGKILL);
  std::signal(signal_number, SIG_DFL);
  raise(signal_number);
}

void InstallHandlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
    std::signal(signal_number, KillGroupAndDie);
  }
}

// In the child, after fork: never returns.
[[noreturn]] void ExecChild(const std::vector<std::string>& argv,
                            const std::vector<std::string>& environment,
                            int output_fd, int error_fd, pid_t parent) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent is already gone
  for (int signal_number : {SIGTERM, SIGINT, SIGHUP, SIGPIPE}) {
    std::signal(signal_number, SIG_DFL);
  }
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  close(output_fd);
  std::vector<char*> args;
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env;
  for (const std::string& entry : environment) {
    env.push_back(const_cast<char*>(entry.c_str()));
  }
  env.push_back(nullptr);
  execve(args[0], args.data(), env.data());
  const int error = errno;
  ssize_t ignored = write(error_fd, &error, sizeof(error));
  (void)ignored;
  _exit(127);
}

// Reads what the pipe holds now; false at end of file.
bool ReadAvailable(int fd,
                   const std::function<void(absl::string_view)>& on_output) {
  char buffer[65536];
  while (true) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n > 0) {
      on_output(absl::string_view(buffer, static_cast<size_t>(n)));
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return true;  // EAGAIN: nothing more for now
  }
}

}  // namespace

std::vector<std::string> CurrentEnvironment() {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    environment.emplace_back(*entry);
  }
  return environment;
}

std::vector<std::string> WithoutVariables(
    std::vector<std::string> environment,
    const std::vector<std::string>& names) {
  std::vector<std::string> kept;
  for (std::string& entry : environment) {
    bool drop = false;
    for (const std::string& name : names) {
      if (absl::StartsWith(entry, name + "=")) drop = true;
    }
    if (!drop) kept.push_back(std::move(entry));
  }
  return kept;
}

std::string SignalName(int signal_number) {
  switch (signal_number) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGSYS:
      return "SIGSYS";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    case SIGALRM:
      return "SIGALRM";
    default:
      return absl::StrCat("signal ", signal_number);
  }
}

ChildEnd RunMonitoredChild(
    const std::vector<std::string>& argv,
    const std::vector<std::string>& environment, int stall_seconds,
    const std::function<void(absl::string_view)>& on_output,
    const GtestProgress* progress) {
  ChildEnd end;
  if (argv.empty()) {
    end.error = "no command";
    return end;
  }
  InstallHandlers();
  int output[2];
  int exec_error[2];
  if (pipe2(output, O_CLOEXEC) != 0 || pipe2(exec_error, O_CLOEXEC) != 0) {
    end.error = absl::StrCat("pipe: ", std::strerror(errno));
    return end;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    end.error = absl::StrCat("fork: ", std::strerror(errno));
    return end;
  }
  if (pid == 0) ExecChild(argv, environment, output[1], exec_error[1], parent);

  setpgid(pid, pid);  // also here, so the group exists before any kill
  running_group = pid;
  close(output[1]);
  close(exec_error[1]);
  int error = 0;
  if (read(exec_error[0], &error, sizeof(error)) == sizeof(error)) {
    close(exec_error[0]);
    close(output[0]);
    waitpid(pid, nullptr, 0);
    running_group = 0;
    end.error =
        absl::StrCat("cannot run ", argv[0], ": ", std::strerror(error));
    return end;
  }
  close(exec_error[0]);
  end.started = true;
  fcntl(output[0], F_SETFL, fcntl(output[0], F_GETFL) | O_NONBLOCK);

  const auto limit = std::chrono::seconds(stall_seconds);
  auto deadline = Clock::now() + limit;
  size_t seen_events = progress != nullptr ? progress->events() : 0;
  bool open = true;
  int status = 0;
  while (true) {
    const auto now = Clock::now();
    int wait_ms = open ? 1000 : 10;
    if (stall_seconds > 0 && !end.timed_out) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)
              .count();
      wait_ms = static_cast<int>(
          std::max<long long>(0, std::min<long long>(wait_ms, left)));
    }
    pollfd poll_fd = {output[0], POLLIN, 0};
    const int ready = poll(open ? &poll_fd : nullptr, open ? 1 : 0, wait_ms);
    if (ready > 0) open = ReadAvailable(output[0], on_output);
    if (progress != nullptr && progress->events() != seen_events) {
      seen_events = progress->events();
      deadline = Clock::now() + limit;
    }
    const pid_t waited = waitpid(pid, &status, WNOHANG);
    if (waited == pid) break;
    // Once killed, the loop only waits for the child to be reaped (a process
    // in the kernel, a device call, may take a moment to die).
    if (stall_seconds > 0 && Clock::now() >= deadline && !end.timed_out) {
      end.timed_out = true;
      kill(-pid, SIGKILL);
    }
  }
  if (open) ReadAvailable(output[0], on_output);
  kill(-pid, SIGKILL);  // whatever of the group is left
  running_group = 0;
  close(output[0]);
  if (WIFSIGNALED(status)) {
    end.signal = WTERMSIG(status);
  } else {
    end.exit_code = WEXITSTATUS(status);
  }
  return end;
}

}  // namespace mxcts::conformance
