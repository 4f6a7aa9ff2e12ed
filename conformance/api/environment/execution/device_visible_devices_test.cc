// Copyright mxcts authors.
//
// Conformance: MACA_VISIBLE_DEVICES and MACA_DEVICE_ORDER
// (docs/spec/api-environment.md, "Device enumeration";
// docs/spec/api-device.md, "Visible devices and device order").
//
// The runtime reads both variables once, when it initializes, so every
// check runs in a fresh process. A first fresh process, with both
// variables unset, writes down each device's identity (its PCI bus id and
// UUID) in ordinal order; a second one, with the variables set, compares
// what it sees with that list. The test body before each check runs in
// the child processes too, so it only reads and writes the file.

#include <mc_runtime.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::ScopedEnvironment;

std::string UuidText(const mcUuid_t& uuid) {
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    char hex[3];
    std::snprintf(hex, sizeof(hex), "%02x",
                  static_cast<unsigned char>(uuid.bytes[i]));
    text += hex;
  }
  return text;
}

// "<PCI bus id> <UUID>" of `ordinal`, or "" if a call fails.
std::string Identity(int ordinal) {
  char bus_id[32];
  mcUuid_t uuid;
  if (mcDeviceGetPCIBusId(bus_id, sizeof(bus_id), ordinal) != mcSuccess ||
      mcDeviceGetUuid(&uuid, ordinal) != mcSuccess) {
    return "";
  }
  return std::string(bus_id) + " " + UuidText(uuid);
}

std::string UuidOf(const std::string& identity) {
  return identity.substr(identity.find(' ') + 1);
}

// A file of the current test, the same in the child processes.
std::string IdentityFile() {
  std::string name =
      testing::UnitTest::GetInstance()->current_test_info()->test_suite_name();
  name += '.';
  name += testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(name.begin(), name.end(), '/', '_');
  return testing::TempDir() + "/" + name + ".identities";
}

// Runs in a fresh process with the variables unset.
std::string WriteIdentities(const std::string& path) {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return "mcGetDeviceCount failed";
  std::ofstream out(path);
  for (int i = 0; i < count; ++i) out << Identity(i) << "\n";
  return out ? "" : "cannot write " + path;
}

std::vector<std::string> ReadIdentities(const std::string& path) {
  std::vector<std::string> identities;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) identities.push_back(line);
  return identities;
}

// Runs in a fresh process with the variables set: the visible devices are
// `expected`, in that order (none: no device).
std::string CheckVisible(const std::vector<std::string>& expected) {
  int count = -1;
  const mcError_t counted = mcGetDeviceCount(&count);
  if (expected.empty()) {
    std::string problems;
    if (counted != mcErrorNoDevice) problems += "the count is not NoDevice; ";
    if (count != 0) problems += "the count is " + std::to_string(count) + "; ";
    if (mcSetDevice(0) != mcErrorNoDevice) problems += "mcSetDevice; ";
    void* p = nullptr;
    if (mcMalloc(&p, 16) != mcErrorNoDevice) problems += "mcMalloc; ";
    // A well-formed bus id names no device when none is visible: the call
    // needs a device before it can say the id is unknown.
    int found = -1;
    if (mcDeviceGetByPCIBusId(&found, "0000:00:00.0") != mcErrorNoDevice) {
      problems += "mcDeviceGetByPCIBusId; ";
    }
    return problems;
  }
  if (counted != mcSuccess) return "mcGetDeviceCount failed";
  if (count != static_cast<int>(expected.size())) {
    return "the count is " + std::to_string(count) + ", not " +
           std::to_string(expected.size());
  }
  std::string problems;
  for (int i = 0; i < count; ++i) {
    if (Identity(i) != expected[i]) {
      problems += "ordinal " + std::to_string(i) + " is " + Identity(i) +
                  ", not " + expected[i] + "; ";
    }
  }
  if (mcSetDevice(count) != mcErrorInvalidDevice) {
    problems += "a device past the list is reachable; ";
  }
  return problems;
}

// A value of MACA_VISIBLE_DEVICES and the devices it selects, as indices
// into the unrestricted list. "{uuidN}" in the value stands for device N's
// UUID, "{UUIDN}" for the same in capitals.
struct VisibleCase {
  const char* name;
  const char* value;
  std::vector<int> expected;
  int devices_needed;
};

void ReplaceAll(std::string& text, const std::string& key,
                const std::string& replacement) {
  for (size_t at; (at = text.find(key)) != std::string::npos;) {
    text.replace(at, key.size(), replacement);
  }
}

std::string Substitute(std::string value,
                       const std::vector<std::string>& identities) {
  for (size_t i = 0; i < identities.size(); ++i) {
    const std::string uuid = UuidOf(identities[i]);
    std::string upper = uuid;
    for (size_t c = 4; c < upper.size(); ++c) {
      upper[c] = static_cast<char>(std::toupper(upper[c]));
    }
    ReplaceAll(value, "{uuid" + std::to_string(i) + "}", uuid);
    ReplaceAll(value, "{UUID" + std::to_string(i) + "}", upper);
  }
  return value;
}

