// Copyright mxcts authors.
//
// Conformance: MACA_DEVICE_ORDER on devices whose speed order is not their
// PCI order (docs/spec/api-environment.md, "Device enumeration";
// docs/spec/api-device.md, "Visible devices and device order").
//
// On a system of equal devices whose PCI locations ascend with their
// system order, PCI_BUS_ID and FASTEST_FIRST may number them alike, so a
// runtime that mixed the two values up would pass the tests of
// device_visible_devices_test. Here the system needs a device that is
// faster than another and has a higher PCI location; then the two orders
// cannot agree. The target's MXCTS_DEVICE_COUNT and MXCTS_DEVICE_CONFIG
// (BUILD) give the reference's simulated devices such a pair; a backend
// that ignores them is skipped unless its devices have one.
//
// The runtime reads the variable once, when it initializes, so each value
// is tried in a fresh process, which writes each ordinal's compute
// capability and PCI location to a file; the test compares the lists.

#include <mc_runtime.h>

#include <algorithm>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::ScopedEnvironment;

// What the order depends on: one ordinal's compute capability and PCI
// location.
struct DeviceKey {
  int major = 0;
  int minor = 0;
  int domain = 0;
  int bus = 0;
  int device = 0;

  std::tuple<int, int> Capability() const { return {major, minor}; }
  std::tuple<int, int, int> Location() const { return {domain, bus, device}; }
};

// A file of the current test and `label`, the same in the child processes.
std::string KeyFile(const std::string& label) {
  const testing::TestInfo* info =
      testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name() +
                     "." + label + ".devices";
  std::replace(name.begin(), name.end(), '/', '_');
  return testing::TempDir() + "/" + name;
}

// Runs in a fresh process: writes each ordinal's key, a line each.
std::string WriteKeys(const std::string& path) {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return "mcGetDeviceCount failed";
  std::ofstream out(path);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    mcDeviceProp_t prop;
    if (mcGetDeviceProperties(&prop, ordinal) != mcSuccess) {
      return "mcGetDeviceProperties failed for ordinal " +
             std::to_string(ordinal);
    }
    out << prop.major << ' ' << prop.minor << ' ' << prop.pciDomainID << ' '
        << prop.pciBusID << ' ' << prop.pciDeviceID << "\n";
  }
  return out ? "" : "cannot write " + path;
}

std::vector<DeviceKey> ReadKeys(const std::string& path) {
  std::vector<DeviceKey> keys;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    DeviceKey key;
    fields >> key.major >> key.minor >> key.domain >> key.bus >> key.device;
    keys.push_back(key);
  }
  return keys;
}

// The keys of the ordinals when MACA_DEVICE_ORDER is `order` (null: unset),
// seen by a fresh process.
std::vector<DeviceKey> KeysUnder(const char* order, const std::string& label) {
  const std::string path = KeyFile(label);
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
  ScopedEnvironment variable("MACA_DEVICE_ORDER", order);
  MX_EXPECT_IN_FRESH_PROCESS(WriteKeys(path));
  return ReadKeys(path);
}

bool InPciOrder(const std::vector<DeviceKey>& keys) {
  for (size_t i = 1; i < keys.size(); ++i) {
    if (!(keys[i - 1].Location() < keys[i].Location())) return false;
  }
  return true;
}

bool FastestFirst(const std::vector<DeviceKey>& keys) {
  for (size_t i = 1; i < keys.size(); ++i) {
    if (keys[i - 1].Capability() < keys[i].Capability()) return false;
  }
  return true;
}

// Whether some device is faster than another and sits at a higher PCI
// location: then no numbering is both fastest-first and in PCI order.
bool OrdersDiffer(const std::vector<DeviceKey>& keys) {
  for (const DeviceKey& a : keys) {
    for (const DeviceKey& b : keys) {
      if (a.Capability() > b.Capability() && a.Location() > b.Location()) {
        return true;
      }
    }
  }
  return false;
}

