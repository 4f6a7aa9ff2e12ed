// Copyright mxcts authors.
//
// mcr/detail/vector_types.h: the built-in vector types
// (docs/spec/lang-vector-types.md): char1..char4, uchar1..uchar4, short,
// ushort, int, uint, long, ulong, longlong, ulonglong, float and double, one
// to four components each, and a make_<type> function for every one.
// Included by mcr/mc_runtime_types.h, so mc_runtime.h and mc_runtime_api.h
// both declare them, as the vendor's headers do. Valid C and C++; host and
// device code alike see the same definitions, so sizes and alignments agree
// [lang.vector.align.same-on-host-and-device].
//
// Components are the members x, y, z, w in order, without padding
// [lang.vector.members.layout-in-order]. Alignment follows the table of the
// spec: the size of the type for one, two and four components, capped at
// 16 bytes, and the component's own for three components
// [lang.vector.align.char-family] ... [lang.vector.align.double-family].
// No operators are defined on them: programs operate on the components
// [lang.vector.members.operators-implementation-defined].
//
//   float2 p = make_float2(1.0f, 2.0f);   // p.x == 1, p.y == 2
//   int4 q = {1, 2, 3, 4};

#ifndef MCR_DETAIL_VECTOR_TYPES_H_
#define MCR_DETAIL_VECTOR_TYPES_H_

// The alignment of an N-component vector of T (N = 1, 2 or 4).
#define __MC_VECTOR_ALIGN(T, N) ((N) * sizeof(T) < 16 ? (N) * sizeof(T) : 16)

// One family: the four types NAME1..NAME4 of component type T, and their
// make_ functions [lang.vector.make.one-per-type]
// [lang.vector.make.components-in-order].
#define __MC_VECTOR_FAMILY(T, NAME)                                  \
  struct __attribute__((aligned(__MC_VECTOR_ALIGN(T, 1)))) NAME##1 { \
    T x;                                                             \
  };                                                                 \
  typedef struct NAME##1 NAME##1;                                    \
  struct __attribute__((aligned(__MC_VECTOR_ALIGN(T, 2)))) NAME##2 { \
    T x, y;                                                          \
  };                                                                 \
  typedef struct NAME##2 NAME##2;                                    \
  struct NAME##3 {                                                   \
    T x, y, z;                                                       \
  };                                                                 \
  typedef struct NAME##3 NAME##3;                                    \
  struct __attribute__((aligned(__MC_VECTOR_ALIGN(T, 4)))) NAME##4 { \
    T x, y, z, w;                                                    \
  };                                                                 \
  typedef struct NAME##4 NAME##4;                                    \
  static inline NAME##1 make_##NAME##1(T x) {                        \
    NAME##1 v = {x};                                                 \
    return v;                                                        \
  }                                                                  \
  static inline NAME##2 make_##NAME##2(T x, T y) {                   \
    NAME##2 v = {x, y};                                              \
    return v;                                                        \
  }                                                                  \
  static inline NAME##3 make_##NAME##3(T x, T y, T z) {              \
    NAME##3 v = {x, y, z};                                           \
    return v;                                                        \
  }                                                                  \
  static inline NAME##4 make_##NAME##4(T x, T y, T z, T w) {         \
    NAME##4 v = {x, y, z, w};                                        \
    return v;                                                        \
  }

// [lang.vector.types.all-defined] [lang.vector.types.component-types]
__MC_VECTOR_FAMILY(signed char, char)
__MC_VECTOR_FAMILY(unsigned char, uchar)
__MC_VECTOR_FAMILY(short, short)
__MC_VECTOR_FAMILY(unsigned short, ushort)
__MC_VECTOR_FAMILY(int, int)
// uint3 is also the type of threadIdx and blockIdx
// [lang.builtin.threadidx.type].
__MC_VECTOR_FAMILY(unsigned int, uint)
__MC_VECTOR_FAMILY(long, long)
__MC_VECTOR_FAMILY(unsigned long, ulong)
__MC_VECTOR_FAMILY(long long, longlong)
__MC_VECTOR_FAMILY(unsigned long long, ulonglong)
__MC_VECTOR_FAMILY(float, float)
__MC_VECTOR_FAMILY(double, double)

#undef __MC_VECTOR_FAMILY
#undef __MC_VECTOR_ALIGN

#endif  // MCR_DETAIL_VECTOR_TYPES_H_
