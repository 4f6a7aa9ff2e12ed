// Copyright mxcts authors.
//
// Tests of MACA_VISIBLE_DEVICES with a UUID entry (set by the BUILD rule):
// "GPU-6d786374-7300-4000-8000-000000000001,0" makes system device 1
// ordinal 0 and system device 0 ordinal 1.
// [api.env.visible-devices.uuid-entries]

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "mc_runtime.h"

namespace {

std::string Text(const mcUuid_t& uuid) {
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

TEST(UuidVisibleDevices, UuidEntrySelectsItsDevice) {
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  ASSERT_EQ(count, 2);
  mcUuid_t first;
  ASSERT_EQ(mcDeviceGetUuid(&first, 0), mcSuccess);
  EXPECT_EQ(Text(first), "GPU-6d786374-7300-4000-8000-000000000001");
  char id[16];
  ASSERT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), 0), mcSuccess);
  EXPECT_STREQ(id, "0000:1c:00.0");
  ASSERT_EQ(mcDeviceGetPCIBusId(id, sizeof(id), 1), mcSuccess);
  EXPECT_STREQ(id, "0000:1b:00.0");
}

}  // namespace
