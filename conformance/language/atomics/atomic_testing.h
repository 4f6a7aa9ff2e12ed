// -----------------------------------------------------------------------------
// File: conformance/language/atomics/atomic_testing.h
// -----------------------------------------------------------------------------
//
// What the atomics conformance tests share: the launch shapes they run on,
// the three scopes of every atomic function as a run-time choice, managed
// buffers, and the check that a set of returned old values is the trace of
// some sequence of indivisible read-modify-writes.
//
// The scopes. Each test runs each atomic in its unsuffixed, `_block` and
// `_system` form. A `_block` atomic is atomic only among the threads of one
// block [lang.atomic.scope.block-atomic-within-block], so under Scope::kBlock
// every block works on its own word (WordIndex), and results are checked per
// group of threads that share a word (Shape::GroupSize).
//
// The trace check. However the threads of a grid interleave, indivisible
// read-modify-writes on one word form a sequence s0 = initial,
// s(k+1) = op(s(k), operand of the k-th caller), and the k-th caller gets
// s(k) back. So the returned values together with the final value are,
// as a multiset, exactly the initial value together with op(old, operand)
// of every caller. A lost update, a torn update or a wrong returned value
// breaks that equality; IsTraceOfSequence checks it.

#ifndef MXCTS_CONFORMANCE_LANGUAGE_ATOMICS_ATOMIC_TESTING_H_
#define MXCTS_CONFORMANCE_LANGUAGE_ATOMICS_ATOMIC_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <algorithm>
#include <cstring>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace mxcts::conformance::atomics {

// --------------------------------------------------------------------------
// Launch shapes.
// --------------------------------------------------------------------------

enum class Scope { kDevice, kBlock, kSystem };

// A one-dimensional launch: `blocks` blocks of `threads` threads.
struct Shape {
  unsigned blocks;
  unsigned threads;

  unsigned Total() const { return blocks * threads; }
  // The number of threads that update one word under `scope`.
  unsigned GroupSize(Scope scope) const {
    return scope == Scope::kBlock ? threads : Total();
  }
  // The number of words (one per group).
  unsigned Groups(Scope scope) const {
    return scope == Scope::kBlock ? blocks : 1;
  }
  // The group of the thread with linear grid index `id`.
  unsigned GroupOf(unsigned id, Scope scope) const {
    return scope == Scope::kBlock ? id / threads : 0;
  }
};

// Single threads, one wave less one, one wave, one wave and one, a few
// waves, the largest block; and grids of several blocks.
inline std::vector<Shape> AllShapes() {
  return {{1, 1},    {1, 63}, {1, 64},  {1, 65},  {1, 256},
          {1, 1024}, {3, 65}, {4, 256}, {2, 1024}};
}

// Shapes of at most 256 threads in all, for operations whose values must
// stay small (bfloat16 counts exactly only to 256).
inline std::vector<Shape> SmallShapes() {
  return {{1, 1}, {1, 63}, {1, 64}, {1, 65}, {1, 256}, {3, 65}, {4, 64}};
}

inline std::vector<Scope> AllScopes() {
  return {Scope::kDevice, Scope::kBlock, Scope::kSystem};
}

inline std::string ScopeName(Scope scope) {
  switch (scope) {
    case Scope::kDevice:
      return "Device";
    case Scope::kBlock:
      return "Block";
    case Scope::kSystem:
      return "System";
  }
  return "Unknown";
}

inline std::string ShapeName(const Shape& shape) {
  return std::to_string(shape.blocks) + "x" + std::to_string(shape.threads);
}

// The suffix of the atomic function names for `scope`.
inline std::string ScopeSuffix(Scope scope) {
  return scope == Scope::kBlock    ? "_block"
         : scope == Scope::kSystem ? "_system"
                                   : "";
}

// One test body instantiated for one word type. Its assertions are reached
// through a pointer, so a test calls it inside EXPECT_NO_FATAL_FAILURE: a
// fatal failure of the body is then reported at the test too, and the
// conformance lint (tools/test_lint) sees that the test asserts.
struct TypedRun {
  const char* type_name;
  void (*run)(Shape shape, Scope scope);
};

// The parameter of most tests: a word type, a launch shape and a scope.
using TypedShapeScope = std::tuple<TypedRun, Shape, Scope>;

// "Int_3x65_Block".
inline std::string TypedShapeScopeName(
    const ::testing::TestParamInfo<TypedShapeScope>& info) {
  return std::string(std::get<0>(info.param).type_name) + "_" +
         ShapeName(std::get<1>(info.param)) + "_" +
         ScopeName(std::get<2>(info.param));
}

// Every combination of `runs`, AllShapes() (or `shapes`) and AllScopes().
inline auto AllCombinations(const std::vector<TypedRun>& runs,
                            const std::vector<Shape>& shapes = AllShapes()) {
  return ::testing::Combine(::testing::ValuesIn(runs),
                            ::testing::ValuesIn(shapes),
                            ::testing::ValuesIn(AllScopes()));
}

// GoogleTest prints parameters of failing tests with these.
inline void PrintTo(const Shape& shape, std::ostream* os) {
  *os << ShapeName(shape);
}
inline void PrintTo(Scope scope, std::ostream* os) { *os << ScopeName(scope); }
inline void PrintTo(const TypedRun& run, std::ostream* os) {
  *os << run.type_name;
}

// --------------------------------------------------------------------------
// Device side.
// --------------------------------------------------------------------------

