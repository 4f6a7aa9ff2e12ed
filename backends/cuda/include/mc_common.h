// Copyright mxcts authors.
//
// mc_common.h of the CUDA backend: the constants MXMACA programs include
// beside the runtime header, with this backend's values.
//
// The wave of an NVIDIA GPU has 32 lanes, not MXMACA's 64: waveSize (and
// CUDA's own warpSize) is 32 here, and MACA_HALF_WARP_SIZE half of it. The
// capability manifest states the same (wave_size 32), so tests that need a
// 64-lane wave report unsupported.

#ifndef MXCTS_CUDA_MC_COMMON_H_
#define MXCTS_CUDA_MC_COMMON_H_

// The reference's mc_common.h defines warpSize, which CUDA owns here.
#ifndef MC_COMMON_H_
#define MC_COMMON_H_
#endif

#define MACA_HALF_WARP_SIZE 16

#ifdef __cplusplus
// The lanes of one wave (MXMACA's name for CUDA's warpSize), usable in
// host and device code.
inline constexpr int waveSize = 32;
#endif

#endif  // MXCTS_CUDA_MC_COMMON_H_
