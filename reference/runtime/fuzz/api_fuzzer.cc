// Copyright mxcts authors.
//
// The API fuzzer's interpreter (api_fuzzer.h). One Program object lives for
// one input: it holds what the input made (allocations, streams, events,
// pools, graphs, registrations), the handles it has released (so that it
// can pass them again, as a program with a use-after-free bug would), and
// the checks run after every call.
//
// Arguments the runtime cannot check are never made up: a pointer the
// runtime does not know is treated as pageable host memory, which the
// runtime must read or write as the caller says, so such pointers are only
// passed where the call names device memory, and a host buffer of the
// fuzzer is only passed with a size that fits it. Everything else,
// including pointers and handles that were never valid, is fair.

#include "reference/runtime/fuzz/api_fuzzer.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mc_runtime_api.h"
#include "reference/runtime/fuzz/documented_errors.h"

namespace mxcts::fuzz {
namespace {

// Reads the input as a stream of numbers; past its end every read is 0 and
// `done()` says so, which ends the program.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool done() const { return pos_ >= size_; }

  uint8_t U8() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint16_t U16() { return static_cast<uint16_t>(U8() | (U8() << 8)); }
  uint32_t U32() { return static_cast<uint32_t>(U16() | (U16() << 16)); }
  uint64_t U64() { return U32() | (static_cast<uint64_t>(U32()) << 32); }
  bool Bool() { return (U8() & 1) != 0; }
  // A number in [0, n), n > 0.
  size_t Below(size_t n) { return U16() % n; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

constexpr size_t kHostBufferSize = 1 << 16;
constexpr size_t kMaxLive = 24;
constexpr size_t kMaxHandles = 12;
constexpr size_t kPage = 4096;
constexpr size_t kRegisterPages = 16;

// Pageable host memory the fuzzer owns; the runtime knows nothing of it.
alignas(4096) char g_host_a[kHostBufferSize];
alignas(4096) char g_host_b[kHostBufferSize];
// Pageable memory that mcHostRegister page-locks, page by page.
alignas(4096) char g_register[kRegisterPages * kPage];

int g_host_calls = 0;
void HostFunction(void* user_data) {
  ++*static_cast<int*>(user_data);  // Must not call the runtime.
}
void StreamCallback(mcStream_t, mcError_t, void* user_data) {
  ++*static_cast<int*>(user_data);
}

enum class Kind { kDevice, kHost, kManaged, kPool };

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kDevice:
      return "device";
    case Kind::kHost:
      return "page-locked host";
    case Kind::kManaged:
      return "managed";
    case Kind::kPool:
      return "stream-ordered";
  }
  return "?";
}

struct Allocation {
  char* base = nullptr;
  size_t size = 0;
  Kind kind = Kind::kDevice;
  int device = 0;
  mcMemPool_t pool = nullptr;  // kPool: the pool it came from.
};

struct Registration {
  char* base;
  size_t size;
};

struct Event {
  mcEvent_t handle;
  unsigned flags;
  int device;
};

struct Stream {
  mcStream_t handle;
  int device;
};

struct Pool {
  mcMemPool_t handle;
  int device;
};

struct Graph {
  mcGraph_t handle;
  std::vector<mcGraphNode_t> nodes;
};

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "api_fuzzer: VIOLATION: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

std::string Hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", p);
  return text;
}

class Program {
 public:
  explicit Program(const uint8_t* data, size_t size) : in_(data, size) {}

  void Run();

 private:
  // --- Checks. ---

  // Checks the result of `function` and returns it.
  mcError_t Check(const char* function, mcError_t result);
  void CheckTable();
  void CheckFreeMemory(bool exact_required);

  // --- Choices. ---

  size_t Size();
  // A pointer for an argument that names device memory (the runtime must
  // reject anything else).
  char* DevicePointer();
  // A pointer for an argument the runtime may treat as host memory, with
  // the most bytes that may be accessed there.
  char* HostSidePointer(size_t* room);
  mcStream_t StreamHandle();
  mcEvent_t EventHandle();
  mcMemPool_t PoolHandle();
  Graph* PickGraph();
  mcGraph_t GraphHandle();
  int DeviceOrdinal();
  unsigned Flags(unsigned valid_bits);
  mcMemcpyKind CopyKind();

  // --- Bookkeeping. ---

  void AddAllocation(const Allocation& allocation);
  void Released(size_t index);
  int StreamDevice(mcStream_t stream);
  int LiveIndexOf(const void* base) const;

  // --- Operations. ---

  void Step();
  void OpMalloc();
  void OpMallocPitch();
  void OpMallocHost();
  void OpMallocManaged();
  void OpFree();
  void OpMemcpy();
  void OpMemcpy2D();
  void OpMemset();
  void OpQueryPointer();
  void OpHostRegister();
  void OpManagedHints();
  void OpStream();
  void OpEvent();
  void OpMallocAsync();
  void OpFreeAsync();
  void OpPool();
  void OpDevice();
  void OpReset();
  void OpErrors();
  void OpIpc();
  void OpGraph();
  void OpHostWork();
  void Release();

  Reader in_;
  int device_count_ = 1;
  int current_ = 0;
  std::string unrecognized_name_;
  // What the thread's last error must be now.
  mcError_t last_error_ = mcSuccess;
  const char* last_call_ = "";

  std::vector<Allocation> live_;
  std::vector<Allocation> freed_;
  std::vector<Registration> registered_;
  std::vector<Stream> streams_;
  std::vector<mcStream_t> dead_streams_;
  std::vector<Event> events_;
  std::vector<mcEvent_t> dead_events_;
  std::vector<Pool> pools_;
  std::vector<mcMemPool_t> dead_pools_;
  // Pools destroyed with allocations live: their reservation is not
  // queryable until those are freed.
  std::vector<mcMemPool_t> zombie_pools_;
  std::vector<Graph> graphs_;
  std::vector<mcGraph_t> dead_graphs_;
  std::vector<mcGraphExec_t> execs_;
  std::vector<mcGraphExec_t> dead_execs_;
  std::vector<void*> ipc_open_;
  std::vector<size_t> baseline_free_;
  std::vector<mcMemPool_t> default_pools_;
  // Device memory graph nodes may name: made for the input, released last,
  // so no executable graph outlives it.
  char* graph_scratch_ = nullptr;
  size_t graph_scratch_size_ = 4096;
};