// The calling thread's index in a one-dimensional grid.
__device__ inline unsigned GridThreadId() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

// The word the calling thread updates under `scope`: its block's under
// kBlock, else the grid's one word.
__device__ inline unsigned WordIndex(Scope scope) {
  return scope == Scope::kBlock ? blockIdx.x : 0;
}

// MX_SCOPED_ATOMIC(Name, atomicName) defines
// `template <class T> T Name(Scope, T* address, T val)` calling
// atomicName, atomicName_block or atomicName_system.
#define MX_SCOPED_ATOMIC(NAME, FUNCTION)              \
  template <class T>                                  \
  __device__ T NAME(Scope scope, T* address, T val) { \
    switch (scope) {                                  \
      case Scope::kBlock:                             \
        return FUNCTION##_block(address, val);        \
      case Scope::kSystem:                            \
        return FUNCTION##_system(address, val);       \
      default:                                        \
        return FUNCTION(address, val);                \
    }                                                 \
  }

MX_SCOPED_ATOMIC(ScopedAdd, atomicAdd)
MX_SCOPED_ATOMIC(ScopedSub, atomicSub)
MX_SCOPED_ATOMIC(ScopedExch, atomicExch)
MX_SCOPED_ATOMIC(ScopedMin, atomicMin)
MX_SCOPED_ATOMIC(ScopedMax, atomicMax)
MX_SCOPED_ATOMIC(ScopedInc, atomicInc)
MX_SCOPED_ATOMIC(ScopedDec, atomicDec)
MX_SCOPED_ATOMIC(ScopedAnd, atomicAnd)
MX_SCOPED_ATOMIC(ScopedOr, atomicOr)
MX_SCOPED_ATOMIC(ScopedXor, atomicXor)

template <class T>
__device__ T ScopedCas(Scope scope, T* address, T compare, T val) {
  switch (scope) {
    case Scope::kBlock:
      return atomicCAS_block(address, compare, val);
    case Scope::kSystem:
      return atomicCAS_system(address, compare, val);
    default:
      return atomicCAS(address, compare, val);
  }
}

// --------------------------------------------------------------------------
// Host side.
// --------------------------------------------------------------------------

// `count` elements of managed memory, each set to `initial`; freed on
// destruction. ok() is false if the allocation failed.
template <class T>
class ManagedArray {
 public:
  explicit ManagedArray(size_t count, T initial = T()) : count_(count) {
    if (mcMallocManaged(&data_, count * sizeof(T)) != mcSuccess) {
      data_ = nullptr;
      return;
    }
    for (size_t i = 0; i < count; ++i) data_[i] = initial;
  }
  ManagedArray(const ManagedArray&) = delete;
  ManagedArray& operator=(const ManagedArray&) = delete;
  ~ManagedArray() {
    if (data_ != nullptr) mcFree(data_);
  }

  bool ok() const { return data_ != nullptr; }
  T* get() const { return data_; }
  T& operator[](size_t i) const { return data_[i]; }
  size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  size_t count_;
};

// The bit pattern of `value`, for comparing floating-point values exactly
// (NaN payloads, the sign of zero) and for ordering them in multisets.
template <class T>
unsigned long long BitsOf(T value) {
  unsigned long long bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

// Whether `olds` (the values the callers got back) and `final_value` are the
// trace of a sequence of indivisible `op`s on a word holding `initial`, the
// k-th caller applying `operands[k]` (see the file comment). Compares bit
// patterns, so floating-point results must be reproduced exactly by `op`.
template <class T, class Op>
::testing::AssertionResult IsTraceOfSequence(T initial,
                                             const std::vector<T>& olds,
                                             const std::vector<T>& operands,
                                             T final_value, Op op) {
  if (olds.size() != operands.size()) {
    return ::testing::AssertionFailure() << "one operand per caller needed";
  }
  std::vector<unsigned long long> seen{BitsOf(final_value)};
  std::vector<unsigned long long> produced{BitsOf(initial)};
  for (size_t k = 0; k < olds.size(); ++k) {
    seen.push_back(BitsOf(olds[k]));
    produced.push_back(BitsOf(static_cast<T>(op(olds[k], operands[k]))));
  }
  std::sort(seen.begin(), seen.end());
  std::sort(produced.begin(), produced.end());
  if (seen != produced) {
    return ::testing::AssertionFailure()
           << "the returned values and the final value are not the trace "
              "of any sequence of indivisible updates ("
           << olds.size() << " callers)";
  }
  return ::testing::AssertionSuccess();
}

// The values at `indices` of `all`.
template <class T>
std::vector<T> Select(const ManagedArray<T>& all,
                      const std::vector<unsigned>& indices) {
  std::vector<T> out;
  out.reserve(indices.size());
  for (unsigned i : indices) out.push_back(all[i]);
  return out;
}

// The linear grid indices of the threads of group `group` under `scope`.
inline std::vector<unsigned> ThreadsOfGroup(const Shape& shape, Scope scope,
                                            unsigned group) {
  std::vector<unsigned> ids;
  for (unsigned id = 0; id < shape.Total(); ++id) {
    if (shape.GroupOf(id, scope) == group) ids.push_back(id);
  }
  return ids;
}

}  // namespace mxcts::conformance::atomics

#endif  // MXCTS_CONFORMANCE_LANGUAGE_ATOMICS_ATOMIC_TESTING_H_
