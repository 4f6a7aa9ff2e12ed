// Copyright mxcts authors.
//
// reference/device/scheduling/splitmix64.h: the pseudo-random sequence behind
// every seeded order of the reference (MXCTS_ENGINE_ORDER, MXCTS_TIMELINE).
// splitmix64 gives the same sequence on every platform and standard
// library, so a seed named in a diagnostic reproduces the run anywhere.
//
//   SplitMix64 random(seed);
//   uint64_t pick = random.Below(10);   // in [0, 10)

#ifndef REFERENCE_DEVICE_SCHEDULING_SPLITMIX64_H_
#define REFERENCE_DEVICE_SCHEDULING_SPLITMIX64_H_

#include <cstdint>

namespace mxcts {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t state) : state_(state) {}

  // The next number of the sequence.
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  // A number in [0, bound); bound > 0. The modulo bias is below 2^-40 for
  // bounds up to 2^24, the largest the reference draws.
  uint64_t Below(uint64_t bound) { return Next() % bound; }

 private:
  uint64_t state_;
};

}  // namespace mxcts

#endif  // REFERENCE_DEVICE_SCHEDULING_SPLITMIX64_H_
