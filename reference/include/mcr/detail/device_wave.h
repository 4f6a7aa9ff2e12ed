// Copyright mxcts authors.
//
// mcr/detail/device_wave.h: (being written).

#ifndef MCR_DETAIL_DEVICE_WAVE_H_
#define MCR_DETAIL_DEVICE_WAVE_H_

#endif  // MCR_DETAIL_DEVICE_WAVE_H_
