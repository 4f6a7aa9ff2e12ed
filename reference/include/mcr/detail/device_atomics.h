// Copyright mxcts authors.
//
// ==========================================================================
// mcr/detail/device_atomics.h: atomic functions and memory fences
// ==========================================================================
//
// The device functions of docs/spec/lang-atomics.md and
// docs/spec/lang-memory-fences.md. mc_runtime.h includes this header, so
// programs name none of its parts.
//
// An atomic function reads a word of global or shared memory, combines it
// with an operand and writes the result back as one indivisible
// read-modify-write, returning the word's old value: atomicAdd, atomicSub,
// atomicExch, atomicMin, atomicMax, atomicInc, atomicDec, atomicCAS,
// atomicAnd, atomicOr, atomicXor. Each is a set of plain overloads (not a
// template), one per word type, and each exists also with the suffix
// `_block` (atomic among the threads of the caller's block) and `_system`
// (atomic also with respect to the host and peer devices). Atomics are
// relaxed: they order nothing but themselves; the fences
// __threadfence_block(), __threadfence() and __threadfence_system() order a
// thread's other accesses.
//
//   __device__ unsigned int tickets = 0;
//
//   __global__ void Sum(const float* in, volatile float* partial,
//                       float* total) {
//     __shared__ bool last;
//     if (threadIdx.x == 0) {
//       partial[blockIdx.x] = BlockSum(in);
//       __threadfence();                              // publish, then count
//       last = atomicInc(&tickets, gridDim.x) == gridDim.x - 1;
//     }
//     __syncthreads();
//     if (last && threadIdx.x == 0) {
//       float sum = 0;
//       for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
//       *total = sum;
//       tickets = 0;
//     }
//   }
//
// The overloads, by file:
//
//   device_atomics_integer.h  atomicAdd/Sub/Exch/Min/Max/Inc/Dec/CAS/And/
//                             Or/Xor on int, unsigned int, (unsigned) long
//                             long, (unsigned) long, unsigned short (CAS)
//   device_atomics_float.h    atomicAdd on float and double, atomicExch on
//                             float
//   device_atomics_half.h     atomicAdd on __half, __half2,
//                             __maca_bfloat16, __maca_bfloat162
//   device_atomics_fence.h    the three fences
//   device_atomics_support.h  the address check, the operations, and the
//                             macros that stamp out the three scope forms
//
// Errors: an atomic on a null address stops the grid with
// mcErrorIllegalAddress; on an address that is not a multiple of the word's
// size, with mcErrorMisalignedAddress. The diagnostic names the function and
// the address, for example
//
//   mxmaca trap: kernel 'Bump' block (0,0,0) thread (0,0,0):
//   atomicAdd: misaligned address 0x7f3c0a000004: a 64-bit atomic needs
//   8-byte alignment [lang.atomic.alignment.misaligned-64-bit-traps]
//
// and the error is sticky [lang.atomic.alignment.trap-error-is-sticky].
// Calling any of these functions from host code does not compile
// [lang.atomic.general.device-code-only].

#ifndef MCR_DETAIL_DEVICE_ATOMICS_H_
#define MCR_DETAIL_DEVICE_ATOMICS_H_

#include "mcr/detail/device_atomics_fence.h"
#include "mcr/detail/device_atomics_float.h"
#include "mcr/detail/device_atomics_half.h"
#include "mcr/detail/device_atomics_integer.h"
#include "mcr/detail/device_atomics_support.h"

#endif  // MCR_DETAIL_DEVICE_ATOMICS_H_
