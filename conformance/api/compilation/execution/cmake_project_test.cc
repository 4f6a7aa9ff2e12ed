// Conformance: mxcc as the C++ compiler of a CMake project, as the runtime
// guide's section 4.1.1.1 sets it up (CMAKE_CXX_COMPILER naming
// $MACA_PATH/mxgpu_llvm/bin/mxcc, `-x maca` added with
// add_compile_options) [api.compile.mxcc.cmake-as-cxx-compiler]. One test
// configures and builds with cmake and make; the other runs the command
// lines such a build runs (CMake 3.20 and later, Makefile generator)
// without cmake. A backend whose tests run without MACA_PATH reports them
// unsupported; without cmake, the first is skipped as unsupported.

#include <sstream>
#include <string>

#include "conformance/testing/installed_sdk.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::CommandResult;
using ::mxcts::conformance::ShellQuote;

// The guide's CMakeLists.txt for a project with headers in include/ and
// sources in src/; COMPILE_FLAGS_LINE is where its -x maca goes.
constexpr char kCMakeLists[] = R"(cmake_minimum_required(VERSION 3.0)
project(my_program)
set(MXCC_PATH $ENV{MACA_PATH})
set(CMAKE_CXX_COMPILER ${MXCC_PATH}/mxgpu_llvm/bin/mxcc)
COMPILE_FLAGS_LINE
file(GLOB SRCS src/*.cpp main.cpp)
add_executable(my_program ${SRCS})
target_include_directories(my_program PRIVATE include)
)";

constexpr char kHeader[] = "int SumOfSquares(int n);\n";

// A kernel in a .cpp file: it compiles only as MXMACA source.
constexpr char kKernelSource[] = R"(#include <mc_runtime.h>
#include "squares.h"
__global__ void Squares(int* out) { out[threadIdx.x] = threadIdx.x * threadIdx.x; }
int SumOfSquares(int n) {
  int* out;
  if (mcMallocManaged(&out, n * sizeof(int)) != mcSuccess) return -1;
  Squares<<<1, n>>>(out);
  if (mcDeviceSynchronize() != mcSuccess) return -2;
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += out[i];
  mcFree(out);
  return sum;
}
)";

constexpr char kMain[] = R"(#include <stdio.h>
#include "squares.h"
int main() {
  printf("sum of squares below 10: %d\n", SumOfSquares(10));
  return 0;
}
)";

constexpr char kExpectedOutput[] = "sum of squares below 10: 285\n";

class CMakeProject : public ::mxcts::conformance::InstalledSdkTest {
 protected:
  // Writes the project into the directory `project`, its CMakeLists.txt
  // with `compile_flags_line` in place of COMPILE_FLAGS_LINE.
  void WriteProject(const std::string& project,
                    const std::string& compile_flags_line) {
    ASSERT_EQ(Shell("rm -rf " + project + " && mkdir -p " + project +
                    "/include " + project + "/src")
                  .status,
              0);
    std::string lists = kCMakeLists;
    lists.replace(lists.find("COMPILE_FLAGS_LINE"),
                  std::string("COMPILE_FLAGS_LINE").size(), compile_flags_line);
    Write(project + "/CMakeLists.txt", lists);
    Write(project + "/include/squares.h", kHeader);
    Write(project + "/src/squares.cpp", kKernelSource);
    Write(project + "/main.cpp", kMain);
  }

  // The guide's environment for the installation.
  std::string Environment() const {
    return "MACA_PATH=" + ShellQuote(root_) +
           " LD_LIBRARY_PATH=" + ShellQuote(root_ + "/lib") + " ";
  }

  // Whether a line of `text` starts with `start`, holds `middle` and ends
  // with `end`.
  static bool HasLine(const std::string& text, const std::string& start,
                      const std::string& middle, const std::string& end) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
      while (!line.empty() && line.back() == ' ') line.pop_back();
      if (line.size() >= start.size() + end.size() &&
          line.compare(0, start.size(), start) == 0 &&
          line.find(middle, start.size()) != std::string::npos &&
          line.compare(line.size() - end.size(), end.size(), end) == 0) {
        return true;
      }
    }
    return false;
  }

  // The guide's steps in `project`: cmake in build/, then make.
  CommandResult CMakeThenMake(const std::string& project) {
    return Shell("cd " + project + " && mkdir build && cd build && " +
                 Environment() + "cmake .. && " + Environment() +
                 "make VERBOSE=1");
  }
};

TEST_F(CMakeProject, BuildsWithCMakeAndMake) {
  MX_SPEC("api.compile.mxcc.cmake-as-cxx-compiler");
  if (Shell("command -v cmake && command -v make").status != 0) {
    GTEST_SKIP() << "unsupported: no cmake or make on PATH";
  }
  WriteProject("guide",
               "set(MXCC_COMPILE_FLAGS -x maca)\n"
               "add_compile_options(${MXCC_COMPILE_FLAGS})");
  CommandResult build = CMakeThenMake("guide");
  ASSERT_EQ(build.status, 0) << build.output;
  // The installed driver compiled each source with -x maca, and linked.
  for (const char* source : {"/main.cpp", "/src/squares.cpp"}) {
    EXPECT_TRUE(HasLine(build.output, Driver() + " ", " -x maca ",
                        std::string(" -c ") + directory_ + "/guide" + source))
        << source << " in\n"
        << build.output;
  }
  EXPECT_TRUE(HasLine(build.output, Driver() + " ", " ", " -o my_program"))
      << build.output;
  CommandResult run = Shell(Environment() + "guide/build/my_program");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, kExpectedOutput);
  // Control: without the guide's -x maca, the kernel's .cpp file is plain
  // C++ to the driver, and the build fails.
  WriteProject("no_flags", "");
  CommandResult control = CMakeThenMake("no_flags");
  EXPECT_NE(control.status, 0) << control.output;
  EXPECT_NE(Shell("test -e no_flags/build/my_program").status, 0);
}

TEST_F(CMakeProject, AcceptsTheCommandLinesCMakeRuns) {
  MX_SPEC("api.compile.mxcc.cmake-as-cxx-compiler");
  WriteProject("lines", "");
  const std::string project = directory_ + "/lines";
  const std::string objects = "CMakeFiles/my_program.dir";
  ASSERT_EQ(Shell("mkdir -p lines/build/" + objects + "/src").status, 0);
  // The compile line of each source: flags, includes, the options of
  // add_compile_options, the dependency file, then -o before -c.
  auto compile = [&](const std::string& source, const std::string& language) {
    const std::string object = objects + "/" + source + ".o";
    return Shell("cd lines/build && " + Environment() + ShellQuote(Driver()) +
                 " -I" + ShellQuote(project) + "/include " + language +
                 " -MD -MT " + object + " -MF " + object + ".d -o " + object +
                 " -c " + ShellQuote(project + "/" + source));
  };
  CommandResult kernels = compile("src/squares.cpp", "-x maca");
  ASSERT_EQ(kernels.status, 0) << kernels.output;
  CommandResult main = compile("main.cpp", "-x maca");
  ASSERT_EQ(main.status, 0) << main.output;
  // CMake reads the dependency file to rebuild when the header changes.
  EXPECT_NE(Read("lines/build/" + objects + "/src/squares.cpp.o.d")
                .find("include/squares.h"),
            std::string::npos);
  // The link line: -rdynamic (CMake's flag for executables of GNU-like
  // compilers), the objects, then -o.
  CommandResult link =
      Shell("cd lines/build && " + Environment() + ShellQuote(Driver()) +
            " -rdynamic " + objects + "/src/squares.cpp.o " + objects +
            "/main.cpp.o -o my_program");
  ASSERT_EQ(link.status, 0) << link.output;
  CommandResult run = Shell(Environment() + "lines/build/my_program");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, kExpectedOutput);
  // Control: the same compile line without -x maca rejects the kernel.
  CommandResult plain = compile("src/squares.cpp", "");
  EXPECT_NE(plain.status, 0) << plain.output;
}

}  // namespace
