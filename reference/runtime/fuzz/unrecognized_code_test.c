/* Copyright mxcts authors.
 *
 * mcGetErrorName and mcGetErrorString from C, where an mcError_t may hold
 * any int: a code far outside the enumerators' range is unrecognized like
 * any other [api.error.string.unrecognized-code]. (Found by the API
 * fuzzer: the C++ runtime loaded such a value as the enum, which UBSan
 * reports.) The control is a code inside the range that names nothing,
 * and a real code, which is recognized. Exit status 0 on success.
 */

#include <stdio.h>
#include <string.h>

#include "mc_runtime_api.h"

int main(void) {
  const char* unrecognized = mcGetErrorName((mcError_t)16000);
  const char* far_name = mcGetErrorName((mcError_t)0x7fff1234);
  const char* far_text = mcGetErrorString((mcError_t)-5);
  int failures = 0;
  if (unrecognized == NULL || far_name == NULL || far_text == NULL) {
    fprintf(stderr, "a NULL name or description\n");
    return 1;
  }
  if (strcmp(far_name, unrecognized) != 0) {
    fprintf(stderr, "0x7fff1234 is named \"%s\", not \"%s\"\n", far_name,
            unrecognized);
    ++failures;
  }
  if (strcmp(mcGetErrorString((mcError_t)16000), far_text) != 0) {
    fprintf(stderr, "-5 is described as \"%s\"\n", far_text);
    ++failures;
  }
  /* Control: a real code is recognized. */
  if (strcmp(mcGetErrorName(mcErrorInvalidValue), "mcErrorInvalidValue") != 0) {
    fprintf(stderr, "mcErrorInvalidValue is not recognized\n");
    ++failures;
  }
  return failures == 0 ? 0 : 1;
}