class VisibleDevices : public testing::TestWithParam<VisibleCase> {
 protected:
  // Writes the identities down, then checks `GetParam()` in a fresh process.
  void Check() {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam().devices_needed);
    const std::string path = IdentityFile();
    {
      ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
      ScopedEnvironment order("MACA_DEVICE_ORDER", nullptr);
      MX_EXPECT_IN_FRESH_PROCESS(WriteIdentities(path));
    }
    const std::vector<std::string> all = ReadIdentities(path);
    ASSERT_GE(all.size(), static_cast<size_t>(GetParam().devices_needed));
    std::vector<std::string> expected;
    for (int index : GetParam().expected) expected.push_back(all[index]);
    const std::string value = Substitute(GetParam().value, all);
    ScopedEnvironment order("MACA_DEVICE_ORDER", nullptr);
    ScopedEnvironment visible("MACA_VISIBLE_DEVICES", value.c_str());
    MX_EXPECT_IN_FRESH_PROCESS(CheckVisible(expected));
  }
};

std::string CaseName(const testing::TestParamInfo<VisibleCase>& info) {
  return info.param.name;
}

class IndexEntries : public VisibleDevices {};
TEST_P(IndexEntries, SelectAndRenumber) {
  MX_SPEC("api.env.visible-devices.restricts-and-renumbers",
          "api.env.visible-devices.index-entries",
          "api.device.visible-devices.restricts-enumeration",
          "api.device.visible-devices.list-order-is-ordinal-order");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    Lists, IndexEntries,
    testing::Values(VisibleCase{"First", "0", {0}, 1},
                    VisibleCase{"Second", "1", {1}, 2},
                    VisibleCase{"Reversed", "1,0", {1, 0}, 2},
                    VisibleCase{"InOrder", "0,1", {0, 1}, 2}),
    CaseName);

class UuidEntries : public VisibleDevices {};
TEST_P(UuidEntries, SelectTheirDevices) {
  MX_SPEC("api.env.visible-devices.uuid-entries",
          "api.device.visible-devices.uuid-or-index",
          "api.device.uuid.returns-device-uuid");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    Lists, UuidEntries,
    testing::Values(VisibleCase{"One", "{uuid1}", {1}, 2},
                    VisibleCase{"Two", "{uuid1},{uuid0}", {1, 0}, 2},
                    VisibleCase{"CapitalsAndAnIndex", "{UUID1},0", {1, 0}, 2},
                    VisibleCase{"IndexThenUuid", "0,{uuid1}", {0, 1}, 2},
                    VisibleCase{"UnknownUuidEndsTheList",
                                "0,GPU-ffffffff-ffff-ffff-ffff-ffffffffffff,1",
                                {0},
                                2}),
    CaseName);

class InvalidEntries : public VisibleDevices {};
TEST_P(InvalidEntries, EndTheList) {
  MX_SPEC("api.env.visible-devices.invalid-entry-truncates",
          "api.device.visible-devices.invalid-entry-ends-list");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    Lists, InvalidEntries,
    testing::Values(VisibleCase{"OutOfRange", "1,99,0", {1}, 2},
                    VisibleCase{"NotANumber", "1,x,0", {1}, 2},
                    VisibleCase{"Negative", "0,-1,1", {0}, 2},
                    VisibleCase{"TrailingGarbage", "0,1x", {0}, 2}),
    CaseName);

class DuplicateEntries : public VisibleDevices {};
TEST_P(DuplicateEntries, EndTheList) {
  MX_SPEC("api.env.visible-devices.duplicate-entry");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    Lists, DuplicateEntries,
    testing::Values(VisibleCase{"SameIndex", "1,1,0", {1}, 2},
                    VisibleCase{"IndexAndItsUuid", "{uuid1},1,0", {1}, 2},
                    VisibleCase{"UuidAndItsIndex", "0,{uuid0}", {0}, 1}),
    CaseName);

class NoVisibleDevice : public VisibleDevices {};
TEST_P(NoVisibleDevice, IsNoDevice) {
  MX_SPEC("api.env.visible-devices.none-visible",
          "api.device.visible-devices.none-is-no-device",
          "api.device.count.no-device-is-no-device");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    Lists, NoVisibleDevice,
    testing::Values(
        VisibleCase{"Empty", "", {}, 1}, VisibleCase{"OutOfRange", "99", {}, 1},
        VisibleCase{"NotANumber", "x", {}, 1},
        VisibleCase{"Negative", "-1", {}, 1},
        VisibleCase{
            "UnknownUuid", "GPU-ffffffff-ffff-ffff-ffff-ffffffffffff", {}, 1}),
    CaseName);

// --- Unset, and read once. ---

std::string AllVisible(const std::vector<std::string>& all) {
  return CheckVisible(all);
}

TEST(VisibleDevicesUnset, EveryDeviceIsVisible) {
  MX_SPEC("api.env.visible-devices.unset-all-visible");
  const std::string path = IdentityFile();
  {
    ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
    MX_EXPECT_IN_FRESH_PROCESS(WriteIdentities(path));
  }
  const std::vector<std::string> all = ReadIdentities(path);
  ASSERT_FALSE(all.empty());
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(AllVisible(all));
}

