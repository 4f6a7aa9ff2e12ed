// Copyright mxcts authors.
//
// mcr/detail/cooperative_groups_groups.h: the group types of
// maca_cooperative_groups.h (thread_group, thread_block, thread_block_tile,
// coalesced_group, grid_group) and the functions that obtain and partition
// them. Include maca_cooperative_groups.h, not this header; it states the
// contracts.

#ifndef MCR_DETAIL_COOPERATIVE_GROUPS_GROUPS_H_
#define MCR_DETAIL_COOPERATIVE_GROUPS_GROUPS_H_

#include "mcr/detail/cooperative_groups_exchange.h"

namespace cooperative_groups {

class thread_group;
class thread_block;
class coalesced_group;
class grid_group;
template <unsigned int Size, class ParentT>
class thread_block_tile;

namespace __details {
// What partitions read of a parent group of lanes.
struct Access {
  static inline thread_block MakeBlock();
  static inline grid_group MakeGrid();
  static inline coalesced_group MakeCoalesced(unsigned long mask,
                                              unsigned long long meta_rank,
                                              unsigned long long meta_size);
  static inline unsigned long LaneMask(const thread_group& group);
  static inline const char* Name(const thread_group& group);
  static inline bool IsBlockOrTile(const thread_group& group);
};
}  // namespace __details

// --------------------------------------------------------------------------
// thread_group: any group, by handle. [api.coop.group.thread-group-conversion]
// --------------------------------------------------------------------------
class thread_group {
 public:
  // The number of threads in the group. [api.coop.group.size-and-rank]
  unsigned long long size() const {
    switch (kind_) {
      case Kind::kBlock:
        return static_cast<unsigned long long>(blockDim.x) * blockDim.y *
               blockDim.z;
      case Kind::kGrid:
        return static_cast<unsigned long long>(gridDim.x) * gridDim.y *
               gridDim.z * blockDim.x * blockDim.y * blockDim.z;
      case Kind::kTile:
      case Kind::kCoalesced:
        break;
    }
    return static_cast<unsigned long long>(__details::PopCount(mask_));
  }
  // The same as size(). [api.coop.group.num-threads-same-as-size]
  unsigned long long num_threads() const { return size(); }
  // The calling thread's rank, 0 to size() - 1.
  unsigned long long thread_rank() const {
    switch (kind_) {
      case Kind::kBlock:
        return __details::LinearThreadId();
      case Kind::kGrid: {
        const unsigned long long block_rank =
            blockIdx.x +
            static_cast<unsigned long long>(gridDim.x) *
                (blockIdx.y +
                 static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
        return block_rank * blockDim.x * blockDim.y * blockDim.z +
               __details::LinearThreadId();
      }
      case Kind::kTile:
      case Kind::kCoalesced:
        break;
    }
    return __details::RankInMask(mask_);
  }
  // Waits for every member. [api.coop.group.sync-is-barrier-with-visibility]
  inline void sync(const char* file = __builtin_FILE(),
                   int line = __builtin_LINE()) const;
  bool is_valid() const { return true; }

 protected:
  // Tiles and coalesced groups are lanes of one wave; a tile's lanes are
  // consecutive.
  enum class Kind { kBlock, kGrid, kTile, kCoalesced };
  thread_group(Kind kind, unsigned long mask, const char* name)
      : kind_(kind), mask_(mask), name_(name) {}

  // A group of lanes of one wave (tiles, coalesced groups): its lanes.
  unsigned long lane_mask() const { return mask_; }
  const char* name() const { return name_; }

  friend struct __details::Access;
  friend class thread_block;
  friend class coalesced_group;
  friend class grid_group;
  template <unsigned int, class>
  friend class thread_block_tile;
  friend thread_group tiled_partition(const thread_group& parent,
                                      unsigned int tile_size);

 private:
  Kind kind_;
  unsigned long mask_;  // kLanes: the members' lanes
  const char* name_;    // kLanes: for diagnostics
};

// --------------------------------------------------------------------------
// thread_block: the calling thread's block.
// --------------------------------------------------------------------------
class thread_block : public thread_group {
 public:
  // [api.coop.block.size-is-block-threads]
  unsigned long long size() const {
    return static_cast<unsigned long long>(blockDim.x) * blockDim.y *
           blockDim.z;
  }
  unsigned long long num_threads() const { return size(); }
  // [api.coop.block.rank-is-linear-thread-index]
  unsigned long long thread_rank() const { return __details::LinearThreadId(); }
  // [api.coop.block.group-and-thread-index]
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const {
    return dim3(threadIdx.x, threadIdx.y, threadIdx.z);
  }
  // [api.coop.block.dim-threads]
  dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  dim3 group_dim() const { return dim_threads(); }
  // [api.coop.block.sync-equals-syncthreads] The block barrier itself.
  void sync(const char* file = __builtin_FILE(),
            int line = __builtin_LINE()) const {
    __mc_dev_syncthreads(file, line);
  }
  // [api.coop.block.is-valid]
  bool is_valid() const { return true; }

