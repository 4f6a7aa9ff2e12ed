// Copyright mxcts authors.
//
// reference/device/nested/device_streams.h: the streams and events device
// code creates (mcStreamCreateWithFlags, mcEventCreateWithFlags), and the
// order they impose on a grid's child grids.
//
// Every child a grid launches gets a serial number, in launch order. A
// stream's StreamOrder says which children the next launch into it must
// wait for and which children its work so far consists of; an event
// records the latter. The engine runs a child only when every serial it
// waits for has finished: in launch order, which satisfies every stream and
// event, or in a seeded order that picks among the children that are ready.
//
// Handles are the addresses of DeviceHandle objects that the launch tree
// keeps until it ends, so a destroyed handle, or one whose block has
// exited, is still recognised and reported as such.
//
//   DeviceHandles& handles = tree.handles;
//   void* stream = handles.Create(DeviceHandle::Kind::kStream, grid, block,
//                                 creator);
//   std::string problem;
//   DeviceHandle* h = handles.Find(stream, DeviceHandle::Kind::kStream,
//                                  grid, block, &problem);

#ifndef REFERENCE_DEVICE_NESTED_DEVICE_STREAMS_H_
#define REFERENCE_DEVICE_NESTED_DEVICE_STREAMS_H_

#include <stdint.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mxcts::device_internal {

struct ActiveGrid;

// A child grid's sequence number among its parent grid's children.
using ChildSerial = uint64_t;

// The work of one stream of a grid, as serials of that grid's children.
class StreamOrder {
 public:
  // `in_order`: a named stream, whose launches run one after another; the
  // NULL stream of the reference's device runtime orders none of its
  // launches [api.devrt.stream.null-stream-scope-per-block].
  explicit StreamOrder(bool in_order) : in_order_(in_order) {}

  // What a child launched into the stream now must wait for.
  std::vector<ChildSerial> BeforeNextLaunch() const;
  // Records the launch of child `serial`; `unfinished` prunes the lists.
  void Launched(ChildSerial serial, const std::set<ChildSerial>& unfinished);
  // The children whose completion completes all the stream's work so far
  // (what an event recorded now captures).
  std::vector<ChildSerial> Work() const;
  // mcStreamWaitEvent: later work also waits for `work`.
  void Wait(const std::vector<ChildSerial>& work,
            const std::set<ChildSerial>& unfinished);

 private:
  bool in_order_;
  // Named stream: the last child launched; NULL stream: every child.
  std::vector<ChildSerial> launched_;
  // Work of events waited for since the last launch (named) or ever (NULL).
  std::vector<ChildSerial> waits_;
};

// A stream or event created by device code.
struct DeviceHandle {
  enum class Kind { kStream, kEvent };

  DeviceHandle(Kind kind, const ActiveGrid* grid, uint64_t block,
               std::string creator)
      : kind(kind), grid(grid), block(block), creator(std::move(creator)) {}

  const Kind kind;
  // The grid and linear block that created it: the only block that may use
  // it [api.devrt.stream.handles-private-to-block].
  const ActiveGrid* const grid;
  const uint64_t block;
  const std::string creator;  // "kernel 'p' block (0,0,0)"
  bool destroyed = false;
  bool block_exited = false;
  StreamOrder stream{true};           // kStream
  std::vector<ChildSerial> recorded;  // kEvent: the work it captured
};

// The handles of one launch tree.
class DeviceHandles {
 public:
  // A new handle, created by linear block `block` of `grid`.
  void* Create(DeviceHandle::Kind kind, const ActiveGrid* grid, uint64_t block,
               std::string creator);
  // The live handle `value` of `kind`, if the calling block (`grid`,
  // `block`) may use it; null otherwise, with `*problem` saying why
  // ("was destroyed", ...). Null `value` is no handle here: callers treat
  // it as the NULL stream first.
  DeviceHandle* Find(const void* value, DeviceHandle::Kind kind,
                     const ActiveGrid* grid, uint64_t block,
                     std::string* problem);
  // The handles `grid`'s blocks created become unusable: every block of
  // the grid that ran so far has exited.
  void BlocksExited(const ActiveGrid* grid);
  // Whether no handle exists (no block created a stream or an event).
  bool empty() const { return handles_.empty(); }

 private:
  std::map<const void*, std::unique_ptr<DeviceHandle>> handles_;
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_NESTED_DEVICE_STREAMS_H_
