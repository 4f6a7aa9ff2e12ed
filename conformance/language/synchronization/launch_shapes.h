// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/language/synchronization/launch_shapes.h
// -----------------------------------------------------------------------------
//
// The block and grid shapes that the barrier and device-service conformance
// tests are parameterised over, so that every rule is checked at the
// boundaries where an implementation is likely to slip: one thread, a
// partial wave (63), a whole wave (64), one past a wave (65), the last
// thread of two waves (127, 128), one below the block limit (1023) and the
// limit itself (1024), and 2D/3D blocks whose linear order differs from x
// ((1023, 1) is the 1D shape 1023, so the 2D shapes of 1023 threads are
// (31, 33) and (1, 1023)).
//
//   class Barrier : public ::testing::TestWithParam<Shape> {};
//   INSTANTIATE_TEST_SUITE_P(Shapes, Barrier,
//                            ::testing::ValuesIn(BlockShapes()),
//                            ShapeParamName);
//   ...
//   const Shape block = GetParam();
//   Kernel<<<1, dim3(block.x, block.y, block.z)>>>(...);
//
// Plain C++ (no MXMACA types), so that any test source can include it.

#ifndef MXCTS_CONFORMANCE_LANGUAGE_SYNCHRONIZATION_LAUNCH_SHAPES_H_
#define MXCTS_CONFORMANCE_LANGUAGE_SYNCHRONIZATION_LAUNCH_SHAPES_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::conformance {

// The extent of a block or a grid.
struct Shape {
  unsigned x = 1;
  unsigned y = 1;
  unsigned z = 1;

  // The number of threads (or blocks).
  unsigned count() const { return x * y * z; }
  // "x64", "x32y32", "x8y8z16": usable in a GoogleTest name.
  std::string Name() const {
    std::string name = "x" + std::to_string(x);
    if (y != 1 || z != 1) name += "y" + std::to_string(y);
    if (z != 1) name += "z" + std::to_string(z);
    return name;
  }
};

// Every block shape: the 1D boundaries, then 2D and 3D shapes.
inline std::vector<Shape> BlockShapes() {
  return {{1},      {2},       {63},      {64},       {65},
          {127},    {128},     {1023},    {1024},     {32, 32},
          {31, 33}, {1, 1023}, {1, 1024}, {8, 8, 16}, {3, 5, 7}};
}

// Block shapes of at least two threads (a rule about threads that differ
// needs two of them).
inline std::vector<Shape> MultiThreadBlockShapes() {
  std::vector<Shape> shapes;
  for (const Shape& shape : BlockShapes()) {
    if (shape.count() >= 2) shapes.push_back(shape);
  }
  return shapes;
}

// A few grid shapes: one block, several in a row, a 2D grid.
inline std::vector<Shape> GridShapes() { return {{1}, {3}, {2, 2}}; }

// GoogleTest parameter names.
inline std::string ShapeParamName(const ::testing::TestParamInfo<Shape>& info) {
  return info.param.Name();
}

// The linear index of (x, y, z) in `extent`: x fastest, then y, then z.
inline unsigned LinearIndex(const Shape& extent, unsigned x, unsigned y,
                            unsigned z) {
  return x + extent.x * (y + extent.y * z);
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_LANGUAGE_SYNCHRONIZATION_LAUNCH_SHAPES_H_
