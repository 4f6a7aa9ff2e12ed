// Conformance: a program calling mcrtc, built as the runtime guide builds
// rtc_test.cpp (section 4.2: `mxcc -x maca rtc_test.cpp`), links without
// naming -lmcrtc, and runs with the installation's lib/libmcrtc.so
// [api.rtc.library.linked-by-mxcc]. A backend whose tests run without
// MACA_PATH reports the tests unsupported.

#include <stdlib.h>

#include <sstream>
#include <string>

#include "conformance/testing/installed_sdk.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::CommandResult;
using ::mxcts::conformance::ShellQuote;

// The guide's rtc_test.cpp with its device code in a string: compiles a
// kernel with mcrtc, loads it as a module and launches it.
constexpr char kRtcTest[] = R"(#include <mc_runtime.h>
#include <mcrtc.h>
#include <stdio.h>
#include <vector>
static const char kKernel[] =
    "extern \"C\" __global__ void test_kernel(int* out) {\n"
    "  out[threadIdx.x] = 100 + threadIdx.x;\n"
    "}\n";
int main() {
  mcrtcProgram prog;
  if (mcrtcCreateProgram(&prog, kKernel, "", 0, NULL, NULL) != MCRTC_SUCCESS)
    return 2;
  const char* opts[] = {"-x maca"};
  mcrtcResult compiled = mcrtcCompileProgram(prog, 1, opts);
  if (compiled != MCRTC_SUCCESS) {
    printf("%s\n", mcrtcGetErrorString(compiled));
    return 3;
  }
  size_t codeSize;
  if (mcrtcGetCodeSize(prog, &codeSize) != MCRTC_SUCCESS) return 4;
  std::vector<char> code(codeSize);
  if (mcrtcGetCode(prog, code.data()) != MCRTC_SUCCESS) return 5;
  mcrtcDestroyProgram(&prog);
  mcModule_t module;
  mcFunction_t kernel;
  if (mcModuleLoadData(&module, code.data()) != mcSuccess) return 6;
  if (mcModuleGetFunction(&kernel, module, "test_kernel") != mcSuccess)
    return 7;
  int* out;
  if (mcMallocManaged(&out, 3 * sizeof(int)) != mcSuccess) return 8;
  void* args[] = {&out};
  if (mcModuleLaunchKernel(kernel, 1, 1, 1, 3, 1, 1, 0, NULL, args, NULL) !=
      mcSuccess)
    return 9;
  if (mcDeviceSynchronize() != mcSuccess) return 10;
  printf("%d %d %d\n", out[0], out[1], out[2]);
  mcModuleUnload(module);
  return 0;
}
)";

class McrtcLibraryLink : public ::mxcts::conformance::InstalledSdkTest {
 protected:
  // The guide's environment for the installation; the binary cache in the
  // test's directory.
  std::string Environment() const {
    return "MACA_PATH=" + ShellQuote(root_) +
           " LD_LIBRARY_PATH=" + ShellQuote(root_ + "/lib") +
           " PATH=" + ShellQuote(root_ + "/mxgpu_llvm/bin") + ":\"$PATH\"" +
           " MACA_CACHE_PATH=" + ShellQuote(directory_ + "/cache") + " ";
  }

  // The file the dynamic linker loads for `library` in `program`, links
  // resolved, as ldd reports it; empty if ldd names none.
  std::string LoadedFile(const std::string& program,
                         const std::string& library) {
    std::istringstream lines(Shell(Environment() + "ldd " + program).output);
    std::string line;
    const std::string arrow = library + " => ";
    while (std::getline(lines, line)) {
      size_t at = line.find(arrow);
      if (at == std::string::npos) continue;
      std::string path = line.substr(at + arrow.size());
      path = path.substr(0, path.find(" ("));
      char* resolved = realpath(path.c_str(), nullptr);
      if (resolved == nullptr) return path;
      std::string real = resolved;
      free(resolved);
      return real;
    }
    return "";
  }

  // The installation's copy of `library`, links resolved.
  std::string InstalledFile(const std::string& library) {
    char* resolved = realpath((root_ + "/lib/" + library).c_str(), nullptr);
    if (resolved == nullptr) return root_ + "/lib/" + library;
    std::string real = resolved;
    free(resolved);
    return real;
  }
};

TEST_F(McrtcLibraryLink, GuideCommandLineLinksMcrtc) {
  MX_SPEC("api.rtc.library.linked-by-mxcc");
  Write("rtc_test.cpp", kRtcTest);
  CommandResult build = Shell(Environment() + "mxcc -x maca rtc_test.cpp");
  ASSERT_EQ(build.status, 0) << build.output;
  CommandResult run = Shell(Environment() + "./a.out");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "100 101 102\n");
  // The library is the installation's.
  EXPECT_EQ(LoadedFile("a.out", "libmcrtc.so"), InstalledFile("libmcrtc.so"));
}

TEST_F(McrtcLibraryLink, ControlLinkWithoutTheDriverMissesMcrtc) {
  MX_SPEC("api.rtc.library.linked-by-mxcc");
  // The driver compiles the object; the host's linker, given the runtime
  // but not mcrtc, finds the mcrtc calls undefined: the driver's link is
  // what adds the library.
  Write("rtc_test.cpp", kRtcTest);
  CommandResult compile =
      Shell(Environment() + "mxcc -x maca -c rtc_test.cpp -o rtc_test.o");
  ASSERT_EQ(compile.status, 0) << compile.output;
  CommandResult plain =
      Shell("c++ rtc_test.o -o plain -L" + ShellQuote(root_ + "/lib") +
            " -lmcruntime -Wl,-rpath," + ShellQuote(root_ + "/lib"));
  EXPECT_NE(plain.status, 0) << plain.output;
  EXPECT_NE(plain.output.find("mcrtcCreateProgram"), std::string::npos)
      << plain.output;
  // The same object linked by the driver runs.
  CommandResult link = Shell(Environment() + "mxcc rtc_test.o -o linked");
  ASSERT_EQ(link.status, 0) << link.output;
  CommandResult run = Shell(Environment() + "./linked");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "100 101 102\n");
}

}  // namespace
