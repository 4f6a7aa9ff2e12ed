// Copyright mxcts authors.
//
// Tests of RewriteDeviceLinkErrors(): on linker output as GNU ld prints it
// (with and without line information), and on the output of a real device
// link of a prefixed object that calls an undefined host function.

#include "reference/compiler/driver/device_link_diagnostics.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/driver/process.h"

namespace mxcts::driver {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(DeviceSymbolNameTest, StripsThePrefixAndDemangles) {
  EXPECT_EQ(DeviceSymbolName("__mcdev__Z9host_onlyi"), "host_only(int)");
  EXPECT_EQ(DeviceSymbolName("__mcdev__ZN2ns1fIfEEvPT_"),
            "void ns::f<float>(float*)");
  EXPECT_EQ(DeviceSymbolName("__mcdev_puts"), "puts");
  // Control: a name that is not mangled, without the prefix, stays.
  EXPECT_EQ(DeviceSymbolName("kernel(int*)"), "kernel(int*)");
}

constexpr char kWithLines[] =
    "/usr/bin/ld: /tmp/mxcc-1/0-a.device.sep.o: in function `kernel(int*)':\n"
    "/home/u/a.cu:7: undefined reference to `__mcdev__Z9host_onlyi'\n"
    "/usr/bin/ld: /home/u/a.cu:9: undefined reference to `__mcdev_helper'\n"
    "/usr/bin/ld: /tmp/mxcc-1/0-a.device.sep.o: in function "
    "`void ns::tk<float>(float*)':\n"
    "/home/u/inc/t.h:3: undefined reference to `__mcdev__Z9host_onlyi'\n"
    "collect2: error: ld returned 1 exit status\n";

TEST(RewriteDeviceLinkErrorsTest, NamesFunctionFileAndLine) {
  DeviceLinkReport report =
      RewriteDeviceLinkErrors(kWithLines, "a.cu", "/home/u/a.cu");
  EXPECT_EQ(report.host_only_calls, 3);
  EXPECT_EQ(report.text,
            "a.cu: In function 'kernel(int*)':\n"
            "a.cu:7: error: device code calls host-only function "
            "'host_only(int)'\n"
            "a.cu:9: error: device code calls host-only function 'helper'\n"
            "/home/u/inc/t.h: In function 'void ns::tk<float>(float*)':\n"
            "/home/u/inc/t.h:3: error: device code calls host-only function "
            "'host_only(int)'\n");
}

TEST(RewriteDeviceLinkErrorsTest, WithoutLineInformationNamesTheSource) {
  std::string stderr_text =
      "/usr/bin/ld: sep.o: in function `__mcdev__Z6helperv':\n"
      "__mcdev_b.cc:(.text._Z6helperv+0x5): undefined reference to "
      "`__mcdev_host_c'\n"
      "/usr/bin/ld: __mcdev_b.cc:(.text._Z6helperv+0xa): undefined "
      "reference to `__mcdev_host_c'\n"
      "collect2: error: ld returned 1 exit status\n";
  DeviceLinkReport report =
      RewriteDeviceLinkErrors(stderr_text, "src/b.cu", "/w/src/b.cu");
  // Two references without lines are one diagnostic.
  EXPECT_EQ(report.host_only_calls, 1);
  EXPECT_EQ(report.text,
            "src/b.cu: In function 'helper()':\n"
            "src/b.cu: error: device code calls host-only function "
            "'host_c'\n");
}

TEST(RewriteDeviceLinkErrorsTest, DeviceSideLaunchIsNamedAsSuch) {
  const std::string stderr_text =
      "/usr/bin/ld: /tmp/x/0-a.device.sep.o: in function `parent(int*)':\n"
      "/home/u/a.cu:4: undefined reference to "
      "`__mcdev__ZN13__mc_internal23PushLaunchConfigurationE4dim3S0_"
      "mP11MCstream_stb'\n"
      "collect2: error: ld returned 1 exit status\n";
  DeviceLinkReport report =
      RewriteDeviceLinkErrors(stderr_text, "a.cu", "/home/u/a.cu");
  EXPECT_EQ(report.host_only_calls, 1);
  EXPECT_EQ(report.text,
            "a.cu: In function 'parent(int*)':\n"
            "a.cu:4: error: dynamic parallelism: device-side launch is not "
            "supported yet\n");
}

// [api.compile.mxcc.relocatable-device-code]
TEST(RewriteDeviceLinkErrorsTest, DeclaredHereDefinedElsewhereNamesTheOption) {
  const std::string stderr_text =
      "/usr/bin/ld: /tmp/x/0-a.device.sep.o: in function `k(int*)':\n"
      "/home/u/a.cu:4: undefined reference to `__mcdev__ZN2ns5scaleEi'\n"
      "/usr/bin/ld: /home/u/a.cu:4: undefined reference to "
      "`__mcdev__ZN2ns7counterE'\n"
      "/usr/bin/ld: /home/u/a.cu:5: undefined reference to "
      "`__mcdev__ZN2ns5otherE'\n"
      "collect2: error: ld returned 1 exit status\n";
  DeviceLinkSources sources;
  sources.source = "a.cu";
  sources.absolute_source = "/home/u/a.cu";
  sources.declared_without_definition = {"scale", "counter"};
  DeviceLinkReport report = RewriteDeviceLinkErrors(stderr_text, sources);
  EXPECT_EQ(report.host_only_calls, 3);
  EXPECT_EQ(report.text,
            "a.cu: In function 'k(int*)':\n"
            "a.cu:4: error: 'ns::scale(int)' is declared for device code in "
            "this source but defined in another; device code can use what "
            "another source defines only as relocatable device code: compile "
            "and link with -fgpu-rdc (or -rdc=true)\n"
            "a.cu:4: error: 'ns::counter' is declared for device code in this "
            "source but defined in another; device code can use what another "
            "source defines only as relocatable device code: compile and link "
            "with -fgpu-rdc (or -rdc=true)\n"
            "a.cu:5: error: device code uses host variable 'ns::other'\n");

  // Control: without the declarations, the same link is about host code.
  sources.declared_without_definition.clear();
  report = RewriteDeviceLinkErrors(stderr_text, sources);
  EXPECT_THAT(report.text,
              HasSubstr("a.cu:4: error: device code calls host-only function "
                        "'ns::scale(int)'\n"));
  EXPECT_THAT(report.text, Not(HasSubstr("-fgpu-rdc")));
}

TEST(RewriteDeviceLinkErrorsTest, RelocatableLinkSaysNoSourceDefinesIt) {
  const std::string stderr_text =
      "/usr/bin/ld: /tmp/x/rdc-0.o: in function `k(int*)':\n"
      "/home/u/a.cu:4: undefined reference to `__mcdev__Z5scalei'\n"
      "/usr/bin/ld: b.o: in function `__mcdev__Z1gv':\n"
      "b.cu:(.text+0x5): undefined reference to `__mcdev__Z1hv'\n"
      "/usr/bin/ld: /tmp/x/rdc-1.o: multiple definition of "
      "`__mcdev__Z5twicev'; /tmp/x/rdc-0.o: first defined here\n"
      "collect2: error: ld returned 1 exit status\n";
  DeviceLinkSources sources;
  sources.relocatable = true;
  DeviceLinkReport report = RewriteDeviceLinkErrors(stderr_text, sources);
  EXPECT_EQ(report.host_only_calls, 2);
  EXPECT_EQ(report.text,
            "/home/u/a.cu: In function 'k(int*)':\n"
            "/home/u/a.cu:4: error: device code uses 'scale(int)', which no "
            "source of the device link defines for device code (a host-only "
            "function or variable, or a source missing from the link)\n"
            "mxcc: In function 'g()':\n"
            "mxcc: error: device code uses 'h()', which no source of the "
            "device link defines for device code (a host-only function or "
            "variable, or a source missing from the link)\n"
            "/usr/bin/ld: /tmp/x/rdc-1.o: multiple definition of 'twice()'; "
            "/tmp/x/rdc-0.o: first defined here\n");
}

TEST(UnqualifiedNameTest, DropsScopesTemplateArgumentsAndParameters) {
  EXPECT_EQ(UnqualifiedName("scale(int)"), "scale");
  EXPECT_EQ(UnqualifiedName("ns::inner::scale(int)"), "scale");
  EXPECT_EQ(UnqualifiedName("ns::f<int, g<char> >(int)"), "f");
  EXPECT_EQ(UnqualifiedName("counter"), "counter");
  EXPECT_EQ(UnqualifiedName("ns::counter"), "counter");
}

TEST(RewriteDeviceLinkErrorsTest, DropsMoreReferencesFollowLines) {
  std::string stderr_text =
      "/usr/bin/ld: o: in function `k()':\n"
      "/w/a.cu:2: undefined reference to `__mcdev__Z1fv'\n"
      "/usr/bin/ld: /w/a.cu:3: more undefined references to `__mcdev__Z1fv' "
      "follow\n";
  DeviceLinkReport report =
      RewriteDeviceLinkErrors(stderr_text, "a.cu", "/w/a.cu");
  EXPECT_EQ(report.host_only_calls, 1);
  EXPECT_THAT(report.text, Not(HasSubstr("more undefined")));
}

TEST(RewriteDeviceLinkErrorsTest, OtherErrorsPassThrough) {
  std::string stderr_text =
      "/usr/bin/ld: cannot find -lmcdevice: No such file or directory\n"
      "/usr/bin/ld: o: in function `k()':\n"
      "/w/a.cu:2: undefined reference to `unprefixed_symbol'\n"
      "collect2: error: ld returned 1 exit status\n";
  DeviceLinkReport report =
      RewriteDeviceLinkErrors(stderr_text, "a.cu", "/w/a.cu");
  EXPECT_EQ(report.host_only_calls, 0);
  EXPECT_EQ(report.text, stderr_text);
}

TEST(RewriteDeviceLinkErrorsTest, MixedKeepsTheOtherErrors) {
  std::string stderr_text =
      "/usr/bin/ld: o: in function `k()':\n"
      "/w/a.cu:2: undefined reference to `__mcdev__Z1fv'\n"
      "/usr/bin/ld: warning: something odd\n"
      "collect2: error: ld returned 1 exit status\n";
  DeviceLinkReport report =
      RewriteDeviceLinkErrors(stderr_text, "a.cu", "/w/a.cu");
  EXPECT_EQ(report.host_only_calls, 1);
  EXPECT_THAT(report.text, HasSubstr("a.cu:2: error: device code calls "
                                     "host-only function 'f()'\n"));
  EXPECT_THAT(report.text, HasSubstr("/usr/bin/ld: warning: something odd\n"));
  EXPECT_THAT(report.text, Not(HasSubstr("collect2")));
}

// A real device link: compile as the device pass does, prefix, link with
// --no-undefined, rewrite what ld says.
class RealDeviceLinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<TemporaryDirectory> directory =
        TemporaryDirectory::Create("device-link-test");
    ASSERT_TRUE(directory.ok()) << directory.status();
    directory_.push_back(std::move(*directory));
  }
  std::string File(const std::string& name) {
    return directory_.front().File(name);
  }
  void Run(const std::vector<std::string>& argv) {
    absl::StatusOr<ProcessResult> result =
        RunProcess(argv, ProcessOptions{false, true, {}});
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_TRUE(result->succeeded()) << FormatCommand(argv) << "\n"
                                     << result->stderr_text;
  }
  // Builds `source` into a device image; returns the failed link's stderr,
  // or "" when the link succeeds.
  std::string DeviceLink(const std::string& source) {
    EXPECT_TRUE(WriteFile(File("a.cc"), source).ok());
    Run({"g++", "-c", "-fPIC", "-ffunction-sections", "-fdata-sections", "-g1",
         File("a.cc"), "-o", File("a.o")});
    Run({"objcopy", "--prefix-symbols=__mcdev_", File("a.o"), File("s.o")});
    EXPECT_TRUE(WriteFile(File("v.version"),
                          "{ global: __mcdev__Z6kernelPi; local: *; };\n")
                    .ok());
    ProcessOptions options;
    options.capture_stderr = true;
    options.environment_overrides = {"LC_ALL=C"};
    absl::StatusOr<ProcessResult> link =
        RunProcess({"g++", "-shared", "-Wl,--gc-sections", "-Wl,--no-undefined",
                    "-Wl,--version-script=" + File("v.version"), File("s.o"),
                    "-o", File("image.so")},
                   options);
    EXPECT_TRUE(link.ok()) << link.status();
    return link.ok() && !link->succeeded() ? link->stderr_text : "";
  }

  std::vector<TemporaryDirectory> directory_;
};

