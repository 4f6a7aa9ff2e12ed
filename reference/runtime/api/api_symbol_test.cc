// Copyright mxcts authors.
//
// Tests of the symbol entry points against the hand-made test image. The
// host side is written the way mxcc's translator writes it (host shadows
// registered with RegisterDeviceVariable, a managed variable bound to
// RegisterManagedVariable), so the whole path from a shadow's address to
// the current device's instance is exercised.

#include <gtest/gtest.h>

#include <cstring>

#include "mc_runtime.h"
#include "reference/runtime/testing/runtime_testing.h"

// --- As the translator emits for the test image's source. ---
__mc_internal::ImageBlob __mc_image_test =
    mxcts::runtime_testing::InertTestImage();

int device_var = 7;
static const bool __mc_variable_registered_1 =
    ::__mc_internal::RegisterDeviceVariable(
        &__mc_image_test, (const void*)&device_var, "device_var",
        sizeof(device_var), 0);
namespace ns {
float constant_table[4] = {1, 2, 3, 4};
static const bool __mc_variable_registered_2 =
    ::__mc_internal::RegisterDeviceVariable(
        &__mc_image_test, (const void*)&constant_table, "ns::constant_table",
        sizeof(constant_table), ::__mc_internal::kVariableConstant);
}  // namespace ns
typedef int __mc_managed_t_3;
__mc_managed_t_3& managed_var =
    *static_cast<__mc_managed_t_3*>(::__mc_internal::RegisterManagedVariable(
        &__mc_image_test, "managed_var", sizeof(__mc_managed_t_3)));
// --- End of the translated part. ---

namespace {

class Symbols : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(__mc_image_test.size, 0u) << "test image not found";
    mcSetDevice(0);
    mcGetLastError();
  }
  void TearDown() override {
    for (int d : {1, 0}) {
      mcSetDevice(d);
      mcDeviceReset();
    }
    mcGetLastError();
  }
};

TEST_F(Symbols, ToAndFromSymbolRoundTrip) {
  // [api.memory.symbol.to-symbol-copies] [api.memory.symbol.from-symbol-copies]
  int in = 42, out = 0;
  EXPECT_EQ(mcMemcpyToSymbol(device_var, &in, sizeof(int)), mcSuccess);
  EXPECT_EQ(mcMemcpyFromSymbol(&out, device_var, sizeof(int)), mcSuccess);
  EXPECT_EQ(out, 42);
  EXPECT_EQ(device_var, 7);  // the host shadow is not the device instance
}

TEST_F(Symbols, FirstReadSeesTheInitializer) {
  // [lang.variable.device.initializer]
  float table[4] = {};
  EXPECT_EQ(mcMemcpyFromSymbol(table, ns::constant_table, sizeof(table)),
            mcSuccess);
  EXPECT_EQ(table[0], 1.0f);
  EXPECT_EQ(table[3], 4.0f);
}

TEST_F(Symbols, OffsetSelectsBytesInsideTheVariable) {
  // [lang.variable.constant.host-writes-with-symbol-api]
  float two[2] = {20, 30};
  EXPECT_EQ(
      mcMemcpyToSymbol(ns::constant_table, two, sizeof(two), 2 * sizeof(float)),
      mcSuccess);
  float table[4] = {};
  EXPECT_EQ(mcMemcpyFromSymbol(table, ns::constant_table, sizeof(table)),
            mcSuccess);
  EXPECT_EQ(table[1], 2.0f);
  EXPECT_EQ(table[2], 20.0f);
  EXPECT_EQ(table[3], 30.0f);
}

TEST_F(Symbols, EachDeviceHasItsOwnInstance) {
  // [api.memory.symbol.per-device-instance]
  int in = 100, out = 0;
  ASSERT_EQ(mcMemcpyToSymbol(device_var, &in, sizeof(int)), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcMemcpyFromSymbol(&out, device_var, sizeof(int)), mcSuccess);
  EXPECT_EQ(out, 7);
  void* on1 = nullptr;
  void* on0 = nullptr;
  ASSERT_EQ(mcGetSymbolAddress(&on1, device_var), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcGetSymbolAddress(&on0, device_var), mcSuccess);
  EXPECT_NE(on0, on1);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);  // the copy may be queued
  EXPECT_EQ(*static_cast<int*>(on0), 100);
}

TEST_F(Symbols, AddressReachesTheSameBytesThroughMemcpy) {
  // [api.memory.symbol.get-address] [api.memory.symbol.get-address-constant]
  void* address = nullptr;
  ASSERT_EQ(mcGetSymbolAddress(&address, ns::constant_table), mcSuccess);
  float value = 9;
  EXPECT_EQ(mcMemcpy(address, &value, sizeof(value), mcMemcpyHostToDevice),
            mcSuccess);
  float table[4] = {};
  mcMemcpyFromSymbol(table, ns::constant_table, sizeof(table));
  EXPECT_EQ(table[0], 9.0f);
}

TEST_F(Symbols, SizeIsTheVariablesSize) {
  size_t size = 0;
  EXPECT_EQ(mcGetSymbolSize(&size, ns::constant_table), mcSuccess);
  EXPECT_EQ(size, sizeof(float[4]));
  EXPECT_EQ(mcGetSymbolSize(&size, managed_var), mcSuccess);
  EXPECT_EQ(size, sizeof(int));
}