// The keys under the default order, or a skip when the devices cannot
// tell the two orders apart.
#define MX_KEYS_OF_DISTINCT_DEVICES(keys)                                   \
  const std::vector<DeviceKey> keys = KeysUnder(nullptr, "unset");          \
  ASSERT_FALSE(keys.empty());                                               \
  if (!OrdersDiffer(keys)) {                                                \
    GTEST_SKIP() << "unsupported: no device here is faster than another "   \
                    "at a lower PCI location, so the two orders may agree " \
                    "(the reference's are set by MXCTS_DEVICE_CONFIG)";     \
  }

TEST(DeviceOrderOnDistinctDevices, PciBusIdNumbersByPciLocation) {
  MX_SPEC("api.env.device-order.values",
          "api.device.visible-devices.order-pci-bus-id");
  MX_KEYS_OF_DISTINCT_DEVICES(unset);
  const std::vector<DeviceKey> by_pci = KeysUnder("PCI_BUS_ID", "pci");
  EXPECT_EQ(by_pci.size(), unset.size());
  EXPECT_TRUE(InPciOrder(by_pci));
  // Control: this numbering is not the fastest-first one, which the check
  // above would refuse.
  EXPECT_FALSE(FastestFirst(by_pci));
}

TEST(DeviceOrderOnDistinctDevices, UnsetNumbersFastestFirst) {
  MX_SPEC("api.env.device-order.values",
          "api.device.visible-devices.order-fastest-first-default");
  MX_KEYS_OF_DISTINCT_DEVICES(unset);
  EXPECT_TRUE(FastestFirst(unset));
  // Control: this numbering is not in PCI order, which the check of
  // PCI_BUS_ID would refuse.
  EXPECT_FALSE(InPciOrder(unset));
}

TEST(DeviceOrderOnDistinctDevices, FastestFirstNumbersFastestFirst) {
  MX_SPEC("api.env.device-order.values",
          "api.device.visible-devices.order-fastest-first-default");
  MX_KEYS_OF_DISTINCT_DEVICES(unset);
  const std::vector<DeviceKey> fastest = KeysUnder("FASTEST_FIRST", "fastest");
  EXPECT_EQ(fastest.size(), unset.size());
  EXPECT_TRUE(FastestFirst(fastest));
  EXPECT_FALSE(InPciOrder(fastest));
}

// Values that are not exactly PCI_BUS_ID (nor FASTEST_FIRST) mean the
// default, fastest first, even those that resemble PCI_BUS_ID.
struct InvalidValue {
  const char* name;
  const char* value;
};

void PrintTo(const InvalidValue& value, std::ostream* out) {
  *out << '"' << value.value << '"';
}

class InvalidDeviceOrder : public testing::TestWithParam<InvalidValue> {};

TEST_P(InvalidDeviceOrder, NumbersFastestFirst) {
  MX_SPEC("api.env.general.invalid-value-uses-default",
          "api.env.device-order.values");
  MX_KEYS_OF_DISTINCT_DEVICES(unset);
  const std::vector<DeviceKey> keys = KeysUnder(GetParam().value, "invalid");
  EXPECT_EQ(keys.size(), unset.size());
  EXPECT_TRUE(FastestFirst(keys));
  EXPECT_FALSE(InPciOrder(keys));
}

INSTANTIATE_TEST_SUITE_P(
    Values, InvalidDeviceOrder,
    testing::Values(InvalidValue{"LowerCase", "pci_bus_id"},
                    InvalidValue{"Abbreviated", "PCI"},
                    InvalidValue{"TrailingSpace", "PCI_BUS_ID "},
                    InvalidValue{"Unknown", "SLOWEST_FIRST"},
                    InvalidValue{"Empty", ""}),
    [](const testing::TestParamInfo<InvalidValue>& info) {
      return std::string(info.param.name);
    });

}  // namespace
