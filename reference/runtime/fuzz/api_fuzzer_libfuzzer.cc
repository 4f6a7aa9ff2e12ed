// Copyright mxcts authors.
//
// The libFuzzer entry of the API fuzzer: built only under
// `--config=fuzz` (clang, -fsanitize=fuzzer), by tools/fuzz_api --guided.

#include <cstddef>
#include <cstdint>

#include "reference/runtime/fuzz/api_fuzzer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mxcts::fuzz::RunApiFuzzInput(data, size);
  return 0;
}
