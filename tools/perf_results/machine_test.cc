// Tests the machine fingerprint's parsers on fixed /proc texts, and that
// this machine's fingerprint is filled in.
#include "tools/perf_results/machine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace mxcts::perf_results {
namespace {

TEST(Machine, ReadsTheFirstCpuModel) {
  EXPECT_EQ(CpuModelFromCpuinfo("processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                                "model name\t: AMD EPYC 7B13\n\nprocessor\t: "
                                "1\nmodel name\t: other\n"),
            "AMD EPYC 7B13");
  EXPECT_EQ(CpuModelFromCpuinfo("processor\t: 0\n"), "unknown");
}

TEST(Machine, ReadsMemTotalInBytes) {
  EXPECT_EQ(MemoryBytesFromMeminfo("MemTotal:       24576000 kB\n"
                                   "MemFree:         1000 kB\n"),
            int64_t{24576000} * 1024);
  EXPECT_EQ(MemoryBytesFromMeminfo("MemFree: 1000 kB\n"), 0);
  EXPECT_EQ(MemoryBytesFromMeminfo("MemTotal: lots\n"), 0);
}

TEST(Machine, DescribesOneLine) {
  Machine machine{"AMD EPYC 7B13", 2, int64_t{24} << 30, "Linux 6.1.0"};
  EXPECT_EQ(Describe(machine), "AMD EPYC 7B13, 2 cores, 24.0 GiB, Linux 6.1.0");
  EXPECT_EQ(Describe(Machine{"unknown", 1, 0, ""}), "unknown, 1 core");
}

TEST(Machine, FingerprintsThisMachine) {
  const Machine here = LocalMachine();
  EXPECT_GE(here.cores, 1);
  EXPECT_GT(here.memory_bytes, 0);
  EXPECT_THAT(here.kernel, ::testing::StartsWith("Linux "));
  EXPECT_FALSE(here.cpu_model.empty());
}

}  // namespace
}  // namespace mxcts::perf_results