 private:
  thread_block() : thread_group(Kind::kBlock, 0, "thread_block") {}
  friend struct __details::Access;
};

// --------------------------------------------------------------------------
// Members common to tiles and coalesced groups: lanes of one wave, with
// ranks in lane order, collectives by rank.
// --------------------------------------------------------------------------
namespace __details {

class LaneGroup : public thread_group {
 public:
  unsigned long long size() const {
    return static_cast<unsigned long long>(PopCount(lane_mask()));
  }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const { return RankInMask(lane_mask()); }
  // The rank of the calling thread's group among the groups its parent was
  // divided into, and their number. [api.coop.tile.meta-group]
  unsigned long long meta_group_rank() const { return meta_rank_; }
  unsigned long long meta_group_size() const { return meta_size_; }
  bool is_valid() const { return true; }

  // [api.coop.tile.sync-only-tile] A wave barrier of the members.
  void sync(const char* file = __builtin_FILE(),
            int line = __builtin_LINE()) const {
    Collective(name(), __MC_WAVE_SYNC, 0, 0, lane_mask(), 0, 0, file, line);
  }
  // [api.coop.tile.any-all]
  int any(int predicate, const char* file = __builtin_FILE(),
          int line = __builtin_LINE()) const {
    return static_cast<int>(
        Vote(name(), __MC_WAVE_ANY, lane_mask(), predicate, file, line));
  }
  int all(int predicate, const char* file = __builtin_FILE(),
          int line = __builtin_LINE()) const {
    return static_cast<int>(
        Vote(name(), __MC_WAVE_ALL, lane_mask(), predicate, file, line));
  }
  // [api.coop.tile.ballot] Bit i: the member of rank i.
  unsigned long ballot(int predicate, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE()) const {
    return CompressToRanks(
        static_cast<unsigned long>(
            Vote(name(), __MC_WAVE_BALLOT, lane_mask(), predicate, file, line)),
        lane_mask());
  }
  // [api.coop.tile.match-any] Bit i: the member of rank i has `value`.
  template <class T>
  unsigned long match_any(T value, const char* file = __builtin_FILE(),
                          int line = __builtin_LINE()) const {
    return CompressToRanks(
        Match(name(), __MC_WAVE_MATCH_ANY, lane_mask(), value, file, line),
        lane_mask());
  }
  // [api.coop.tile.match-all]
  template <class T>
  unsigned long match_all(T value, int& pred,
                          const char* file = __builtin_FILE(),
                          int line = __builtin_LINE()) const {
    const unsigned long lanes =
        Match(name(), __MC_WAVE_MATCH_ALL, lane_mask(), value, file, line);
    pred = lanes != 0;
    return lanes != 0 ? LowLanes(static_cast<unsigned>(size())) : 0ul;
  }
  // The value of `var` held by the member of rank `src_rank % size()`.
  // [api.coop.tile.shfl] [api.coop.coalesced.collectives-by-rank]
  template <class T>
  T shfl(T var, int src_rank, const char* file = __builtin_FILE(),
         int line = __builtin_LINE()) const {
    const unsigned count = static_cast<unsigned>(size());
    const unsigned rank = static_cast<unsigned>(src_rank) % count;
    return ShuffleFromRank(var, rank, file, line);
  }
  // [api.coop.tile.shfl-up] The caller's own `var` below `delta`.
  template <class T>
  T shfl_up(T var, unsigned int delta, const char* file = __builtin_FILE(),
            int line = __builtin_LINE()) const {
    const unsigned rank = RankInMask(lane_mask());
    return ShuffleFromRank(var, rank >= delta ? rank - delta : rank, file,
                           line);
  }
  // [api.coop.tile.shfl-down] The caller's own `var` past the last rank.
  template <class T>
  T shfl_down(T var, unsigned int delta, const char* file = __builtin_FILE(),
              int line = __builtin_LINE()) const {
    const unsigned rank = RankInMask(lane_mask());
    const unsigned count = static_cast<unsigned>(size());
    return ShuffleFromRank(var, delta < count - rank ? rank + delta : rank,
                           file, line);
  }