// MXCTS_FUZZ_TRACE=1 prints every checked call and its result, to read
// what a failing input did.
bool Tracing() {
  static const bool tracing = [] {
    const char* value = std::getenv("MXCTS_FUZZ_TRACE");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return tracing;
}

mcError_t Program::Check(const char* function, mcError_t result) {
  last_call_ = function;
  const char* name = mcGetErrorName(result);
  if (Tracing()) {
    std::fprintf(stderr, "api_fuzzer: device %d: %s -> %s\n", current_,
                 function, name);
  }
  if (name == nullptr || unrecognized_name_ == name) {
    Fail(std::string(function) + " returned " + std::to_string(result) +
         ", which is no mcError_t enumerator");
  }
  if (!IsDocumented(function, result)) {
    Fail(std::string(function) + " returned " + name +
         ", which its documentation does not list");
  }
  if (result != mcSuccess && result != mcErrorNotReady) {
    last_error_ = result;  // [api.error.last.recorded-on-failure]
  }
  // [api.error.last.recorded-on-failure]
  // [api.error.last.success-does-not-clear]
  // [api.error.last.not-ready-not-recorded]
  const mcError_t peeked = mcPeekAtLastError();
  if (peeked != last_error_) {
    Fail(std::string("after ") + function + " returned " + name +
         ", mcPeekAtLastError returned " + mcGetErrorName(peeked) +
         " instead of " + mcGetErrorName(last_error_));
  }
  return result;
}

// The allocation table as the API reports it against what the program
// holds.
void Program::CheckTable() {
  for (const Allocation& a : live_) {
    mcPointerAttribute_t attributes;
    std::memset(&attributes, 0xa5, sizeof(attributes));
    const char* last = a.base + a.size - 1;
    if (mcPointerGetAttributes(&attributes, last) != mcSuccess) {
      Fail("mcPointerGetAttributes failed for live " +
           std::string(KindName(a.kind)) + " allocation " + Hex(a.base));
    }
    mcMemoryType expected = mcMemoryTypeDevice;
    if (a.kind == Kind::kHost) expected = mcMemoryTypeHost;
    if (a.kind == Kind::kManaged) expected = mcMemoryTypeManaged;
    if (attributes.type != expected ||
        (a.kind != Kind::kHost && a.kind != Kind::kManaged &&
         attributes.device != a.device)) {
      Fail("after " + std::string(last_call_) +
           ": mcPointerGetAttributes of the last byte of live " +
           KindName(a.kind) + " allocation " + Hex(a.base) + " (" +
           std::to_string(a.size) + " bytes, device " +
           std::to_string(a.device) + ") reports type " +
           std::to_string(attributes.type) + ", device " +
           std::to_string(attributes.device));
    }
    mcDeviceptr_t base = nullptr;
    size_t size = 0;
    if (mcMemGetAddressRange(&base, &size, const_cast<char*>(last)) !=
            mcSuccess ||
        base != a.base ||
        (a.kind == Kind::kPool ? size < a.size : size != a.size)) {
      Fail("after " + std::string(last_call_) +
           ": mcMemGetAddressRange of live " + KindName(a.kind) +
           " allocation " + Hex(a.base) + " of " + std::to_string(a.size) +
           " bytes reports " + Hex(base) + ", " + std::to_string(size) +
           " bytes");
    }
  }
  for (const Registration& r : registered_) {
    mcPointerAttribute_t attributes;
    if (mcPointerGetAttributes(&attributes, r.base + r.size - 1) != mcSuccess ||
        attributes.type != mcMemoryTypeHost) {
      Fail("after " + std::string(last_call_) + ": registered range " +
           Hex(r.base) + " is not reported as host memory");
    }
  }
  for (const Allocation& f : freed_) {
    bool reused = false;
    for (const Allocation& a : live_) {
      if (f.base < a.base + a.size && a.base < f.base + f.size) reused = true;
    }
    if (reused) continue;
    mcPointerAttribute_t attributes;
    if (mcPointerGetAttributes(&attributes, f.base) != mcSuccess ||
        attributes.type != mcMemoryTypeUnregistered) {
      Fail("after " + std::string(last_call_) + ": released " +
           KindName(f.kind) + " allocation " + Hex(f.base) +
           " is still reported, as type " + std::to_string(attributes.type));
    }
  }
  // Queries that succeed leave the last error as it was
  // [api.error.last.success-does-not-clear].
  const mcError_t peeked = mcPeekAtLastError();
  if (peeked != last_error_) {
    Fail("after the allocation table's queries, mcPeekAtLastError returned " +
         std::string(mcGetErrorName(peeked)) + " instead of " +
         mcGetErrorName(last_error_));
  }
  CheckFreeMemory(false);
}

// mcMemGetInfo's free memory of the current device against the live bytes:
// mcMalloc-family allocations, and the reservations of the pools located on
// it. Exact unless a destroyed pool still holds memory (then only a bound).
void Program::CheckFreeMemory(bool exact_required) {
  size_t free_bytes = 0;
  size_t total = 0;
  if (mcMemGetInfo(&free_bytes, &total) != mcSuccess) {
    Fail("mcMemGetInfo failed");
  }
  size_t used = current_ == 0 && graph_scratch_ ? graph_scratch_size_ : 0;
  for (const Allocation& a : live_) {
    if (a.kind == Kind::kDevice && a.device == current_) used += a.size;
  }
  std::vector<mcMemPool_t> pools;
  mcMemPool_t default_pool = nullptr;
  if (mcDeviceGetDefaultMemPool(&default_pool, current_) == mcSuccess) {
    pools.push_back(default_pool);
  }
  for (const Pool& p : pools_) {
    if (p.device == current_) pools.push_back(p.handle);
  }
  for (mcMemPool_t pool : pools) {
    unsigned long long reserved = 0;
    if (mcMemPoolGetAttribute(pool, mcMemPoolAttrReservedMemCurrent,
                              &reserved) != mcSuccess) {
      Fail("mcMemPoolGetAttribute(ReservedMemCurrent) failed on a live pool");
    }
    used += reserved;
  }
  const bool exact = exact_required || zombie_pools_.empty();
  const size_t expected = used < total ? total - used : 0;
  if (exact ? free_bytes != expected : free_bytes > expected) {
    Fail("after " + std::string(last_call_) + ": mcMemGetInfo on device " +
         std::to_string(current_) + " reports " + std::to_string(free_bytes) +
         " bytes free of " + std::to_string(total) + "; the live allocations" +
         " and pool reservations leave " + std::to_string(expected));
  }
}

// --- Choices. ---

size_t Program::Size() {
  switch (in_.U8() % 8) {
    case 0:
      return 0;
    case 1:
      return 1 + in_.U8();
    case 2:
    case 3:
      return 1 + in_.U16() % 8192;
    case 4:
      return 1 + in_.U32() % (1 << 20);
    case 5: {
      // More than the device has: the out-of-memory path. (Sizes between
      // 1 MiB and the device's capacity would only make the fuzzer slow:
      // the runtime copies a whole allocation into shared memory for an
      // IPC handle, for example.)
      size_t free_bytes = 0, total = 0;
      Check("mcMemGetInfo", mcMemGetInfo(&free_bytes, &total));
      return total + in_.U8();  // More than the device has.
    }
    case 6:
      return ~size_t{0} - in_.U8();
    default:
      return in_.U64();
  }
}

char* Program::DevicePointer() {
  switch (in_.U8() % 9) {
    case 0:
    case 1:
      if (!live_.empty()) return live_[in_.Below(live_.size())].base;
      return nullptr;
    case 2:
      if (!live_.empty()) {
        const Allocation& a = live_[in_.Below(live_.size())];
        return a.base + in_.Below(a.size + 1);
      }
      return nullptr;
    case 3:
      if (!freed_.empty()) return freed_[in_.Below(freed_.size())].base;
      return nullptr;
    case 4:
      return nullptr;
    case 5:
      return g_host_a;
    case 6:
      return graph_scratch_;
    case 7:
      if (!registered_.empty()) {
        return registered_[in_.Below(registered_.size())].base;
      }
      return g_register;
    default:
      return reinterpret_cast<char*>(static_cast<uintptr_t>(in_.U64()));
  }
}

char* Program::HostSidePointer(size_t* room) {
  switch (in_.U8() % 4) {
    case 0:
      if (!live_.empty()) {
        const Allocation& a = live_[in_.Below(live_.size())];
        *room = ~size_t{0};  // The runtime knows its bounds.
        return a.base + in_.Below(a.size + 1);
      }
      [[fallthrough]];
    case 1:
      *room = kHostBufferSize;
      return g_host_b;
    case 2:
      *room = ~size_t{0};
      return nullptr;
    default:
      *room = kHostBufferSize;
      return g_host_a;
  }
}

mcStream_t Program::StreamHandle() {
  switch (in_.U8() % 8) {
    case 0:
    case 1:
    case 2:
      if (!streams_.empty()) return streams_[in_.Below(streams_.size())].handle;
      return nullptr;
    case 3:
      return nullptr;
    case 4:
      return in_.Bool() ? mcStreamLegacy : mcStreamPerThread;
    case 5:
      if (!dead_streams_.empty()) {
        return dead_streams_[in_.Below(dead_streams_.size())];
      }
      return nullptr;
    default:
      return reinterpret_cast<mcStream_t>(static_cast<uintptr_t>(in_.U64()));
  }
}

mcEvent_t Program::EventHandle() {
  switch (in_.U8() % 6) {
    case 0:
    case 1:
    case 2:
      if (!events_.empty()) return events_[in_.Below(events_.size())].handle;
      return nullptr;
    case 3:
      return nullptr;
    case 4:
      if (!dead_events_.empty()) {
        return dead_events_[in_.Below(dead_events_.size())];
      }
      return nullptr;
    default:
      return reinterpret_cast<mcEvent_t>(static_cast<uintptr_t>(in_.U64()));
  }
}

mcMemPool_t Program::PoolHandle() {
  switch (in_.U8() % 6) {
    case 0:
    case 1:
      if (!pools_.empty()) return pools_[in_.Below(pools_.size())].handle;
      return nullptr;
    case 2: {
      mcMemPool_t pool = nullptr;
      const int device = DeviceOrdinal();
      Check("mcDeviceGetDefaultMemPool",
            mcDeviceGetDefaultMemPool(&pool, device));
      return pool;
    }
    case 3:
      return nullptr;
    case 4:
      if (!dead_pools_.empty()) {
        return dead_pools_[in_.Below(dead_pools_.size())];
      }
      return nullptr;
    default:
      return reinterpret_cast<mcMemPool_t>(static_cast<uintptr_t>(in_.U64()));
  }
}

Graph* Program::PickGraph() {
  if (graphs_.empty()) return nullptr;
  return &graphs_[in_.Below(graphs_.size())];
}

mcGraph_t Program::GraphHandle() {
  switch (in_.U8() % 5) {
    case 0:
    case 1:
      if (!graphs_.empty()) return graphs_[in_.Below(graphs_.size())].handle;
      return nullptr;
    case 2:
      return nullptr;
    case 3:
      if (!dead_graphs_.empty()) {
        return dead_graphs_[in_.Below(dead_graphs_.size())];
      }
      return nullptr;
    default:
      return reinterpret_cast<mcGraph_t>(static_cast<uintptr_t>(in_.U64()));
  }
}

int Program::DeviceOrdinal() {
  switch (in_.U8() % 6) {
    case 0:
      return -1 - in_.U8();
    case 1:
      return device_count_ + in_.U8();
    case 2:
      return current_;
    default:
      return static_cast<int>(in_.Below(device_count_));
  }
}

unsigned Program::Flags(unsigned valid_bits) {
  switch (in_.U8() % 4) {
    case 0:
      return 0;
    case 1:
      return in_.U32();
    default:
      return in_.U8() & valid_bits;
  }
}

mcMemcpyKind Program::CopyKind() {
  const uint8_t k = in_.U8();
  // Values past the enumerators, inside the enum's range of values (C++
  // callers cannot pass others).
  if (k % 16 == 15) return static_cast<mcMemcpyKind>(5 + in_.U8() % 3);
  return static_cast<mcMemcpyKind>(k % 5);
}

// --- Bookkeeping. ---

void Program::AddAllocation(const Allocation& allocation) {
  if (allocation.base == nullptr) {
    if (allocation.size != 0) {
      Fail(std::string("a successful ") + KindName(allocation.kind) +
           " allocation of " + std::to_string(allocation.size) +
           " bytes returned NULL");
    }
    return;
  }
  for (const Allocation& a : live_) {
    if (allocation.base < a.base + a.size &&
        a.base < allocation.base + allocation.size) {
      Fail(std::string("new ") + KindName(allocation.kind) + " allocation " +
           Hex(allocation.base) + " of " + std::to_string(allocation.size) +
           " bytes overlaps live " + KindName(a.kind) + " allocation " +
           Hex(a.base) + " of " + std::to_string(a.size) + " bytes");
    }
  }
  live_.push_back(allocation);
}

void Program::Released(size_t index) {
  freed_.push_back(live_[index]);
  if (freed_.size() > 16) freed_.erase(freed_.begin());
  live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(index));
}

