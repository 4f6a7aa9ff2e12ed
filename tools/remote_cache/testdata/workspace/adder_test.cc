// Fails (exit 1) unless Add agrees with the generated expected_sum.h, so the
// cached test result is a real one.
#include "adder.h"

#include <cstdio>

#include "expected_sum.h"

int main() {
  const int sum = Add(2, 3);
  if (sum != kExpectedSum) {
    std::printf("Add(2, 3) = %d, expected %d\n", sum, kExpectedSum);
    return 1;
  }
  std::printf("Add(2, 3) = %d\n", sum);
  return 0;
}
