// Conformance: the mxcc command line as build systems use it
// (docs/spec/api-compilation.md, "Offline compilation with mxcc"). The
// driver is found through the install layout, $MACA_PATH/mxgpu_llvm/bin/mxcc
// [api.compile.mxcc.install-layout]; a backend whose tests run without
// MACA_PATH reports these tests unsupported.

#include <string>

#include "conformance/testing/installed_sdk.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::CommandResult;

class MxccCommandLine : public ::mxcts::conformance::InstalledSdkTest {};

constexpr char kKernelSource[] = R"(#include <mc_runtime.h>
#include "scale.h"
__global__ void Scale(int* data, int factor) { data[threadIdx.x] *= factor; }
int main() {
  int* data;
  mcMallocManaged(&data, 4 * sizeof(int));
  for (int i = 0; i < 4; ++i) data[i] = i + 1;
  Scale<<<1, 4>>>(data, FACTOR);
  mcDeviceSynchronize();
  printf("%d %d %d %d\n", data[0], data[1], data[2], data[3]);
  return 0;
}
)";

TEST_F(MxccCommandLine, VersionAndHelpPrintAndSucceed) {
  MX_SPEC("api.compile.mxcc.version-and-help", "api.compile.mxcc.exit-status");
  CommandResult version = Mxcc("--version");
  EXPECT_EQ(version.status, 0) << version.output;
  EXPECT_FALSE(version.output.empty());
  CommandResult help = Mxcc("--help");
  EXPECT_EQ(help.status, 0) << help.output;
  EXPECT_NE(help.output.find("-x"), std::string::npos) << help.output;
}

TEST_F(MxccCommandLine, UnknownOptionIsAnErrorNamingIt) {
  MX_SPEC("api.compile.mxcc.unknown-option", "api.compile.mxcc.exit-status");
  Write("scale.h", "#define FACTOR 3\n");
  Write("a.cpp", kKernelSource);
  CommandResult run = Mxcc("-x maca --no-such-flag a.cpp -o a");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("--no-such-flag"), std::string::npos) << run.output;
  EXPECT_NE(Shell("test -e a").status, 0) << "no output file may be made";
  // Control: the same command without the unknown option succeeds.
  CommandResult control = Mxcc("-x maca a.cpp -o a");
  EXPECT_EQ(control.status, 0) << control.output;
}

TEST_F(MxccCommandLine, SeparateCompilationThenLink) {
  MX_SPEC("api.compile.mxcc.separate-compilation",
          "api.compile.mxcc.conventional-options",
          "api.compile.mxcc.source-to-executable");
  Shell("mkdir -p inc");
  Write("inc/scale.h", "#define FACTOR_FROM_HEADER 1\n");
  Write("a.cpp", kKernelSource);
  CommandResult compile = Mxcc("-x maca -O2 -Iinc -DFACTOR=5 -c a.cpp -o a.o");
  ASSERT_EQ(compile.status, 0) << compile.output;
  CommandResult link = Mxcc("a.o -o program");
  ASSERT_EQ(link.status, 0) << link.output;
  CommandResult program = Shell("./program");
  EXPECT_EQ(program.status, 0);
  EXPECT_EQ(program.output, "5 10 15 20\n");
}

TEST_F(MxccCommandLine, CppWithoutLanguageOptionIsPlainCxx) {
  MX_SPEC("api.compile.mxcc.language-option");
  Write("scale.h", "#define FACTOR 2\n");
  Write("a.cpp", kKernelSource);
  CommandResult plain = Mxcc("-c a.cpp -o a.o");
  EXPECT_NE(plain.status, 0) << "__global__ and <<<>>> need -x maca";
  // Control: with -x maca the same file compiles.
  CommandResult maca = Mxcc("-x maca -c a.cpp -o a.o");
  EXPECT_EQ(maca.status, 0) << maca.output;
}

TEST_F(MxccCommandLine, CuFilesAreMxmacaWithoutLanguageOption) {
  MX_SPEC("api.compile.mxcc.maca-macro");
  Write("m.cu",
        "#if !defined(__MACA__) || !defined(__MACACC__)\n#error no macros\n"
        "#endif\n__global__ void K() {}\nint main() { K<<<1, 1>>>(); "
        "return mcDeviceSynchronize() == mcSuccess ? 0 : 1; }\n");
  CommandResult build = Mxcc("m.cu -o m");
  ASSERT_EQ(build.status, 0) << build.output;
  EXPECT_EQ(Shell("./m").status, 0);
}

}  // namespace
