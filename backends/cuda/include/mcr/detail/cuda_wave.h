// Copyright mxcts authors.
//
// mcr/detail/cuda_wave.h of the CUDA backend: MXMACA's wave functions that
// CUDA spells differently or no longer has. __syncwave is MXMACA's name for
// __syncwarp [lang.sync.syncwave.syncwarp-is-synonym]; its mask names the lanes
// of a wave, which has 32 lanes here (mc_common.h), so the mask's bits above
// the wave are no lanes.
//
// Included by mc_runtime.h in CUDA compilations; not for programs.

#ifndef MXCTS_CUDA_MCR_DETAIL_CUDA_WAVE_H_
#define MXCTS_CUDA_MCR_DETAIL_CUDA_WAVE_H_

#if defined(__CUDACC__) && defined(__cplusplus)

// Waits for the lanes of `mask` as __syncwarp does; the default is the
// whole wave [lang.sync.syncwave.default-mask].
__device__ inline void __syncwave(unsigned long mask = ~0ul) {
  __syncwarp(static_cast<unsigned>(mask));
}

// The lane of the calling thread in its wave, 0 to 31.
__device__ inline unsigned int __lane_id() {
  unsigned int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// The lanes below, at, at or below, at or above, above the caller's, as
// 64-bit masks (MXMACA's mask type) of this backend's 32-lane wave.
__device__ inline unsigned long __lanemask64_lt() {
  return (1ul << __lane_id()) - 1;
}
__device__ inline unsigned long __lanemask64_eq() { return 1ul << __lane_id(); }
__device__ inline unsigned long __lanemask64_le() {
  return __lanemask64_lt() | __lanemask64_eq();
}
__device__ inline unsigned long __lanemask64_ge() {
  return ~__lanemask64_lt() & 0xfffffffful;
}
__device__ inline unsigned long __lanemask64_gt() {
  return ~__lanemask64_le() & 0xfffffffful;
}

// The legacy mask-less shuffles [lang.wave.shfl-xor.legacy-maskless-form],
// which CUDA no longer has: each is its _sync form with the mask of every
// lane of the wave, and the same default width (the wave). A template so
// that every type CUDA's _sync forms take is taken here too.
template <class T>
__device__ inline T __shfl(T var, int src_lane, int width = warpSize) {
  return __shfl_sync(0xffffffffu, var, src_lane, width);
}
template <class T>
__device__ inline T __shfl_up(T var, unsigned int delta, int width = warpSize) {
  return __shfl_up_sync(0xffffffffu, var, delta, width);
}
template <class T>
__device__ inline T __shfl_down(T var, unsigned int delta,
                                int width = warpSize) {
  return __shfl_down_sync(0xffffffffu, var, delta, width);
}
template <class T>
__device__ inline T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(0xffffffffu, var, lane_mask, width);
}

#endif  // __CUDACC__ && __cplusplus

#endif  // MXCTS_CUDA_MCR_DETAIL_CUDA_WAVE_H_
