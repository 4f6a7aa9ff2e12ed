// Copyright mxcts authors.
//
// Tests of opening memory files through /proc: this process's own file
// (the check is the same for any process of the user), and every way the
// descriptor can fail to be the file a handle names.

#include "reference/runtime/ipc/remote_file.h"

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mc_runtime_api.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/timeline/interprocess_event.h"

namespace mxcts::runtime {
namespace {

class MemoryFile : public testing::Test {
 protected:
  void SetUp() override {
    fd_ = memfd_create("mxcts-remote-file-test", MFD_CLOEXEC);
    ASSERT_GE(fd_, 0);
    ASSERT_EQ(write(fd_, "abc", 3), 3);
  }
  void TearDown() override {
    if (fd_ >= 0) close(fd_);
  }
  int fd_ = -1;
};

TEST_F(MemoryFile, OpensByPidDescriptorAndName) {
  EXPECT_TRUE(IsThisProcess(getpid(), ThisProcessStartTime()));
  absl::StatusOr<int> opened = OpenRemoteMemoryFile(
      getpid(), ThisProcessStartTime(), fd_, "mxcts-remote-file-test");
  ASSERT_TRUE(opened.ok()) << opened.status();
  char bytes[3];
  EXPECT_EQ(pread(*opened, bytes, 3, 0), 3);
  EXPECT_EQ(bytes[2], 'c');
  close(*opened);
}

TEST_F(MemoryFile, OtherNameIsInvalidValue) {
  EXPECT_EQ(ToMcError(OpenRemoteMemoryFile(getpid(), ThisProcessStartTime(),
                                           fd_, "mxcts-remote-file-tes")
                          .status()),
            mcErrorInvalidValue);
}

TEST_F(MemoryFile, ClosedDescriptorIsInvalidValue) {
  int fd = fd_;
  close(fd_);
  fd_ = -1;
  EXPECT_EQ(ToMcError(OpenRemoteMemoryFile(getpid(), ThisProcessStartTime(), fd,
                                           "mxcts-remote-file-test")
                          .status()),
            mcErrorInvalidValue);
}

TEST_F(MemoryFile, OtherStartTimeIsInvalidValue) {
  // A reused pid: the process that started then is gone.
  EXPECT_FALSE(IsThisProcess(getpid(), ThisProcessStartTime() + 1));
  EXPECT_EQ(ToMcError(OpenRemoteMemoryFile(getpid(), ThisProcessStartTime() + 1,
                                           fd_, "mxcts-remote-file-test")
                          .status()),
            mcErrorInvalidValue);
}

TEST(ProcessStartTime, GoneWhenTheProcessExits) {
  ASSERT_TRUE(ProcessStartTime(getpid()).has_value());
  pid_t child = -1;
  char program[] = "/bin/true";
  char* argv[] = {program, nullptr};
  ASSERT_EQ(posix_spawn(&child, program, nullptr, nullptr, argv, nullptr), 0);
  // Exited but not reaped (a zombie), then reaped: gone either way.
  for (int i = 0; i < 2000 && ProcessStartTime(child).has_value(); ++i) {
    usleep(1000);
  }
  EXPECT_FALSE(ProcessStartTime(child).has_value());
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_FALSE(ProcessStartTime(child).has_value());
  EXPECT_EQ(ToMcError(OpenRemoteMemoryFile(child, 1, 0, "x").status()),
            mcErrorInvalidValue);
}

}  // namespace
}  // namespace mxcts::runtime