TEST_F(RealDeviceLinkTest, CallOfAnUndefinedFunctionIsNamedWithItsLine) {
  std::string stderr_text = DeviceLink(
      "int host_only(int);\n"
      "void kernel(int* p) {\n"
      "  *p = host_only(2);\n"
      "}\n");
  ASSERT_FALSE(stderr_text.empty());
  DeviceLinkReport report =
      RewriteDeviceLinkErrors(stderr_text, "a.cc", File("a.cc"));
  EXPECT_EQ(report.host_only_calls, 1) << stderr_text;
  EXPECT_THAT(report.text,
              HasSubstr("a.cc:3: error: device code calls host-only function "
                        "'host_only(int)'"))
      << stderr_text;
  EXPECT_THAT(report.text, HasSubstr("In function 'kernel(int*)'"));
}

TEST_F(RealDeviceLinkTest, ControlDefinedFunctionLinks) {
  EXPECT_EQ(DeviceLink("static int helper(int x) { return x + 1; }\n"
                       "void kernel(int* p) { *p = helper(2); }\n"),
            "");
}

TEST_F(RealDeviceLinkTest, UnreachableCallsAreCollected) {
  // host_only is called only from a function no exported symbol reaches.
  EXPECT_EQ(DeviceLink("int host_only(int);\n"
                       "int unused() { return host_only(1); }\n"
                       "void kernel(int* p) { *p = 1; }\n"),
            "");
}

}  // namespace
}  // namespace mxcts::driver
