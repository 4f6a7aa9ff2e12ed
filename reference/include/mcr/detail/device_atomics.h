// Copyright mxcts authors.
//
// mcr/detail/device_atomics.h: (being written).

#ifndef MCR_DETAIL_DEVICE_ATOMICS_H_
#define MCR_DETAIL_DEVICE_ATOMICS_H_

#endif  // MCR_DETAIL_DEVICE_ATOMICS_H_
