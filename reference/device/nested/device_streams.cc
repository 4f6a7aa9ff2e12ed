// Copyright mxcts authors.
//
// A stream's order is two lists of child serials. A named stream keeps the
// last child launched into it and the work of the events it was told to
// wait for since: the next launch waits for both, and then it alone stands
// for the stream (it finishes only after them). The NULL stream orders
// none of its launches, so it keeps every child and every wait; its next
// launch waits only for the waits. Either way, the stream's work so far is
// the union, and that is what an event recorded in it captures. Finished
// serials are dropped as lists grow, so a long-lived stream stays small.
//
// Tested by conformance/api/dynamic_parallelism (device_streams_test,
// device_stream_errors_test) and nested_grids_test.cc.

#include "reference/device/nested/device_streams.h"

#include <algorithm>
#include <utility>

namespace mxcts::device_internal {
namespace {

// Lists longer than this are pruned of finished serials.
constexpr size_t kPruneAbove = 32;

void Prune(std::vector<ChildSerial>& serials,
           const std::set<ChildSerial>& unfinished) {
  if (serials.size() <= kPruneAbove) return;
  serials.erase(
      std::remove_if(serials.begin(), serials.end(),
                     [&](ChildSerial s) { return unfinished.count(s) == 0; }),
      serials.end());
}

void Append(std::vector<ChildSerial>& to,
            const std::vector<ChildSerial>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

}  // namespace

std::vector<ChildSerial> StreamOrder::BeforeNextLaunch() const {
  // [api.devrt.stream.named-stream-runs-launches-in-order]
  // [api.devrt.event.wait-orders-later-work]
  return in_order_ ? Work() : waits_;
}

void StreamOrder::Launched(ChildSerial serial,
                           const std::set<ChildSerial>& unfinished) {
  if (in_order_) {
    launched_.assign(1, serial);
    waits_.clear();
    return;
  }
  launched_.push_back(serial);
  Prune(launched_, unfinished);
}

std::vector<ChildSerial> StreamOrder::Work() const {
  std::vector<ChildSerial> work = launched_;
  Append(work, waits_);
  return work;
}

void StreamOrder::Wait(const std::vector<ChildSerial>& work,
                       const std::set<ChildSerial>& unfinished) {
  Append(waits_, work);
  Prune(waits_, unfinished);
}

void* DeviceHandles::Create(DeviceHandle::Kind kind, const ActiveGrid* grid,
                            uint64_t block, std::string creator) {
  auto handle =
      std::make_unique<DeviceHandle>(kind, grid, block, std::move(creator));
  void* value = handle.get();
  handles_.emplace(value, std::move(handle));
  return value;
}

DeviceHandle* DeviceHandles::Find(const void* value, DeviceHandle::Kind kind,
                                  const ActiveGrid* grid, uint64_t block,
                                  std::string* problem) {
  const bool stream = kind == DeviceHandle::Kind::kStream;
  auto it = handles_.find(value);
  if (it == handles_.end()) {
    *problem = stream ? "was not created by device code (device code has the "
                        "NULL stream and the streams its block creates; a "
                        "stream of the host cannot be used there)"
                      : "was not created by device code (an event of the "
                        "host cannot be used there)";
    return nullptr;
  }
  DeviceHandle& handle = *it->second;
  if (handle.kind != kind) {
    *problem =
        stream ? "is an event, not a stream" : "is a stream, not an event";
    return nullptr;
  }
  if (handle.destroyed) {
    *problem = "was destroyed";
    return nullptr;
  }
  if (handle.block_exited) {
    *problem = "was created by " + handle.creator + ", which has exited";
    return nullptr;
  }
  if (handle.grid != grid || handle.block != block) {
    *problem = "was created by " + handle.creator +
               "; device streams and events are private to the block that "
               "creates them";
    return nullptr;
  }
  return &handle;
}

void DeviceHandles::BlocksExited(const ActiveGrid* grid) {
  for (auto& [value, handle] : handles_) {
    if (handle->grid == grid) handle->block_exited = true;
  }
}

}  // namespace mxcts::device_internal
