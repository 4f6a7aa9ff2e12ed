// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/expect_error.h
// -----------------------------------------------------------------------------
//
// Expect, the check of one call's result in a program that runs in a fresh
// process (MX_EXPECT_IN_FRESH_PROCESS, MX_EXPECT_TRAP) and so collects its
// problems as text instead of failing GoogleTest assertions: each check
// adds a sentence, or nothing, and the program reports the sentences on
// stderr.
//
//   std::string problems;
//   problems += Expect("mcStreamSynchronize", mcStreamSynchronize(s),
//                      mcSuccess);
//   if (!problems.empty()) std::fprintf(stderr, "%s\n", problems.c_str());
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_EXPECT_ERROR_H_
#define MXCTS_CONFORMANCE_API_TESTING_EXPECT_ERROR_H_

#include <mc_runtime.h>

#include <string>

namespace mxcts::conformance {

// "" if `error` is `expected`, else a sentence saying what `what` returned.
inline std::string Expect(const char* what, mcError_t error,
                          mcError_t expected) {
  if (error == expected) return "";
  return std::string(what) + " returned " + mcGetErrorName(error) +
         ", expected " + mcGetErrorName(expected) + "; ";
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_EXPECT_ERROR_H_