int Program::LiveIndexOf(const void* base) const {
  for (size_t i = 0; i < live_.size(); ++i) {
    if (live_[i].base == base) return static_cast<int>(i);
  }
  return -1;
}

int Program::StreamDevice(mcStream_t stream) {
  for (const Stream& s : streams_) {
    if (s.handle == stream) return s.device;
  }
  return current_;
}

// --- Operations. ---

void Program::OpMalloc() {
  if (live_.size() >= kMaxLive) return;
  const size_t size = Size();
  void* p = nullptr;
  const bool null_out = in_.U8() % 16 == 0;
  if (Check("mcMalloc", mcMalloc(null_out ? nullptr : &p, size)) == mcSuccess) {
    AddAllocation({static_cast<char*>(p), size, Kind::kDevice, current_});
  }
}

void Program::OpMallocPitch() {
  if (live_.size() >= kMaxLive) return;
  const size_t width = in_.Bool() ? in_.U16() % 2048 : Size();
  size_t height = in_.Bool() ? in_.U8() % 16 : Size();
  // Both at most 1 MiB, the product fits the device and takes long to
  // touch: keep it to 64 MiB (Size() says why).
  if (width <= (1u << 20) && height <= (1u << 20) &&
      width * height > (1u << 26)) {
    height = 1 + height % 8;
  }
  void* p = nullptr;
  size_t pitch = 0;
  if (in_.Bool()) {
    const mcError_t result =
        Check("mcMallocPitch", mcMallocPitch(in_.U8() % 16 == 0 ? nullptr : &p,
                                             &pitch, width, height));
    if (result != mcSuccess) return;
    if (p != nullptr && (pitch < width || pitch % 256 != 0)) {
      Fail("mcMallocPitch(" + std::to_string(width) + ", " +
           std::to_string(height) + ") returned pitch " +
           std::to_string(pitch));
    }
    AddAllocation({static_cast<char*>(p), p ? pitch * height : 0, Kind::kDevice,
                   current_});
  } else {
    const size_t depth = in_.U8() % 4;
    mcPitchedPtr pitched;
    std::memset(&pitched, 0, sizeof(pitched));
    const mcError_t result =
        Check("mcMalloc3D", mcMalloc3D(in_.U8() % 16 == 0 ? nullptr : &pitched,
                                       make_mcExtent(width, height, depth)));
    if (result != mcSuccess) return;
    AddAllocation({static_cast<char*>(pitched.ptr),
                   pitched.ptr ? pitched.pitch * height * depth : 0,
                   Kind::kDevice, current_});
  }
}

void Program::OpMallocHost() {
  if (live_.size() >= kMaxLive) return;
  size_t size = Size();
  if (size > (1u << 22) && size < (size_t{1} << 40)) size %= 1u << 22;
  const unsigned flags = Flags(0x7);
  void* p = nullptr;
  const bool null_out = in_.U8() % 16 == 0;
  const mcError_t result =
      in_.Bool()
          ? Check("mcMallocHost",
                  mcMallocHost(null_out ? nullptr : &p, size, flags))
          : Check("mcMallocHost", mcMallocHost(null_out ? nullptr : &p, size));
  if (result != mcSuccess) return;
  AddAllocation({static_cast<char*>(p), size, Kind::kHost, current_});
  if (p != nullptr) {
    unsigned got = 0;
    Check("mcHostGetFlags", mcHostGetFlags(&got, p));
    void* device_pointer = nullptr;
    if (Check("mcHostGetDevicePointer",
              mcHostGetDevicePointer(&device_pointer, p, 0)) == mcSuccess &&
        device_pointer != p) {
      Fail("mcHostGetDevicePointer of page-locked " + Hex(p) + " returned " +
           Hex(device_pointer));
    }
  }
}

