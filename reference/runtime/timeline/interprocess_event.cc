// Copyright mxcts authors.
//
// The shared page of an interprocess event (interprocess_event.h). The page
// holds lock-free 64-bit atomics, which are address-free on the platforms
// the reference runs on, so the two processes' mappings of one page at
// different addresses operate on the same words:
//
//   magic       identifies the page (checked by Adopt)
//   latest      the latest generation taken (fetch_add at each record)
//   completed   the highest generation whose record has run (a CAS maximum)
//   recorders   a ring of (generation << 22 | pid) for the last 64 records,
//               so a waiter can tell whether the process that will run the
//               record it waits for still exists (pids are below 2^22)
//
// Tested by interprocess_event_test.cc.

#include "reference/runtime/timeline/interprocess_event.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {

constexpr uint64_t kPageMagic = 0x6d78637473657631;  // "mxctsev1"
constexpr int kRecorderSlots = 64;
constexpr int kPidBits = 22;
constexpr uint64_t kPidMask = (uint64_t{1} << kPidBits) - 1;

struct InterprocessEventPage {
  std::atomic<uint64_t> magic;
  std::atomic<uint64_t> latest;
  std::atomic<uint64_t> completed;
  std::atomic<uint64_t> recorders[kRecorderSlots];
};
static_assert(std::atomic<uint64_t>::is_always_lock_free,
              "the shared page needs address-free atomics");

namespace {

size_t PageBytes() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

std::atomic<uint64_t> next_serial{1};

}  // namespace

std::optional<uint64_t> ProcessStartTime(int pid) {
  if (pid <= 0) return std::nullopt;
  std::ifstream file(absl::StrCat("/proc/", pid, "/stat"));
  std::string line;
  if (!std::getline(file, line)) return std::nullopt;
  // The command name (field 2) may hold spaces and parentheses: the fields
  // after it start after its last ')'.
  size_t close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 1));
  std::string state;
  fields >> state;  // field 3
  if (state == "Z" || state == "X" || state == "x") return std::nullopt;
  std::string skipped;
  for (int field = 4; field < 22; ++field) fields >> skipped;
  uint64_t start_time = 0;
  if (!(fields >> start_time)) return std::nullopt;
  return start_time;
}

std::string InterprocessEventState::FileName(int pid, uint64_t serial) {
  return absl::StrCat("mxcts-ipc-event-", pid, "-", serial);
}

absl::StatusOr<std::shared_ptr<InterprocessEventState>>
InterprocessEventState::Create() {
  InterprocessEventOrigin origin;
  origin.pid = getpid();
  std::optional<uint64_t> start = ProcessStartTime(origin.pid);
  origin.start_time = start.value_or(0);
  origin.serial = next_serial.fetch_add(1);
  const std::string name = FileName(origin.pid, origin.serial);
  int fd = memfd_create(name.c_str(), MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(PageBytes())) != 0) {
    if (fd >= 0) close(fd);
    return McStatus(mcErrorMemoryAllocation,
                    "cannot create the shared state of an interprocess event");
  }
  void* mapped =
      mmap(nullptr, PageBytes(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (mapped == MAP_FAILED) {
    close(fd);
    return McStatus(mcErrorMemoryAllocation,
                    "cannot map the shared state of an interprocess event");
  }
  // The file starts zeroed: every counter is 0, the event never recorded.
  auto* page = static_cast<InterprocessEventPage*>(mapped);
  page->magic.store(kPageMagic, std::memory_order_release);
  origin.fd = fd;
  return std::shared_ptr<InterprocessEventState>(
      new InterprocessEventState(page, origin, /*created_here=*/true));
}

absl::StatusOr<std::shared_ptr<InterprocessEventState>>
InterprocessEventState::Adopt(int fd, const InterprocessEventOrigin& origin) {
  struct stat status;
  void* mapped = MAP_FAILED;
  if (fstat(fd, &status) == 0 &&
      static_cast<size_t>(status.st_size) == PageBytes()) {
    mapped =
        mmap(nullptr, PageBytes(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  close(fd);  // the mapping keeps the file
  if (mapped == MAP_FAILED) {
    return McStatus(mcErrorInvalidValue,
                    "the handle's file is not an interprocess event");
  }
  auto* page = static_cast<InterprocessEventPage*>(mapped);
  if (page->magic.load(std::memory_order_acquire) != kPageMagic) {
    munmap(mapped, PageBytes());
    return McStatus(mcErrorInvalidValue,
                    "the handle's file is not an interprocess event");
  }
  return std::shared_ptr<InterprocessEventState>(
      new InterprocessEventState(page, origin, /*created_here=*/false));
}

InterprocessEventState::InterprocessEventState(InterprocessEventPage* page,
                                               InterprocessEventOrigin origin,
                                               bool created_here)
    : page_(page),
      origin_(origin),
      created_here_(created_here),
      file_fd_(created_here ? origin.fd : -1) {}

InterprocessEventState::~InterprocessEventState() {
  CloseFile();
  munmap(page_, PageBytes());
}

void InterprocessEventState::CloseFile() {
  if (!created_here_) return;
  int fd = file_fd_.exchange(-1);
  if (fd >= 0) close(fd);
}

uint64_t InterprocessEventState::BeginRecord() {
  const uint64_t generation = page_->latest.fetch_add(1) + 1;
  const uint64_t pid = static_cast<uint64_t>(getpid()) & kPidMask;
  page_->recorders[generation % kRecorderSlots].store(
      generation << kPidBits | pid, std::memory_order_release);
  return generation;
}

void InterprocessEventState::Complete(uint64_t generation) {
  uint64_t seen = page_->completed.load();
  while (seen < generation &&
         !page_->completed.compare_exchange_weak(seen, generation)) {
  }
}

uint64_t InterprocessEventState::Latest() const {
  return page_->latest.load(std::memory_order_acquire);
}

bool InterprocessEventState::Reached(uint64_t generation) const {
  if (page_->completed.load(std::memory_order_acquire) >= generation) {
    return true;
  }
  // A record whose process has exited will never run.
  const uint64_t slot = page_->recorders[generation % kRecorderSlots].load(
      std::memory_order_acquire);
  if ((slot >> kPidBits) != generation) return false;  // overwritten
  const int pid = static_cast<int>(slot & kPidMask);
  if (pid == getpid()) return false;
  return !ProcessStartTime(pid).has_value();
}

void InterprocessEventState::WaitFor(uint64_t generation) const {
  auto pause = std::chrono::microseconds(20);
  while (!Reached(generation)) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

}  // namespace mxcts::runtime
