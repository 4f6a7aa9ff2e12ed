// Copyright mxcts authors.
//
// reference/runtime/fuzz/api_fuzzer.h: the API fuzzer's interpreter. An
// input is a program: each step reads an operation and its arguments from
// the bytes and calls the public runtime API with them, valid and invalid
// alike (live, freed, interior, null and made-up pointers and handles,
// sizes from 0 to past the device, flags and enumerators outside their
// sets). After every call it checks that
//   - an error is a defined mcError_t that the function documents
//     (documented_errors.h), and is the thread's last error afterwards
//     [api.error.last.recorded-on-failure];
//   - every allocation the program holds is still what mcPointerGetAttributes
//     and mcMemGetAddressRange report (kind, device, base, size), allocations
//     never overlap, released ones are gone, and mcMemGetInfo's free memory
//     is the device's capacity less the live allocations and pool
//     reservations.
// At the end of an input it releases everything it made and checks that
// every device's free memory is back where it started, so a leak in the
// allocation table is a failure of the input that caused it.
//
// A violated check prints what was called and why it is wrong, then aborts,
// so libFuzzer (api_fuzzer_libfuzzer.cc) and the replay driver
// (api_fuzzer_replay.cc) both see it as a crash of that input.

#ifndef REFERENCE_RUNTIME_FUZZ_API_FUZZER_H_
#define REFERENCE_RUNTIME_FUZZ_API_FUZZER_H_

#include <cstddef>
#include <cstdint>

namespace mxcts::fuzz {

// Runs one input: the whole program it encodes, then the release and the
// end-of-input checks. Any input is valid; the process state after it is
// the state before it (the runtime's allocations, streams, events, pools
// and graphs made by the input are gone, device 0 is current, no last
// error is pending).
void RunApiFuzzInput(const uint8_t* data, size_t size);

}  // namespace mxcts::fuzz

#endif  // REFERENCE_RUNTIME_FUZZ_API_FUZZER_H_