void Program::OpMallocManaged() {
  if (live_.size() >= kMaxLive) return;
  size_t size = Size();
  if (size > (1u << 22) && size < (size_t{1} << 40)) size %= 1u << 22;
  const unsigned flags = Flags(0x3);
  void* p = nullptr;
  if (Check("mcMallocManaged",
            mcMallocManaged(in_.U8() % 16 == 0 ? nullptr : &p, size, flags)) ==
      mcSuccess) {
    AddAllocation({static_cast<char*>(p), size, Kind::kManaged, current_});
  }
}

void Program::OpFree() {
  const bool host = in_.Bool();
  char* p = DevicePointer();
  if (p == graph_scratch_) return;  // Released last, by Release().
  const int index = LiveIndexOf(p);
  if (index >= 0 && live_[index].kind == Kind::kPool) return;  // OpFreeAsync.
  const mcError_t result =
      host ? Check("mcFreeHost", mcFreeHost(p)) : Check("mcFree", mcFree(p));
  const bool should_free =
      index >= 0 && (host ? live_[index].kind == Kind::kHost
                          : (live_[index].kind == Kind::kDevice ||
                             live_[index].kind == Kind::kManaged));
  if (result == mcSuccess && p != nullptr && index < 0) {
    Fail(std::string(host ? "mcFreeHost" : "mcFree") + "(" + Hex(p) +
         ") succeeded on no live allocation of its kind");
  }
  if (should_free) {
    if (result != mcSuccess) {
      Fail(std::string(host ? "mcFreeHost" : "mcFree") + " failed on live " +
           KindName(live_[index].kind) + " allocation " + Hex(p));
    }
    Released(static_cast<size_t>(index));
  } else if (result == mcSuccess && p != nullptr) {
    Fail(std::string(host ? "mcFreeHost" : "mcFree") + "(" + Hex(p) +
         ") succeeded on a " + KindName(live_[index].kind) + " allocation");
  }
}

void Program::OpMemcpy() {
  const mcMemcpyKind kind = CopyKind();
  const bool dst_device = kind == mcMemcpyHostToDevice ||
                          kind == mcMemcpyDeviceToDevice || kind > 4;
  const bool src_device = kind == mcMemcpyDeviceToHost ||
                          kind == mcMemcpyDeviceToDevice || kind > 4;
  size_t dst_room = ~size_t{0}, src_room = ~size_t{0};
  char* dst = dst_device ? DevicePointer() : HostSidePointer(&dst_room);
  const char* src = src_device ? DevicePointer() : HostSidePointer(&src_room);
  size_t count = in_.Bool() ? in_.U16() % 4096 : Size();
  count = std::min(count, std::min(dst_room, src_room));
  switch (in_.U8() % 3) {
    case 0:
      Check("mcMemcpy", mcMemcpy(dst, src, count, kind));
      break;
    case 1:
      Check("mcMemcpyAsync",
            mcMemcpyAsync(dst, src, count, kind, StreamHandle()));
      break;
    default: {
      // The same bytes as rows: pitches at least the width, so the rows
      // stay inside what a fuzzer buffer may offer.
      const size_t height = 1 + in_.U8() % 4;
      const size_t width = count / height;
      const size_t dpitch = width + (in_.Bool() ? 0 : in_.U8() % 64);
      const size_t spitch = in_.Bool() ? width : dpitch;
      if (dpitch * height > std::min(dst_room, src_room) ||
          spitch * height > std::min(dst_room, src_room)) {
        return;
      }
      Check("mcMemcpy2D", mcMemcpy2D(dst, in_.Bool() ? dpitch : width / 2, src,
                                     spitch, width, height, kind));
    }
  }
}

void Program::OpMemset() {
  char* p = DevicePointer();
  const int value = static_cast<int>(in_.U32());
  size_t count = in_.Bool() ? in_.U16() % 8192 : Size();
  switch (in_.U8() % 6) {
    case 0:
      Check("mcMemset", mcMemset(p, value, count));
      break;
    case 1:
      Check("mcMemsetAsync", mcMemsetAsync(p, value, count, StreamHandle()));
      break;
    case 2:
      Check("mcMemsetD8",
            mcMemsetD8(p, static_cast<unsigned char>(value), count));
      break;
    case 3:
      Check("mcMemsetD16",
            mcMemsetD16(p, static_cast<unsigned short>(value), count));
      break;
    case 4:
      Check("mcMemsetD32", mcMemsetD32(p, static_cast<unsigned>(value), count));
      break;
    default: {
      const size_t pitch = in_.U16() % 4096;
      const size_t width = in_.U16() % 4096;
      const size_t height = in_.U8() % 8;
      Check("mcMemset2D", mcMemset2D(p, pitch, value, width, height));
    }
  }
}

void Program::OpQueryPointer() {
  char* p = DevicePointer();
  mcPointerAttribute_t attributes;
  Check("mcPointerGetAttributes",
        mcPointerGetAttributes(in_.U8() % 16 == 0 ? nullptr : &attributes, p));
  mcDeviceptr_t base = nullptr;
  size_t size = 0;
  const mcError_t result =
      Check("mcMemGetAddressRange",
            mcMemGetAddressRange(in_.Bool() ? &base : nullptr,
                                 in_.Bool() ? &size : nullptr, p));
  bool inside = false;
  for (const Allocation& a : live_) {
    if (p >= a.base && p < a.base + a.size) inside = true;
  }
  for (const Registration& r : registered_) {
    if (p >= r.base && p < r.base + r.size) inside = true;
  }
  if (inside && result != mcSuccess) {
    Fail("mcMemGetAddressRange(" + Hex(p) + ") failed inside a live range");
  }
}

void Program::OpHostRegister() {
  if (in_.Bool() || registered_.empty()) {
    const size_t first = in_.Below(kRegisterPages);
    const size_t pages = in_.Below(kRegisterPages - first + 1);
    char* base = g_register + first * kPage + (in_.U8() % 8 == 0 ? 8 : 0);
    size_t size = pages * kPage;
    if (base + size > g_register + sizeof(g_register)) {
      size = static_cast<size_t>(g_register + sizeof(g_register) - base);
    }
    const unsigned flags = Flags(0xf);
    const mcError_t result =
        Check("mcHostRegister",
              mcHostRegister(in_.U8() % 16 == 0 ? nullptr : base, size, flags));
    if (result == mcSuccess) registered_.push_back({base, size});
  } else {
    const size_t index = in_.Below(registered_.size() + 1);
    char* base =
        index < registered_.size() ? registered_[index].base : DevicePointer();
    const mcError_t result = Check("mcHostUnregister", mcHostUnregister(base));
    if (index < registered_.size()) {
      if (result != mcSuccess) Fail("mcHostUnregister failed on a live range");
      registered_.erase(registered_.begin() +
                        static_cast<std::ptrdiff_t>(index));
    } else if (result == mcSuccess) {
      for (size_t i = 0; i < registered_.size(); ++i) {
        if (registered_[i].base == base) {
          registered_.erase(registered_.begin() +
                            static_cast<std::ptrdiff_t>(i));
          return;
        }
      }
      Fail("mcHostUnregister(" + Hex(base) + ") succeeded on no registration");
    }
  }
}

