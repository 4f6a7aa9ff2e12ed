// Copyright mxcts authors.
//
// Formatting uses the host vsnprintf twice (measure, then write), so a
// device printf prints exactly what the host printf prints for the same
// values [lang.printf.call.output-on-host-stdout]; conversions beyond the
// supported set print whatever the host C library prints for them
// [lang.printf.format.other-conversions]. The return value is counted
// separately by walking the conversion specifications, because device printf
// returns its argument count, not its length.
//
// The buffer keeps plain text, not records: with whole records appended
// under one lock, the kept text is a sequence of whole records.
//
// Tested by printf_buffer_test.cc.

#include "reference/device/services/printf_buffer.h"

#include <cstdio>
#include <cstring>

#include "reference/device/engine.h"

namespace mxcts::device_internal {

bool PrintfBuffer::Append(std::string_view record) {
  absl::MutexLock lock(&mutex_);
  used_ = true;
  if (record.size() > capacity_ - text_.size()) {
    // [lang.printf.fifo.overflow-loses-output] The newest records are lost.
    ++dropped_;
    return false;
  }
  // [lang.printf.order.call-output-not-interleaved]
  text_.append(record.data(), record.size());
  return true;
}

std::string PrintfBuffer::Take(size_t* dropped) {
  absl::MutexLock lock(&mutex_);
  std::string text;
  text.swap(text_);
  if (dropped != nullptr) *dropped = dropped_;
  dropped_ = 0;
  return text;
}

bool PrintfBuffer::SetCapacity(size_t capacity) {
  absl::MutexLock lock(&mutex_);
  if (text_.size() > capacity) return false;
  capacity_ = capacity;
  return true;
}

size_t PrintfBuffer::capacity() const {
  absl::MutexLock lock(&mutex_);
  return capacity_;
}

size_t PrintfBuffer::dropped() const {
  absl::MutexLock lock(&mutex_);
  return dropped_;
}

bool PrintfBuffer::used() const {
  absl::MutexLock lock(&mutex_);
  return used_;
}

void PrintfBuffer::MarkUsed() {
  absl::MutexLock lock(&mutex_);
  used_ = true;
}

void PrintfBuffer::ResetUse() {
  absl::MutexLock lock(&mutex_);
  used_ = false;
}

int CountPrintfArguments(const char* format) {
  int count = 0;
  const char* p = format;
  while (*p != '\0') {
    if (*p++ != '%') continue;
    // Flags.
    while (*p != '\0' && std::strchr("-+ #0'I", *p) != nullptr) ++p;
    // Width.
    if (*p == '*') {
      ++count;
      ++p;
    } else {
      while (*p >= '0' && *p <= '9') ++p;
    }
    // Precision.
    if (*p == '.') {
      ++p;
      if (*p == '*') {
        ++count;
        ++p;
      } else {
        while (*p >= '0' && *p <= '9') ++p;
      }
    }
    // Length modifiers.
    while (*p != '\0' && std::strchr("hlLqjzZt", *p) != nullptr) ++p;
    if (*p == '\0') break;
    // The conversion itself; %% takes no argument.
    if (*p++ != '%') ++count;
  }
  return count;
}

int FormatDevicePrintf(const char* format, va_list args, std::string* text) {
  text->clear();
  // [lang.printf.return.null-format-is-negative]
  if (format == nullptr) return -1;
  va_list measure;
  va_copy(measure, args);
  const int length = std::vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  // [lang.printf.return.internal-error-is-negative]
  if (length < 0) return -2;
  text->resize(static_cast<size_t>(length) + 1);
  va_list write;
  va_copy(write, args);
  std::vsnprintf(text->data(), text->size(), format, write);
  va_end(write);
  text->resize(static_cast<size_t>(length));
  // [lang.printf.return.argument-count]
  // [lang.printf.return.zero-without-arguments]
  return CountPrintfArguments(format);
}

PrintfBuffer& DevicePrintfBuffer() {
  // [lang.printf.fifo.default-size]
  static PrintfBuffer* const buffer =
      new PrintfBuffer(device::kDefaultPrintfBufferBytes);
  return *buffer;
}

int DeviceVprintf(const char* format, va_list args) {
  std::string text;
  const int result = FormatDevicePrintf(format, args, &text);
  if (result >= 0) {
    DevicePrintfBuffer().Append(text);
  } else {
    // [lang.printf.fifo.resize-after-use-is-invalid-value] A call that
    // records nothing is still a use of printf.
    DevicePrintfBuffer().MarkUsed();
  }
  return result;
}

}  // namespace mxcts::device_internal