 protected:
  LaneGroup(Kind kind, unsigned long mask, const char* name,
            unsigned long long meta_rank, unsigned long long meta_size)
      : thread_group(kind, mask, name),
        meta_rank_(meta_rank),
        meta_size_(meta_size) {}

  // The member of rank `rank` sends its `var` to the caller.
  template <class T>
  T ShuffleFromRank(const T& var, unsigned rank, const char* file,
                    int line) const {
    return Shuffle(name(), __MC_WAVE_SHFL_IDX, kWaveLanes, lane_mask(), var,
                   LaneOfRank(lane_mask(), rank), file, line);
  }

 private:
  unsigned long long meta_rank_;
  unsigned long long meta_size_;
};

inline constexpr bool IsTileSize(unsigned size) {
  return size == 1 || size == 2 || size == 4 || size == 8 || size == 16 ||
         size == 32 || size == 64;
}

}  // namespace __details

// --------------------------------------------------------------------------
// thread_block_tile<N>: N consecutive ranks of a block or tile.
// --------------------------------------------------------------------------
template <unsigned int Size, class ParentT = void>
class thread_block_tile;

template <unsigned int Size>
class thread_block_tile<Size, void> : public __details::LaneGroup {
  // [api.coop.tile.static-size-checked]
  static_assert(__details::IsTileSize(Size),
                "thread_block_tile<N>: N must be 1, 2, 4, 8, 16, 32 or 64 "
                "(a power of two no larger than the 64-lane wave)");

 public:
  // [api.coop.tile.static-partition] Usable in constant expressions.
  static constexpr unsigned long long size() { return Size; }
  static constexpr unsigned long long num_threads() { return Size; }
  unsigned long long thread_rank() const {
    return __details::LinearThreadId() % Size;
  }

  // [api.coop.tile.shfl-xor] The value of rank (thread_rank() ^ lane_mask).
  template <class T>
  T shfl_xor(T var, unsigned int lane_mask, const char* file = __builtin_FILE(),
             int line = __builtin_LINE()) const {
    return __details::Shuffle(name(), __MC_WAVE_SHFL_XOR, Size,
                              this->thread_group::lane_mask(), var, lane_mask,
                              file, line);
  }
  // Within a tile the wave's own shuffles with width N are the tile's.
  template <class T>
  T shfl(T var, int src_rank, const char* file = __builtin_FILE(),
         int line = __builtin_LINE()) const {
    return __details::Shuffle(name(), __MC_WAVE_SHFL_IDX, Size,
                              this->thread_group::lane_mask(), var, src_rank,
                              file, line);
  }
  template <class T>
  T shfl_up(T var, unsigned int delta, const char* file = __builtin_FILE(),
            int line = __builtin_LINE()) const {
    return __details::Shuffle(name(), __MC_WAVE_SHFL_UP, Size,
                              this->thread_group::lane_mask(), var, delta, file,
                              line);
  }
  template <class T>
  T shfl_down(T var, unsigned int delta, const char* file = __builtin_FILE(),
              int line = __builtin_LINE()) const {
    return __details::Shuffle(name(), __MC_WAVE_SHFL_DOWN, Size,
                              this->thread_group::lane_mask(), var, delta, file,
                              line);
  }

 protected:
  // The calling thread's tile of `parent_rank / Size` among `parent_size`
  // ranks; the tile's lanes are consecutive in the caller's wave.
  thread_block_tile(unsigned long long parent_rank,
                    unsigned long long parent_size)
      : __details::LaneGroup(
            Kind::kTile,
            __details::LowLanes(Size)
                << (__details::Lane() / Size * Size % __details::kWaveLanes),
            __details::TileName(Size), parent_rank / Size, parent_size / Size) {
  }

  template <unsigned int, class>
  friend class thread_block_tile;
  template <unsigned int N, class P>
  friend thread_block_tile<N, P> tiled_partition(const P& parent);
};

// The tile type tiled_partition<N>(parent) returns: a thread_block_tile<N>
// that remembers its parent's type.
template <unsigned int Size, class ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
 protected:
  thread_block_tile(unsigned long long parent_rank,
                    unsigned long long parent_size)
      : thread_block_tile<Size, void>(parent_rank, parent_size) {}
  template <unsigned int N, class P>
  friend thread_block_tile<N, P> tiled_partition(const P& parent);
};

// --------------------------------------------------------------------------
// coalesced_group: the active lanes of a wave, ranked in lane order.
// --------------------------------------------------------------------------
class coalesced_group : public __details::LaneGroup {
 public:
  // Which members make up the group ([api.coop.coalesced.active-threads]).
  // Offered for code that needs the lanes; a mask of wave lanes.
  unsigned long long get_mask() const { return lane_mask(); }

