// Conformance: the installation a program is built with
// (docs/spec/api-compilation.md, "Offline compilation with mxcc"): its
// layout under $MACA_PATH [api.compile.mxcc.install-layout], and that a copy
// of it elsewhere is a working installation of its own that refers to
// nothing of the original [api.compile.mxcc.install-relocatable]. A backend
// whose tests run without MACA_PATH reports these tests unsupported.

#include <stdlib.h>

#include <cctype>
#include <string>

#include "conformance/testing/installed_sdk.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::CommandResult;
using ::mxcts::conformance::InstalledSdkTest;
using ::mxcts::conformance::ShellQuote;

class Installation : public InstalledSdkTest {};

// The installation's pieces as the guide names them.
class InstallationLayout : public Installation,
                           public ::testing::WithParamInterface<const char*> {};

TEST_P(InstallationLayout, HasFile) {
  MX_SPEC("api.compile.mxcc.install-layout");
  EXPECT_TRUE(IsFile(root_ + "/" + GetParam())) << root_ << "/" << GetParam();
  // Control: a name the layout does not have is not found.
  EXPECT_FALSE(IsFile(root_ + "/" + GetParam() + ".not-installed"));
}

INSTANTIATE_TEST_SUITE_P(
    Guide, InstallationLayout,
    ::testing::Values("mxgpu_llvm/bin/mxcc", "include/mc_runtime.h",
                      "include/mcrtc.h", "include/mxlog/mxlog.h",
                      "lib/libmcruntime.so", "lib/libmcrtc.so",
                      "lib/libmcanalyzer.so"),
    [](const ::testing::TestParamInfo<const char*>& info) {
      std::string name;
      for (const char* p = info.param; *p; ++p) {
        name += isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
      }
      return name;
    });

// Prints the file the runtime library was loaded from, then runs a kernel.
constexpr char kProgram[] = R"(#include <mc_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
__global__ void Twice(int* v) { v[threadIdx.x] *= 2; }
int main() {
  Dl_info info;
  mcError_t (*entry)(void) = &mcDeviceSynchronize;
  if (dladdr(reinterpret_cast<void*>(entry), &info) == 0) return 2;
  char* library = realpath(info.dli_fname, nullptr);
  printf("runtime %s\n", library ? library : info.dli_fname);
  int* v;
  if (mcMallocManaged(&v, 3 * sizeof(int)) != mcSuccess) return 3;
  for (int i = 0; i < 3; ++i) v[i] = i + 1;
  Twice<<<1, 3>>>(v);
  mcDeviceSynchronize();
  printf("%d %d %d\n", v[0], v[1], v[2]);
  return mcFree(v) == mcSuccess ? 0 : 1;
}
)";

TEST_F(Installation, CopyElsewhereIsAnInstallationOfItsOwn) {
  MX_SPEC("api.compile.mxcc.install-relocatable",
          "api.compile.mxcc.install-layout", "api.env.maca-path.installation");
  Shell("rm -rf copy");
  CommandResult copy = Shell("cp -rL " + ShellQuote(root_) + " copy");
  ASSERT_EQ(copy.status, 0) << copy.output;
  std::string copied = directory_ + "/copy";
  Write("twice.cpp", kProgram);
  // The guide's environment, naming the copy.
  std::string environment = "MACA_PATH=" + ShellQuote(copied) +
                            " LD_LIBRARY_PATH=" + ShellQuote(copied + "/lib") +
                            " ";
  CommandResult build =
      Shell(environment + ShellQuote(copied) +
            "/mxgpu_llvm/bin/mxcc -x maca twice.cpp -o twice");
  ASSERT_EQ(build.status, 0) << build.output;
  CommandResult run = Shell(environment + "./twice");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "runtime " + copied + "/lib/libmcruntime.so\n2 4 6\n");

  // Without MACA_PATH, the copy's driver finds the copy.
  CommandResult found =
      Shell("env -u MACA_PATH " + ShellQuote(copied) +
            "/mxgpu_llvm/bin/mxcc -x maca twice.cpp -o found");
  ASSERT_EQ(found.status, 0) << found.output;
  CommandResult run_found = Shell(environment + "./found");
  EXPECT_EQ(run_found.status, 0) << run_found.output;
  EXPECT_EQ(run_found.output,
            "runtime " + copied + "/lib/libmcruntime.so\n2 4 6\n");
}

TEST_F(Installation, NoFileNamesTheOriginalLocation) {
  MX_SPEC("api.compile.mxcc.install-relocatable");
  // The tree may be made of links (a test's runfiles): its files' own
  // location is where the driver really is.
  char* driver = realpath((root_ + "/mxgpu_llvm/bin/mxcc").c_str(), nullptr);
  ASSERT_NE(driver, nullptr) << root_;
  std::string files_root = driver;
  free(driver);
  files_root.resize(files_root.size() -
                    std::string("/mxgpu_llvm/bin/mxcc").size());
  // grep -F on every file of the tree, links followed; no output means no
  // file names either path.
  std::string scan = "grep -RlF -e " + ShellQuote(root_ + "/") + " -e " +
                     ShellQuote(files_root + "/") + " ";
  CommandResult installed = Shell(scan + ShellQuote(root_ + "/"));
  EXPECT_EQ(installed.status, 1)
      << "files naming " << root_ << " or " << files_root << ":\n"
      << installed.output;
  // Control: the same scan finds the path in a file that holds it.
  Shell("mkdir -p control");
  Write("control/names_it", "search path " + root_ + "/lib\n");
  CommandResult control = Shell(scan + "control");
  EXPECT_EQ(control.status, 0) << control.output;
  EXPECT_NE(control.output.find("names_it"), std::string::npos);
}

}  // namespace
