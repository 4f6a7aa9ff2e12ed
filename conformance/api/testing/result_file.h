// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/result_file.h
// -----------------------------------------------------------------------------
//
// Where a program run in a fresh process leaves a result for the test that
// started it, and how each side writes and reads it: a text file in the
// test's temporary folder ($TEST_TMPDIR).
//
//   const std::string path = ResultFilePath("order_1");
//   MX_EXPECT_HOLDS_IN_FRESH_PROCESS(WriteTextFile(path, log.Joined()));
//   ReadTextFile(path);  // what the fresh process wrote, or "<missing>"
//
// Host code only.

#ifndef MXCTS_CONFORMANCE_API_TESTING_RESULT_FILE_H_
#define MXCTS_CONFORMANCE_API_TESTING_RESULT_FILE_H_

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace mxcts::conformance {

// The path of the result file `name` in the test's temporary folder (/tmp
// outside Bazel).
inline std::string ResultFilePath(const std::string& name) {
  const char* folder = std::getenv("TEST_TMPDIR");
  return std::string(folder != nullptr ? folder : "/tmp") + "/" + name;
}

// Replaces the file at `path` with `text`; false if that failed.
inline bool WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

// The file's text, or "<missing>".
inline std::string ReadTextFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "<missing>";
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_RESULT_FILE_H_
