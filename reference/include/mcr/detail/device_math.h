// Copyright mxcts authors.
//
// mcr/detail/device_math.h: (being written).

#ifndef MCR_DETAIL_DEVICE_MATH_H_
#define MCR_DETAIL_DEVICE_MATH_H_

#endif  // MCR_DETAIL_DEVICE_MATH_H_
