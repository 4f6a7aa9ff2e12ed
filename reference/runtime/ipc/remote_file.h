// Copyright mxcts authors.
//
// reference/runtime/ipc/remote_file.h: opening a memory file that another
// process of the host holds open.
//
// An importer reaches the exporter's memory file through
// /proc/<pid>/fd/<fd>, which the kernel lets a process of the same user
// open. The descriptor number alone proves nothing (the exporter may have
// closed the file and opened another under the same number, or exited and
// left its pid to another process), so the open file is checked: the
// process must still be the one that started at the handle's start time,
// and the file must be the memory file of the handle's name.
//
//   absl::StatusOr<int> fd = OpenRemoteMemoryFile(pid, start, 7,
//                                                 "mxcts-ipc-mem-42-3");

#ifndef MXCTS_REFERENCE_RUNTIME_IPC_REMOTE_FILE_H_
#define MXCTS_REFERENCE_RUNTIME_IPC_REMOTE_FILE_H_

#include <stdint.h>

#include <string>

#include "absl/status/statusor.h"

namespace mxcts::runtime {

// True if (pid, start_time) names the calling process.
bool IsThisProcess(int pid, uint64_t start_time);

// This process's start time (ProcessStartTime(getpid())).
uint64_t ThisProcessStartTime();

// Opens, read-write, descriptor `fd` of the process (pid, start_time) if it
// is the memory file `name` (memfd_create's name). mcErrorInvalidValue,
// saying why, if the process has exited, the descriptor is closed or names
// another file, or the system refuses access. The caller closes the result.
absl::StatusOr<int> OpenRemoteMemoryFile(int pid, uint64_t start_time, int fd,
                                         const std::string& name);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_IPC_REMOTE_FILE_H_