 private:
  explicit coalesced_group(unsigned long mask, unsigned long long meta_rank = 0,
                           unsigned long long meta_size = 1)
      : __details::LaneGroup(Kind::kCoalesced, mask, __details::kCoalescedName,
                             meta_rank, meta_size) {}
  friend struct __details::Access;
};

// --------------------------------------------------------------------------
// grid_group: every thread of the launched grid.
// --------------------------------------------------------------------------
class grid_group : public thread_group {
 public:
  // [api.coop.grid.this-grid]
  unsigned long long size() const {
    return static_cast<unsigned long long>(num_blocks()) * blockDim.x *
           blockDim.y * blockDim.z;
  }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    return block_rank() * (static_cast<unsigned long long>(blockDim.x) *
                           blockDim.y * blockDim.z) +
           __details::LinearThreadId();
  }
  // [api.coop.grid.block-queries]
  unsigned long long num_blocks() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  unsigned long long block_rank() const {
    return blockIdx.x +
           static_cast<unsigned long long>(gridDim.x) *
               (blockIdx.y +
                static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  }
  dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  // [api.coop.grid.is-valid-only-cooperative]
  bool is_valid() const { return __mc_dev_grid_is_cooperative() != 0; }
  // [api.coop.grid.sync-across-blocks] On the reference, in a grid not
  // launched cooperatively this traps (mcErrorLaunchFailure).
  void sync(const char* file = __builtin_FILE(),
            int line = __builtin_LINE()) const {
    __mc_dev_grid_sync(file, line);
  }

 private:
  grid_group() : thread_group(Kind::kGrid, 0, "grid_group") {}
  friend struct __details::Access;
};

thread_block __details::Access::MakeBlock() { return thread_block(); }
grid_group __details::Access::MakeGrid() { return grid_group(); }
coalesced_group __details::Access::MakeCoalesced(unsigned long mask,
                                                 unsigned long long meta_rank,
                                                 unsigned long long meta_size) {
  return coalesced_group(mask, meta_rank, meta_size);
}
unsigned long __details::Access::LaneMask(const thread_group& group) {
  return group.mask_;
}
const char* __details::Access::Name(const thread_group& group) {
  return group.name_;
}
bool __details::Access::IsBlockOrTile(const thread_group& group) {
  return group.kind_ == thread_group::Kind::kBlock ||
         group.kind_ == thread_group::Kind::kTile;
}

inline void thread_group::sync(const char* file, int line) const {
  switch (kind_) {
    case Kind::kBlock:
      __mc_dev_syncthreads(file, line);
      return;
    case Kind::kGrid:
      __mc_dev_grid_sync(file, line);
      return;
    case Kind::kTile:
    case Kind::kCoalesced:
      __details::Collective(name_, __MC_WAVE_SYNC, 0, 0, mask_, 0, 0, file,
                            line);
      return;
  }
}

// --------------------------------------------------------------------------
// Obtaining groups. Device functions: in the host pass they are deleted, so
// a call from host code does not compile. [api.coop.header.device-functions]
// --------------------------------------------------------------------------
#if defined(__MACA_ARCH__)

// [api.coop.block.this-thread-block]
inline thread_block this_thread_block() {
  return __details::Access::MakeBlock();
}

// [api.coop.grid.this-grid]
inline grid_group this_grid() { return __details::Access::MakeGrid(); }

// [api.coop.coalesced.active-threads] The lanes that call together
// (__activemask()).
inline coalesced_group coalesced_threads(const char* file = __builtin_FILE(),
                                         int line = __builtin_LINE()) {
  return __details::Access::MakeCoalesced(__activemask(file, line), 0, 1);
}

#else

thread_block this_thread_block() = delete;
grid_group this_grid() = delete;
coalesced_group coalesced_threads(const char* file = __builtin_FILE(),
                                  int line = __builtin_LINE()) = delete;

#endif  // __MACA_ARCH__

// --------------------------------------------------------------------------
// Partitions.
// --------------------------------------------------------------------------

// [api.coop.tile.static-partition] [api.coop.tile.nested-partition] The
// calling thread's tile of N consecutive ranks of `parent` (a thread_block
// or a thread_block_tile). On the reference, a parent whose size is not a
// multiple of N traps. [api.coop.tile.parent-divisible]
template <unsigned int N, class ParentT>
thread_block_tile<N, ParentT> tiled_partition(const ParentT& parent) {
  static_assert(__details::IsTileSize(N),
                "tiled_partition<N>: N must be 1, 2, 4, 8, 16, 32 or 64");
  static_assert(std::is_base_of<thread_block, ParentT>::value ||
                    std::is_base_of<__details::LaneGroup, ParentT>::value,
                "tiled_partition<N>(parent): the parent is a thread_block or "
                "a thread_block_tile");
  if (!__details::Access::IsBlockOrTile(parent)) {
    __details::BadPartition(
        "tiled_partition<N>(parent): the parent is a thread_block or a "
        "thread_block_tile");
  }
  if (parent.size() % N != 0) {
    __details::BadPartition(
        "tiled_partition<N>(parent): the parent's size is not a multiple of "
        "N");
  }
  return thread_block_tile<N, ParentT>(parent.thread_rank(), parent.size());
}

// [api.coop.tile.dynamic-partition] The calling thread's tile of
// `tile_size` consecutive ranks of `parent`. On the reference a size that is
// not a power of two up to 64, or that does not divide a block or tile
// parent, traps; a coalesced parent's last tile may be smaller.
// [api.coop.tile.size-must-be-power-of-two] [api.coop.tile.parent-divisible]
inline thread_group tiled_partition(const thread_group& parent,
                                    unsigned int tile_size) {
  if (!__details::IsTileSize(tile_size)) {
    __details::BadPartition(
        "tiled_partition(parent, n): n must be a power of two from 1 to 64");
  }
  if (parent.kind_ == thread_group::Kind::kGrid) {
    __details::BadPartition("tiled_partition(parent, n): the parent is a grid");
  }
  const unsigned long long rank = parent.thread_rank();
  const unsigned long long first = rank / tile_size * tile_size;
  if (parent.kind_ != thread_group::Kind::kCoalesced) {
    if (parent.size() % tile_size != 0) {
      __details::BadPartition(
          "tiled_partition(parent, n): the parent's size is not a multiple "
          "of n");
    }
    return thread_group(thread_group::Kind::kTile,
                        __details::LowLanes(tile_size)
                            << (__details::Lane() / tile_size * tile_size %
                                __details::kWaveLanes),
                        __details::DynamicTileName(tile_size));
  }
  // A coalesced parent: its members of ranks first .. first + n - 1.
  unsigned long members = 0;
  unsigned long rest = parent.mask_;
  for (unsigned long long r = 0; rest != 0; rest &= rest - 1, ++r) {
    if (r >= first && r < first + tile_size) members |= rest & -rest;
  }
  return thread_group(thread_group::Kind::kCoalesced, members,
                      __details::kCoalescedName);
}

// The members of `parent` (a coalesced_group or thread_block_tile) that
// passed the same `label`, as a coalesced group.
template <class G>
coalesced_group labeled_partition(const G& parent, int label,
                                  const char* file = __builtin_FILE(),
                                  int line = __builtin_LINE()) {
  const unsigned long mask = __details::Access::LaneMask(parent);
  const unsigned long lanes =
      __details::Match(__details::Access::Name(parent), __MC_WAVE_MATCH_ANY,
                       mask, label, file, line);
  return __details::Access::MakeCoalesced(lanes, 0, 1);
}

// The members of `parent` that passed the same truth value of `predicate`,
// as a coalesced group; meta_group_rank() is 1 for the true side.
template <class G>
coalesced_group binary_partition(const G& parent, bool predicate,
                                 const char* file = __builtin_FILE(),
                                 int line = __builtin_LINE()) {
  const unsigned long mask = __details::Access::LaneMask(parent);
  const unsigned long voted = static_cast<unsigned long>(
      __details::Vote(__details::Access::Name(parent), __MC_WAVE_BALLOT, mask,
                      predicate ? 1 : 0, file, line));
  const unsigned long lanes = predicate ? voted & mask : ~voted & mask;
  return __details::Access::MakeCoalesced(lanes, predicate ? 1 : 0, 2);
}

// --------------------------------------------------------------------------
// Synchronizing any group. [api.coop.group.sync-free-functions]
// --------------------------------------------------------------------------
template <class G>
void sync(const G& group, const char* file = __builtin_FILE(),
          int line = __builtin_LINE()) {
  group.sync(file, line);
}
template <class G>
void synchronize(const G& group, const char* file = __builtin_FILE(),
                 int line = __builtin_LINE()) {
  group.sync(file, line);
}

}  // namespace cooperative_groups

#endif  // MCR_DETAIL_COOPERATIVE_GROUPS_GROUPS_H_
