// Copyright mxcts authors.
//
// ==========================================================================
// mc_common.h: definitions shared by MXMACA host and device code
// ==========================================================================
//
// The wave width and the small portability macros every MXMACA source may
// use without naming a header for them. The runtime header mc_runtime.h
// includes this file; programs often include it beside the runtime header,
// which is harmless. It declares no function.
//
//   #include <mc_runtime.h>
//   #include <mc_common.h>
//
//   struct __align__(16) Particle { float x, y, z, w; };
//   static_assert(warpSize == 64, "one wave is 64 threads");
//   int lanes_per_half = MACA_HALF_WARP_SIZE;  // 32

#ifndef MC_COMMON_H_
#define MC_COMMON_H_

// The number of threads in half a wave; a 32-bit lane mask covers it.
#define MACA_HALF_WARP_SIZE 32

// Aligns a type or variable to `n` bytes, `n` a power of two.
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif

#ifdef __cplusplus
// The number of threads in a wave. Both spellings exist and both are 64, in
// host and in device code. These are constants rather than macros so that
// the mcDeviceProp_t fields of the same names stay usable.
// [api.device.props.wave-size-is-64]
inline constexpr int warpSize = 64;
inline constexpr int waveSize = 64;
#endif

#endif  // MC_COMMON_H_