std::string ChangesLaterHaveNoEffect() {
  int before = 0, after = 0;
  if (mcGetDeviceCount(&before) != mcSuccess) return "mcGetDeviceCount failed";
  setenv("MACA_VISIBLE_DEVICES", "", 1);
  setenv("MACA_DEVICE_ORDER", "PCI_BUS_ID", 1);
  if (mcGetDeviceCount(&after) != mcSuccess) return "the count changed";
  return before == 1 && after == 1 ? "" : "the count is not 1";
}

TEST(VisibleDevicesOnce, AreReadWhenTheRuntimeInitializes) {
  MX_SPEC("api.device.visible-devices.read-at-initialization",
          "api.env.general.read-at-initialization");
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", "0");
  MX_EXPECT_IN_FRESH_PROCESS(ChangesLaterHaveNoEffect());
}

// --- MACA_DEVICE_ORDER. ---

// "" if `in_order(earlier, later)` holds for the properties of every two
// adjacent ordinals; else which are not `order`.
template <typename InOrder>
std::string AdjacentOrdinalsIn(InOrder in_order, const char* order) {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return "mcGetDeviceCount failed";
  std::string problems;
  for (int i = 1; i < count; ++i) {
    mcDeviceProp_t a, b;
    mcGetDeviceProperties(&a, i - 1);
    mcGetDeviceProperties(&b, i);
    if (!in_order(a, b)) {
      problems += "ordinals " + std::to_string(i - 1) + " and " +
                  std::to_string(i) + " are not in " + order + "; ";
    }
  }
  return problems;
}

std::string PciLocationsAscend() {
  return AdjacentOrdinalsIn(
      [](const mcDeviceProp_t& a, const mcDeviceProp_t& b) {
        return std::make_tuple(a.pciDomainID, a.pciBusID, a.pciDeviceID) <
               std::make_tuple(b.pciDomainID, b.pciBusID, b.pciDeviceID);
      },
      "PCI order");
}

TEST(DeviceOrder, PciBusIdNumbersByPciLocation) {
  MX_SPEC("api.env.device-order.values",
          "api.device.visible-devices.order-pci-bus-id");
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
  ScopedEnvironment order("MACA_DEVICE_ORDER", "PCI_BUS_ID");
  MX_EXPECT_IN_FRESH_PROCESS(PciLocationsAscend());
}

std::string CapabilitiesDescend() {
  return AdjacentOrdinalsIn(
      [](const mcDeviceProp_t& a, const mcDeviceProp_t& b) {
        return std::make_tuple(a.major, a.minor) >=
               std::make_tuple(b.major, b.minor);
      },
      "fastest-first order");
}

class FastestFirst : public testing::TestWithParam<const char*> {};

TEST_P(FastestFirst, NumbersByComputeCapability) {
  MX_SPEC("api.env.device-order.values",
          "api.device.visible-devices.order-fastest-first-default");
  const char* value =
      std::strcmp(GetParam(), "Unset") == 0 ? nullptr : GetParam();
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
  ScopedEnvironment order("MACA_DEVICE_ORDER", value);
  MX_EXPECT_IN_FRESH_PROCESS(CapabilitiesDescend());
}

INSTANTIATE_TEST_SUITE_P(Values, FastestFirst,
                         testing::Values("Unset", "FASTEST_FIRST"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

TEST(DeviceOrder, AnInvalidValueMeansTheDefault) {
  MX_SPEC("api.env.general.invalid-value-uses-default",
          "api.env.device-order.values");
  const std::string path = IdentityFile();
  {
    ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
    ScopedEnvironment order("MACA_DEVICE_ORDER", nullptr);
    MX_EXPECT_IN_FRESH_PROCESS(WriteIdentities(path));
  }
  const std::vector<std::string> all = ReadIdentities(path);
  ASSERT_FALSE(all.empty());
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
  ScopedEnvironment order("MACA_DEVICE_ORDER", "SLOWEST_FIRST");
  MX_EXPECT_IN_FRESH_PROCESS(AllVisible(all));
}

TEST(DeviceOrder, IndicesReferToTheChosenOrder) {
  MX_SPEC("api.env.device-order.values",
          "api.device.visible-devices.uuid-or-index");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const std::string path = IdentityFile();
  {
    ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
    ScopedEnvironment order("MACA_DEVICE_ORDER", nullptr);
    MX_EXPECT_IN_FRESH_PROCESS(WriteIdentities(path));
  }
  std::vector<std::string> by_pci = ReadIdentities(path);
  ASSERT_GE(by_pci.size(), 2u);
  // Identities start with the bus id, whose text sorts as the location.
  std::sort(by_pci.begin(), by_pci.end());
  ScopedEnvironment order("MACA_DEVICE_ORDER", "PCI_BUS_ID");
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", "1,0");
  MX_EXPECT_IN_FRESH_PROCESS(CheckVisible({by_pci[1], by_pci[0]}));
}

}  // namespace
