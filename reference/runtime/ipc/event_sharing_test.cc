// Copyright mxcts authors.
//
// Tests of event handles: an interprocess event's handle opens (here, in
// the same process: the entry point refuses that, the mechanism does not)
// into a state that shares every record, and stops opening once the
// creator destroys its event.

#include "reference/runtime/ipc/event_sharing.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "mc_runtime_api.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/ipc/remote_file.h"
#include "reference/runtime/timeline/event.h"

namespace mxcts::runtime {
namespace {

TEST(EventSharing, HandleNamesThisProcessAndOpensTheSameState) {
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreateWithFlags(&event,
                                   mcEventInterprocess | mcEventDisableTiming),
            mcSuccess);
  absl::StatusOr<MCevent_st*> object = EventTable::Get().Find(event);
  ASSERT_TRUE(object.ok());
  EventHandleFields fields = EventHandleOf(**object, 0);
  EXPECT_TRUE(IsThisProcess(fields.pid, fields.start_time));
  absl::StatusOr<std::shared_ptr<InterprocessEventState>> shared =
      OpenSharedEvent(fields);
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_EQ((*shared)->Latest(), 0u);
  ASSERT_EQ(mcEventRecord(event, nullptr), mcSuccess);
  ASSERT_EQ(mcEventSynchronize(event), mcSuccess);
  EXPECT_EQ((*shared)->Latest(), 1u);
  EXPECT_TRUE((*shared)->Reached(1));
  // A record through the opened state is the event's latest record.
  uint64_t generation = (*shared)->BeginRecord();
  EXPECT_EQ(mcEventQuery(event), mcErrorNotReady);
  (*shared)->Complete(generation);
  EXPECT_EQ(mcEventQuery(event), mcSuccess);
  ASSERT_EQ(mcEventDestroy(event), mcSuccess);
  EXPECT_EQ(ToMcError(OpenSharedEvent(fields).status()), mcErrorInvalidValue);
}

}  // namespace
}  // namespace mxcts::runtime
