// Copyright mxcts authors.
//
// reference/runtime/ipc/event_sharing.h: handles of interprocess events.
//
// An interprocess event's records live in a page of a memory file
// (timeline/interprocess_event.h), which its creator keeps open. Its handle
// names the creator and the file (handle_codec.h); opening it in another
// process opens that file through /proc (remote_file.h) and maps the page,
// so the opened event sees every record of either process and its own
// records are seen by the creator [api.ipc.event.open-handle]
// [api.ipc.event.record-in-importer].
//
//   EventHandleFields fields = EventHandleOf(*object, system_index);
//   ... in another process ...
//   absl::StatusOr<std::shared_ptr<InterprocessEventState>> shared =
//       OpenSharedEvent(fields);
//   EventTable::Get().Open(current_device, *shared);

#ifndef MXCTS_REFERENCE_RUNTIME_IPC_EVENT_SHARING_H_
#define MXCTS_REFERENCE_RUNTIME_IPC_EVENT_SHARING_H_

#include <memory>

#include "absl/status/statusor.h"
#include "reference/runtime/ipc/handle_codec.h"
#include "reference/runtime/timeline/event.h"
#include "reference/runtime/timeline/interprocess_event.h"

namespace mxcts::runtime {

// The handle fields of interprocess event `event` (event.shared set), whose
// device has system index `system_index`. An event opened from a handle
// gives the handle it was opened from.
EventHandleFields EventHandleOf(const MCevent_st& event, int system_index);

// The shared state of the event `fields` names, created by another process
// (the caller has checked that). mcErrorInvalidValue if its process has
// exited, the event was destroyed there, or the file is no event.
absl::StatusOr<std::shared_ptr<InterprocessEventState>> OpenSharedEvent(
    const EventHandleFields& fields);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_IPC_EVENT_SHARING_H_