void Program::OpManagedHints() {
  char* p = DevicePointer();
  const size_t count = in_.Bool() ? in_.U16() % 8192 : Size();
  if (in_.Bool()) {
    const int device = in_.Bool() ? mcCpuDeviceId : DeviceOrdinal();
    Check("mcMemPrefetchAsync",
          mcMemPrefetchAsync(p, count, device, StreamHandle()));
  } else {
    const mcMemoryAdvise advice = static_cast<mcMemoryAdvise>(in_.U8() % 8);
    const int device = in_.Bool() ? mcCpuDeviceId : DeviceOrdinal();
    Check("mcMemAdvise", mcMemAdvise(p, count, advice, device));
  }
}

void Program::OpStream() {
  switch (in_.U8() % 7) {
    case 0: {
      if (streams_.size() >= kMaxHandles) return;
      mcStream_t stream = nullptr;
      mcStream_t* out = in_.U8() % 16 == 0 ? nullptr : &stream;
      mcError_t result;
      switch (in_.U8() % 3) {
        case 0:
          result = Check("mcStreamCreate", mcStreamCreate(out));
          break;
        case 1:
          result = Check("mcStreamCreateWithFlags",
                         mcStreamCreateWithFlags(out, Flags(0x1)));
          break;
        default:
          result = Check("mcStreamCreateWithPriority",
                         mcStreamCreateWithPriority(
                             out, Flags(0x1), static_cast<int>(in_.U32())));
      }
      if (result == mcSuccess) streams_.push_back({stream, current_});
      return;
    }
    case 1: {
      const mcStream_t stream = StreamHandle();
      const mcError_t result =
          Check("mcStreamDestroy", mcStreamDestroy(stream));
      for (size_t i = 0; i < streams_.size(); ++i) {
        if (streams_[i].handle != stream) continue;
        if (result != mcSuccess)
          Fail("mcStreamDestroy failed on a live stream");
        dead_streams_.push_back(stream);
        streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
      if (result == mcSuccess) {
        Fail("mcStreamDestroy(" + Hex(stream) + ") succeeded on no stream");
      }
      return;
    }
    case 2:
      Check("mcStreamSynchronize", mcStreamSynchronize(StreamHandle()));
      return;
    case 3:
      Check("mcStreamQuery", mcStreamQuery(StreamHandle()));
      return;
    case 4:
      Check("mcStreamWaitEvent",
            mcStreamWaitEvent(StreamHandle(), EventHandle(), Flags(0)));
      return;
    case 5: {
      unsigned flags = 0;
      int priority = 0, device = 0;
      const mcStream_t stream = StreamHandle();
      const bool null_out = in_.U8() % 8 == 0;
      Check("mcStreamGetFlags",
            mcStreamGetFlags(stream, null_out ? nullptr : &flags));
      Check("mcStreamGetPriority",
            mcStreamGetPriority(stream, null_out ? nullptr : &priority));
      Check("mcStreamGetDevice",
            mcStreamGetDevice(stream, null_out ? nullptr : &device));
      return;
    }
    default: {
      int least = 0, greatest = 0;
      Check("mcDeviceGetStreamPriorityRange",
            mcDeviceGetStreamPriorityRange(in_.Bool() ? &least : nullptr,
                                           in_.Bool() ? &greatest : nullptr));
    }
  }
}

void Program::OpEvent() {
  switch (in_.U8() % 7) {
    case 0: {
      if (events_.size() >= kMaxHandles) return;
      mcEvent_t event = nullptr;
      mcEvent_t* out = in_.U8() % 16 == 0 ? nullptr : &event;
      unsigned flags = 0;
      mcError_t result;
      if (in_.Bool()) {
        result = Check("mcEventCreate", mcEventCreate(out));
      } else {
        flags = Flags(0x7);
        result =
            Check("mcEventCreateWithFlags", mcEventCreateWithFlags(out, flags));
      }
      if (result == mcSuccess) events_.push_back({event, flags, current_});
      return;
    }
    case 1: {
      const mcEvent_t event = EventHandle();
      const mcError_t result = Check("mcEventDestroy", mcEventDestroy(event));
      for (size_t i = 0; i < events_.size(); ++i) {
        if (events_[i].handle != event) continue;
        if (result != mcSuccess) Fail("mcEventDestroy failed on a live event");
        dead_events_.push_back(event);
        events_.erase(events_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
      if (result == mcSuccess) {
        Fail("mcEventDestroy(" + Hex(event) + ") succeeded on no event");
      }
      return;
    }
    case 2:
      Check("mcEventRecord", mcEventRecord(EventHandle(), StreamHandle()));
      return;
    case 3:
      Check("mcEventQuery", mcEventQuery(EventHandle()));
      return;
    case 4:
      Check("mcEventSynchronize", mcEventSynchronize(EventHandle()));
      return;
    case 5: {
      float ms = 0;
      const mcEvent_t start = EventHandle();
      Check("mcEventElapsedTime",
            mcEventElapsedTime(in_.U8() % 16 == 0 ? nullptr : &ms, start,
                               EventHandle()));
      return;
    }
    default: {
      mcIpcEventHandle_t handle;
      std::memset(&handle, 0, sizeof(handle));
      if (Check("mcIpcGetEventHandle",
                mcIpcGetEventHandle(in_.U8() % 16 == 0 ? nullptr : &handle,
                                    EventHandle())) == mcSuccess) {
        // This process exported it. [api.ipc.event.open-handle]
        mcEvent_t opened = nullptr;
        if (Check("mcIpcOpenEventHandle",
                  mcIpcOpenEventHandle(&opened, handle)) == mcSuccess) {
          Fail("mcIpcOpenEventHandle opened a handle this process exported");
        }
      }
    }
  }
}

void Program::OpMallocAsync() {
  if (live_.size() >= kMaxLive) return;
  const mcStream_t stream = StreamHandle();
  size_t size = Size();
  void* p = nullptr;
  void** out = in_.U8() % 16 == 0 ? nullptr : &p;
  mcMemPool_t pool = nullptr;
  mcError_t result;
  if (in_.Bool()) {
    result = Check("mcMallocAsync", mcMallocAsync(out, size, stream));
    if (result == mcSuccess) {
      const int device = StreamDevice(stream);
      Check("mcDeviceGetMemPool", mcDeviceGetMemPool(&pool, device));
    }
  } else {
    pool = PoolHandle();
    result = Check("mcMallocFromPoolAsync",
                   mcMallocFromPoolAsync(out, size, pool, stream));
  }
  if (result != mcSuccess) return;
  int device = StreamDevice(stream);
  for (const Pool& p2 : pools_) {
    if (p2.handle == pool) device = p2.device;
  }
  for (size_t d = 0; d < default_pools_.size(); ++d) {
    if (default_pools_[d] == pool) device = static_cast<int>(d);
  }
  AddAllocation({static_cast<char*>(p), size, Kind::kPool, device, pool});
}

void Program::OpFreeAsync() {
  char* p = DevicePointer();
  if (p == graph_scratch_) return;  // Released last, by Release().
  const mcStream_t stream = StreamHandle();
  const int index = LiveIndexOf(p);
  if (index >= 0 && live_[index].kind != Kind::kPool && in_.Bool()) return;
  const mcError_t result = Check("mcFreeAsync", mcFreeAsync(p, stream));
  if (result != mcSuccess) return;
  if (index < 0) {
    Fail("mcFreeAsync(" + Hex(p) + ") succeeded on no live allocation");
  }
  if (live_[index].kind != Kind::kPool) {
    Fail("mcFreeAsync(" + Hex(p) + ") succeeded on a " +
         KindName(live_[index].kind) + " allocation");
  }
  // Eager timeline: the free has been reached when the call returns.
  Released(static_cast<size_t>(index));
  // A destroyed pool whose allocations are all freed gives its memory back
  // at a later synchronization [api.pool.destroy.deferred-release], so it
  // stays among the zombies, which make the free-memory check a bound,
  // until the input ends (Release checks that it was given back).
}

void Program::OpPool() {
  switch (in_.U8() % 6) {
    case 0: {
      if (pools_.size() >= 4) return;
      mcMemPoolProps props;
      std::memset(&props, 0, sizeof(props));
      props.allocType = in_.U8() % 8 == 0
                            ? static_cast<mcMemAllocationType>(in_.U8())
                            : mcMemAllocationTypePinned;
      props.handleTypes =
          in_.U8() % 8 == 0
              ? static_cast<mcMemAllocationHandleType>(in_.U8() % 16)
              : mcMemHandleTypeNone;
      props.location.type = in_.U8() % 8 == 0
                                ? static_cast<mcMemLocationType>(in_.U8() % 6)
                                : mcMemLocationTypeDevice;
      props.location.id = DeviceOrdinal();
      if (in_.U8() % 16 == 0) props.reserved[in_.Below(54)] = 1;
      mcMemPool_t pool = nullptr;
      if (Check("mcMemPoolCreate",
                mcMemPoolCreate(in_.U8() % 16 == 0 ? nullptr : &pool,
                                in_.U8() % 16 == 0 ? nullptr : &props)) ==
          mcSuccess) {
        pools_.push_back({pool, props.location.id});
        if (props.handleTypes == mcMemHandleTypePosixFileDescriptor) {
          int fd = -1;
          if (Check("mcMemPoolExportToShareableHandle",
                    mcMemPoolExportToShareableHandle(
                        &fd, pool, mcMemHandleTypePosixFileDescriptor, 0)) ==
                  mcSuccess &&
              fd >= 0) {
            close(fd);
          }
        }
      }
      return;
    }
    case 1: {
      const mcMemPool_t pool = PoolHandle();
      const mcError_t result =
          Check("mcMemPoolDestroy", mcMemPoolDestroy(pool));
      for (size_t i = 0; i < pools_.size(); ++i) {
        if (pools_[i].handle != pool) continue;
        if (result != mcSuccess) Fail("mcMemPoolDestroy failed on a live pool");
        for (const Allocation& a : live_) {
          if (a.kind == Kind::kPool && a.pool == pool) {
            zombie_pools_.push_back(pool);
            break;
          }
        }
        dead_pools_.push_back(pool);
        pools_.erase(pools_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
      return;
    }
    case 2:
      Check("mcMemPoolTrimTo", mcMemPoolTrimTo(PoolHandle(), Size()));
      return;
    case 3: {
      const mcMemPool_t pool = PoolHandle();
      const mcMemPoolAttr attr = static_cast<mcMemPoolAttr>(in_.U8() % 10);
      unsigned long long value = in_.Bool() ? in_.U8() % 3 : in_.U64();
      Check("mcMemPoolSetAttribute",
            mcMemPoolSetAttribute(pool, attr,
                                  in_.U8() % 16 == 0 ? nullptr : &value));
      return;
    }
    case 4: {
      const mcMemPool_t pool = PoolHandle();
      const mcMemPoolAttr attr = static_cast<mcMemPoolAttr>(in_.U8() % 10);
      unsigned long long value = 0;
      Check("mcMemPoolGetAttribute",
            mcMemPoolGetAttribute(pool, attr,
                                  in_.U8() % 16 == 0 ? nullptr : &value));
      return;
    }
    default: {
      const int device = DeviceOrdinal();
      const mcMemPool_t pool = PoolHandle();
      if (in_.Bool()) {
        Check("mcDeviceSetMemPool", mcDeviceSetMemPool(device, pool));
      } else {
        mcMemPool_t got = nullptr;
        Check("mcDeviceGetMemPool",
              mcDeviceGetMemPool(in_.U8() % 16 == 0 ? nullptr : &got, device));
      }
    }
  }
}

// mcDeviceReset of a device other than 0 (device 0 holds the graph
// scratch memory that graph nodes name): every allocation and stream of the
// device ends, page-locked host memory tied to it included
// [api.device.reset.destroys-allocations], and so do its streams and events
// [api.device.reset.destroys-streams-and-events]; nothing of another device
// does [api.device.reset.only-current-device]. Whether a managed allocation
// or a registration was the device's is the runtime's to say: those it no
// longer reports are released.
void Program::OpReset() {
  if (current_ == 0) return;
  Check("mcDeviceReset", mcDeviceReset());
  for (size_t i = 0; i < live_.size();) {
    mcPointerAttribute_t attributes;
    if (mcPointerGetAttributes(&attributes, live_[i].base) == mcSuccess &&
        attributes.type == mcMemoryTypeUnregistered) {
      if (live_[i].device != current_) {
        Fail("mcDeviceReset of device " + std::to_string(current_) +
             " released " + KindName(live_[i].kind) + " allocation " +
             Hex(live_[i].base) + " of device " +
             std::to_string(live_[i].device));
      }
      Released(i);
    } else {
      if (live_[i].device == current_ && live_[i].kind != Kind::kManaged) {
        Fail("mcDeviceReset of device " + std::to_string(current_) +
             " left its " + KindName(live_[i].kind) + " allocation " +
             Hex(live_[i].base));
      }
      ++i;
    }
  }
  for (size_t i = 0; i < registered_.size();) {
    mcPointerAttribute_t attributes;
    if (mcPointerGetAttributes(&attributes, registered_[i].base) == mcSuccess &&
        attributes.type == mcMemoryTypeUnregistered) {
      registered_.erase(registered_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  for (size_t i = 0; i < streams_.size();) {
    if (streams_[i].device == current_) {
      dead_streams_.push_back(streams_[i].handle);
      streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  for (size_t i = 0; i < events_.size();) {
    if (events_[i].device == current_) {
      dead_events_.push_back(events_[i].handle);
      events_.erase(events_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  // Its explicit pools die with it; a destroyed pool's memory is released.
  for (size_t i = 0; i < pools_.size();) {
    if (pools_[i].device == current_) {
      dead_pools_.push_back(pools_[i].handle);
      pools_.erase(pools_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

void Program::OpDevice() {
  switch (in_.U8() % 7) {
    case 6:
      return OpReset();
    case 0: {
      const int device = DeviceOrdinal();
      if (Check("mcSetDevice", mcSetDevice(device)) == mcSuccess) {
        current_ = device;
      }
      int got = -1;
      Check("mcGetDevice", mcGetDevice(&got));
      if (got != current_) {
        Fail("mcGetDevice returned " + std::to_string(got) + " after " +
             "selecting " + std::to_string(current_));
      }
      return;
    }
    case 1: {
      mcDeviceProp_t prop;
      Check("mcGetDeviceProperties",
            mcGetDeviceProperties(in_.U8() % 16 == 0 ? nullptr : &prop,
                                  DeviceOrdinal()));
      return;
    }
    case 2: {
      int value = 0;
      const mcDeviceAttribute_t attr =
          static_cast<mcDeviceAttribute_t>(in_.U8() % 140);
      Check("mcDeviceGetAttribute",
            mcDeviceGetAttribute(in_.U8() % 16 == 0 ? nullptr : &value, attr,
                                 DeviceOrdinal()));
      return;
    }
    case 3: {
      size_t value = 0;
      Check("mcDeviceGetLimit",
            mcDeviceGetLimit(in_.U8() % 16 == 0 ? nullptr : &value,
                             static_cast<mcLimit_t>(in_.U8() % 8)));
      return;
    }
    case 4:
      Check("mcDeviceSynchronize", mcDeviceSynchronize());
      return;
    default: {
      int count = 0;
      Check("mcGetDeviceCount", mcGetDeviceCount(&count));
      if (count != device_count_) Fail("mcGetDeviceCount changed");
    }
  }
}

void Program::OpErrors() {
  switch (in_.U8() % 3) {
    case 0: {
      const mcError_t got = mcGetLastError();
      if (got != last_error_) {
        Fail(std::string("mcGetLastError returned ") + mcGetErrorName(got) +
             " instead of " + mcGetErrorName(last_error_));
      }
      last_error_ = mcSuccess;
      return;
    }
    case 1: {
      // Any code has a name and a description, never null
      // [api.error.string.unrecognized-code].
      const mcError_t code = static_cast<mcError_t>(in_.U16() % 16384);
      if (mcGetErrorName(code) == nullptr ||
          mcGetErrorString(code) == nullptr) {
        Fail("mcGetErrorName or mcGetErrorString returned NULL for " +
             std::to_string(code));
      }
      return;
    }
    default: {
      const mcError_t got = mcPeekAtLastError();
      if (got != last_error_) Fail("mcPeekAtLastError changed by itself");
    }
  }
}

void Program::OpIpc() {
  switch (in_.U8() % 3) {
    case 0: {
      mcIpcMemHandle_t handle;
      std::memset(&handle, 0, sizeof(handle));
      if (Check("mcIpcGetMemHandle",
                mcIpcGetMemHandle(in_.U8() % 16 == 0 ? nullptr : &handle,
                                  DevicePointer())) == mcSuccess) {
        void* opened = nullptr;
        // [api.ipc.open-mem-handle.maps-in-other-process]: not this one.
        if (Check("mcIpcOpenMemHandle",
                  mcIpcOpenMemHandle(&opened, handle, Flags(0x1))) ==
            mcSuccess) {
          ipc_open_.push_back(opened);
        }
      }
      return;
    }
    case 1: {
      // Bytes no process exported, or a real handle with bytes changed.
      mcIpcMemHandle_t handle;
      std::memset(&handle, 0, sizeof(handle));
      if (in_.Bool() && !live_.empty()) {
        Check("mcIpcGetMemHandle", mcIpcGetMemHandle(&handle, live_[0].base));
      }
      unsigned char* bytes = reinterpret_cast<unsigned char*>(&handle);
      const size_t changes = 1 + in_.U8() % 8;
      for (size_t i = 0; i < changes; ++i) {
        bytes[in_.Below(sizeof(handle))] = in_.U8();
      }
      void* opened = nullptr;
      if (Check("mcIpcOpenMemHandle",
                mcIpcOpenMemHandle(&opened, handle, Flags(0x1))) == mcSuccess) {
        ipc_open_.push_back(opened);
      }
      return;
    }
    default: {
      void* p = DevicePointer();
      const mcError_t result =
          Check("mcIpcCloseMemHandle", mcIpcCloseMemHandle(p));
      auto it = std::find(ipc_open_.begin(), ipc_open_.end(), p);
      if (it != ipc_open_.end()) {
        if (result != mcSuccess) Fail("mcIpcCloseMemHandle failed on an open");
        ipc_open_.erase(it);
      }
    }
  }
}

void Program::OpGraph() {
  switch (in_.U8() % 8) {
    case 0: {
      if (graphs_.size() >= 4) return;
      mcGraph_t graph = nullptr;
      if (Check("mcGraphCreate",
                mcGraphCreate(in_.U8() % 16 == 0 ? nullptr : &graph,
                              in_.U8() % 8 == 0 ? in_.U32() : 0)) ==
          mcSuccess) {
        graphs_.push_back({graph, {}});
      }
      return;
    }
    case 1: {
      const mcGraph_t graph = GraphHandle();
      const mcError_t result = Check("mcGraphDestroy", mcGraphDestroy(graph));
      for (size_t i = 0; i < graphs_.size(); ++i) {
        if (graphs_[i].handle != graph) continue;
        if (result != mcSuccess) Fail("mcGraphDestroy failed on a live graph");
        dead_graphs_.push_back(graph);
        graphs_.erase(graphs_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
      return;
    }
    case 2:
    case 3: {
      Graph* graph = PickGraph();
      const mcGraph_t handle = graph ? graph->handle : GraphHandle();
      std::vector<mcGraphNode_t> dependencies;
      if (graph != nullptr && !graph->nodes.empty()) {
        const size_t count = in_.U8() % 3;
        for (size_t i = 0; i < count; ++i) {
          dependencies.push_back(graph->nodes[in_.Below(graph->nodes.size())]);
        }
      }
      if (in_.U8() % 16 == 0) {
        dependencies.push_back(
            reinterpret_cast<mcGraphNode_t>(static_cast<uintptr_t>(in_.U64())));
      }
      mcGraphNode_t node = nullptr;
      mcGraphNode_t* out = in_.U8() % 16 == 0 ? nullptr : &node;
      const mcGraphNode_t* deps =
          dependencies.empty() ? nullptr : dependencies.data();
      mcError_t result;
      switch (in_.U8() % 5) {
        case 0:
          result = Check(
              "mcGraphAddEmptyNode",
              mcGraphAddEmptyNode(out, handle, deps, dependencies.size()));
          break;
        case 1: {
          mcHostNodeParams params = {in_.U8() % 8 ? HostFunction : nullptr,
                                     &g_host_calls};
          result = Check("mcGraphAddHostNode",
                         mcGraphAddHostNode(out, handle, deps,
                                            dependencies.size(), &params));
          break;
        }
        case 2: {
          mcMemsetParams params;
          std::memset(&params, 0, sizeof(params));
          params.dst = in_.Bool() ? graph_scratch_ + in_.U8() : DevicePointer();
          params.elementSize = 1u << (in_.U8() % 4);
          params.width = in_.U16() % 2048;
          params.height = 1 + in_.U8() % 4;
          params.pitch =
              params.width * params.elementSize + (in_.Bool() ? 0 : in_.U8());
          params.value = in_.U32();
          // The node may only name memory that outlives every executable
          // graph: the scratch allocation, or memory the runtime must
          // reject.
          bool in_live = false;
          for (const Allocation& a : live_) {
            if (params.dst >= a.base && params.dst < a.base + a.size) {
              in_live = true;
            }
          }
          if (in_live) return;
          result = Check("mcGraphAddMemsetNode",
                         mcGraphAddMemsetNode(out, handle, deps,
                                              dependencies.size(), &params));
          break;
        }
        case 3: {
          const size_t offset = in_.U8();
          const size_t count = in_.U16() % 8192;
          const bool to_device = in_.Bool();
          const mcMemcpyKind kind = CopyKind();
          char* scratch = graph_scratch_ + offset;
          result = Check(
              "mcGraphAddMemcpyNode1D",
              mcGraphAddMemcpyNode1D(
                  out, handle, deps, dependencies.size(),
                  to_device ? scratch : g_host_a,
                  to_device ? static_cast<const void*>(g_host_b) : scratch,
                  std::min(count, kHostBufferSize), kind));
          break;
        }
        default:
          result =
              Check("mcGraphAddEventRecordNode",
                    mcGraphAddEventRecordNode(
                        out, handle, deps, dependencies.size(), EventHandle()));
      }
      if (result == mcSuccess && graph != nullptr && out != nullptr) {
        graph->nodes.push_back(node);
      }
      return;
    }
    case 4: {
      Graph* graph = PickGraph();
      if (graph == nullptr || graph->nodes.size() < 2) return;
      const mcGraphNode_t from = graph->nodes[in_.Below(graph->nodes.size())];
      const mcGraphNode_t to = graph->nodes[in_.Below(graph->nodes.size())];
      Check("mcGraphAddDependencies",
            mcGraphAddDependencies(graph->handle, &from, &to, 1));
      return;
    }
    case 5: {
      if (execs_.size() >= 4) return;
      const mcGraph_t graph = GraphHandle();
      mcGraphExec_t exec = nullptr;
      char log[64];
      if (Check("mcGraphInstantiate",
                mcGraphInstantiate(in_.U8() % 16 == 0 ? nullptr : &exec, graph,
                                   nullptr, log, sizeof(log))) == mcSuccess) {
        execs_.push_back(exec);
      }
      return;
    }
    case 6: {
      mcGraphExec_t exec = nullptr;
      switch (in_.U8() % 4) {
        case 0:
          exec = nullptr;
          break;
        case 1:
          if (!dead_execs_.empty()) {
            exec = dead_execs_[in_.Below(dead_execs_.size())];
          }
          break;
        default:
          if (!execs_.empty()) exec = execs_[in_.Below(execs_.size())];
      }
      Check("mcGraphLaunch", mcGraphLaunch(exec, StreamHandle()));
      return;
    }
    default: {
      if (execs_.empty()) {
        Check("mcGraphExecDestroy", mcGraphExecDestroy(nullptr));
        return;
      }
      const size_t index = in_.Below(execs_.size());
      if (Check("mcGraphExecDestroy", mcGraphExecDestroy(execs_[index])) !=
          mcSuccess) {
        Fail("mcGraphExecDestroy failed on a live executable graph");
      }
      dead_execs_.push_back(execs_[index]);
      execs_.erase(execs_.begin() + static_cast<std::ptrdiff_t>(index));
    }
  }
}

void Program::OpHostWork() {
  if (in_.Bool()) {
    Check(
        "mcLaunchHostFunc",
        mcLaunchHostFunc(StreamHandle(), in_.U8() % 8 ? HostFunction : nullptr,
                         &g_host_calls));
  } else {
    Check("mcStreamAddCallback",
          mcStreamAddCallback(StreamHandle(),
                              in_.U8() % 8 ? StreamCallback : nullptr,
                              &g_host_calls, Flags(0)));
  }
}

void Program::Step() {
  switch (in_.U8() % 22) {
    case 0:
    case 1:
      return OpMalloc();
    case 2:
      return OpMallocPitch();
    case 3:
      return OpMallocHost();
    case 4:
      return OpMallocManaged();
    case 5:
    case 6:
      return OpFree();
    case 7:
    case 8:
      return OpMemcpy();
    case 9:
      return OpMemset();
    case 10:
      return OpQueryPointer();
    case 11:
      return OpHostRegister();
    case 12:
      return OpManagedHints();
    case 13:
      return OpStream();
    case 14:
      return OpEvent();
    case 15:
      return OpMallocAsync();
    case 16:
      return OpFreeAsync();
    case 17:
      return OpPool();
    case 18:
      return OpDevice();
    case 19:
      return OpErrors();
    case 20:
      return OpIpc();
    default:
      return in_.Bool() ? OpGraph() : OpHostWork();
  }
}

// Releases everything the input made, in an order that leaves no dangling
// use, and checks that every device's memory is back to where it was.
void Program::Release() {
  auto must = [](const char* function, mcError_t result) {
    if (result != mcSuccess) {
      Fail(std::string("releasing at the end of the input: ") + function +
           " returned " + mcGetErrorName(result));
    }
  };
  for (int d = 0; d < device_count_; ++d) {
    must("mcSetDevice", mcSetDevice(d));
    must("mcDeviceSynchronize", mcDeviceSynchronize());
  }
  for (mcGraphExec_t exec : execs_) {
    must("mcGraphExecDestroy", mcGraphExecDestroy(exec));
  }
  for (const Graph& graph : graphs_) {
    must("mcGraphDestroy", mcGraphDestroy(graph.handle));
  }
  for (void* p : ipc_open_) must("mcIpcCloseMemHandle", mcIpcCloseMemHandle(p));
  for (const Allocation& a : live_) {
    switch (a.kind) {
      case Kind::kDevice:
      case Kind::kManaged:
        must("mcFree", mcFree(a.base));
        break;
      case Kind::kHost:
        must("mcFreeHost", mcFreeHost(a.base));
        break;
      case Kind::kPool:
        must("mcFreeAsync", mcFreeAsync(a.base, nullptr));
        break;
    }
  }
  live_.clear();
  for (const Registration& r : registered_) {
    must("mcHostUnregister", mcHostUnregister(r.base));
  }
  registered_.clear();
  for (const Stream& s : streams_) {
    must("mcStreamDestroy", mcStreamDestroy(s.handle));
  }
  for (const Event& e : events_)
    must("mcEventDestroy", mcEventDestroy(e.handle));
  for (int d = 0; d < device_count_; ++d) {
    must("mcSetDevice", mcSetDevice(d));
    must("mcDeviceSynchronize", mcDeviceSynchronize());
  }
  for (const Pool& p : pools_)
    must("mcMemPoolDestroy", mcMemPoolDestroy(p.handle));
  pools_.clear();
  zombie_pools_.clear();
  must("mcFree", mcFree(graph_scratch_));
  for (int d = 0; d < device_count_; ++d) {
    must("mcSetDevice", mcSetDevice(d));
    mcMemPool_t pool = nullptr;
    must("mcDeviceGetDefaultMemPool", mcDeviceGetDefaultMemPool(&pool, d));
    must("mcDeviceSetMemPool", mcDeviceSetMemPool(d, pool));
    must("mcMemPoolTrimTo", mcMemPoolTrimTo(pool, 0));
    size_t free_bytes = 0, total = 0;
    must("mcMemGetInfo", mcMemGetInfo(&free_bytes, &total));
    if (free_bytes != baseline_free_[static_cast<size_t>(d)]) {
      Fail("device " + std::to_string(d) + " has " +
           std::to_string(free_bytes) + " bytes free after the input " +
           "released everything, " +
           std::to_string(baseline_free_[static_cast<size_t>(d)]) +
           " before it: the allocation table leaked");
    }
  }
  must("mcSetDevice", mcSetDevice(0));
  (void)mcGetLastError();
}

void Program::Run() {
  // 16000 is no enumerator and inside the enum's range of values; codes
  // outside that range are a C caller's (unrecognized_code_test.c).
  unrecognized_name_ = mcGetErrorName(static_cast<mcError_t>(16000));
  if (mcGetDeviceCount(&device_count_) != mcSuccess || device_count_ < 1) {
    Fail("mcGetDeviceCount failed");
  }
  (void)mcGetLastError();
  for (int d = 0; d < device_count_; ++d) {
    size_t free_bytes = 0, total = 0;
    if (mcSetDevice(d) != mcSuccess ||
        mcMemGetInfo(&free_bytes, &total) != mcSuccess) {
      Fail("mcMemGetInfo failed before the input");
    }
    baseline_free_.push_back(free_bytes);
    mcMemPool_t pool = nullptr;
    if (mcDeviceGetDefaultMemPool(&pool, d) != mcSuccess) {
      Fail("mcDeviceGetDefaultMemPool failed before the input");
    }
    default_pools_.push_back(pool);
  }
  if (mcSetDevice(0) != mcSuccess ||
      mcMalloc(reinterpret_cast<void**>(&graph_scratch_),
               graph_scratch_size_) != mcSuccess) {
    Fail("the graph scratch allocation failed");
  }
  current_ = 0;
  for (int steps = 0; steps < 256 && !in_.done(); ++steps) {
    Step();
    CheckTable();
  }
  Release();
}

}  // namespace

void RunApiFuzzInput(const uint8_t* data, size_t size) {
  Program program(data, size);
  program.Run();
}

}  // namespace mxcts::fuzz