TEST_F(Symbols, ManagedVariableIsOneObjectForHostAndSymbolCalls) {
  // [lang.variable.managed.implies-device]
  managed_var = 40;
  int in = 41, out = 0;
  EXPECT_EQ(mcMemcpyToSymbol(managed_var, &in, sizeof(int)), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);  // the copy may be queued
  EXPECT_EQ(managed_var, 41);
  managed_var = 43;
  EXPECT_EQ(mcMemcpyFromSymbol(&out, managed_var, sizeof(int)), mcSuccess);
  EXPECT_EQ(out, 43);
  void* address = nullptr;
  EXPECT_EQ(mcGetSymbolAddress(&address, managed_var), mcSuccess);
  EXPECT_EQ(address, &managed_var);
}

TEST_F(Symbols, ResetRestoresTheInitializer) {
  // [lang.variable.device.reset-restores-initializer]
  int in = 99, out = 0;
  ASSERT_EQ(mcMemcpyToSymbol(device_var, &in, sizeof(int)), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  ASSERT_EQ(mcMemcpyFromSymbol(&out, device_var, sizeof(int)), mcSuccess);
  EXPECT_EQ(out, 7);
}

TEST_F(Symbols, WhatIsNotADeviceVariableIsInvalidSymbol) {
  // [api.memory.symbol.not-a-symbol]
  // [api.memory.symbol.takes-variable-not-string]
  int host_variable = 0;
  int value = 1;
  EXPECT_EQ(mcMemcpyToSymbol(host_variable, &value, sizeof(int)),
            mcErrorInvalidSymbol);
  EXPECT_EQ(mcMemcpyToSymbol("device_var", &value, sizeof(int)),
            mcErrorInvalidSymbol);
  EXPECT_EQ(mcMemcpyFromSymbol(&value, static_cast<const void*>(nullptr),
                               sizeof(int)),
            mcErrorInvalidSymbol);
  void* address = nullptr;
  EXPECT_EQ(mcGetSymbolAddress(&address, host_variable), mcErrorInvalidSymbol);
  size_t size = 0;
  EXPECT_EQ(mcGetSymbolSize(&size, host_variable), mcErrorInvalidSymbol);
  EXPECT_EQ(mcMemcpyToSymbol(device_var, &value, sizeof(int)),
            mcSuccess);  // control
}

TEST_F(Symbols, PastTheEndIsInvalidValueAndCopiesNothing) {
  // [api.memory.symbol.past-end]
  float five[5] = {5, 5, 5, 5, 5};
  EXPECT_EQ(mcMemcpyToSymbol(ns::constant_table, five, sizeof(five)),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyToSymbol(ns::constant_table, five, sizeof(float),
                             4 * sizeof(float)),
            mcErrorInvalidValue);
  EXPECT_EQ(
      mcMemcpyFromSymbol(five, ns::constant_table, sizeof(float), SIZE_MAX),
      mcErrorInvalidValue);
  float table[4] = {};
  mcMemcpyFromSymbol(table, ns::constant_table, sizeof(table));
  EXPECT_EQ(table[3], 4.0f);
}

TEST_F(Symbols, WrongKindIsInvalidMemcpyDirection) {
  // [api.memory.symbol.to-symbol-wrong-kind]
  // [api.memory.symbol.from-symbol-wrong-kind]
  int value = 0;
  EXPECT_EQ(mcMemcpyToSymbol(device_var, &value, sizeof(int), 0,
                             mcMemcpyDeviceToHost),
            mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(
      mcMemcpyToSymbol(device_var, &value, sizeof(int), 0, mcMemcpyHostToHost),
      mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(mcMemcpyFromSymbol(&value, device_var, sizeof(int), 0,
                               mcMemcpyHostToDevice),
            mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(
      mcMemcpyFromSymbol(&value, device_var, sizeof(int), 0, mcMemcpyDefault),
      mcSuccess);  // control
}

TEST_F(Symbols, DeviceToDeviceNeedsADeviceSource) {
  int* d = nullptr;
  ASSERT_EQ(mcMalloc(&d, sizeof(int)), mcSuccess);
  *d = 77;
  EXPECT_EQ(
      mcMemcpyToSymbol(device_var, d, sizeof(int), 0, mcMemcpyDeviceToDevice),
      mcSuccess);
  int pageable = 1;
  EXPECT_EQ(mcMemcpyToSymbol(device_var, &pageable, sizeof(int), 0,
                             mcMemcpyDeviceToDevice),
            mcErrorInvalidValue);
  int out = 0;
  mcMemcpyFromSymbol(&out, device_var, sizeof(int));
  EXPECT_EQ(out, 77);
  mcFree(d);
}

TEST_F(Symbols, NullOutputsAndSourcesAreInvalidValue) {
  // [api.memory.symbol.get-address-null-out]
  EXPECT_EQ(mcGetSymbolAddress(nullptr, device_var), mcErrorInvalidValue);
  EXPECT_EQ(mcGetSymbolSize(nullptr, device_var), mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyToSymbol(device_var, nullptr, sizeof(int)),
            mcErrorInvalidValue);
}

TEST_F(Symbols, AsyncFormsCopyAndCheckTheStream) {
  // [api.memory.symbol.async-forms] [api.memory.symbol.async-invalid-stream]
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  int in = 5, out = 0;
  EXPECT_EQ(mcMemcpyToSymbolAsync(device_var, &in, sizeof(int), 0,
                                  mcMemcpyHostToDevice, stream),
            mcSuccess);
  EXPECT_EQ(mcMemcpyFromSymbolAsync(&out, device_var, sizeof(int), 0,
                                    mcMemcpyDeviceToHost, stream),
            mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(out, 5);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(mcMemcpyToSymbolAsync(device_var, &in, sizeof(int), 0,
                                  mcMemcpyHostToDevice, stream),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcMemcpyFromSymbolAsync(&out, device_var, sizeof(int), 0,
                                    mcMemcpyDeviceToHost, stream),
            mcErrorInvalidResourceHandle);
}

}  // namespace
