// Copyright mxcts authors.
//
// Event handles (event_sharing.h): the handle is the event's origin, as
// the shared state records it (its creator's pid, start time, descriptor
// and serial), so an opened event re-exports the handle it came from.
//
// Tested by event_sharing_test.cc and conformance/api/ipc.

#include "reference/runtime/ipc/event_sharing.h"

#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/ipc/remote_file.h"

namespace mxcts::runtime {

EventHandleFields EventHandleOf(const MCevent_st& event, int system_index) {
  const InterprocessEventOrigin& origin = event.shared->origin();
  EventHandleFields fields;
  fields.pid = origin.pid;
  fields.fd = origin.fd;
  fields.start_time = origin.start_time;
  fields.serial = origin.serial;
  fields.device = system_index;
  return fields;
}

absl::StatusOr<std::shared_ptr<InterprocessEventState>> OpenSharedEvent(
    const EventHandleFields& fields) {
  MX_ASSIGN_OR_RETURN(
      int fd, OpenRemoteMemoryFile(
                  fields.pid, fields.start_time, fields.fd,
                  InterprocessEventState::FileName(fields.pid, fields.serial)));
  InterprocessEventOrigin origin;
  origin.pid = fields.pid;
  origin.start_time = fields.start_time;
  origin.fd = fields.fd;
  origin.serial = fields.serial;
  return InterprocessEventState::Adopt(fd, origin);
}

}  // namespace mxcts::runtime
