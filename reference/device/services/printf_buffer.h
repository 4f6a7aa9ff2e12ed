// Copyright mxcts authors.
//
// reference/device/services/printf_buffer.h: device printf.
//
// Device printf formats at once, as the host C library would, and appends
// the text as one record to an in-order buffer of bounded size (the
// mcLimitPrintfFifoSize); the runtime writes the buffer to stdout at its
// synchronization points. A record that does not fit is dropped whole, and
// counted, so the kept output is never torn. Since device threads run one at
// a time in a fixed order, the buffer's order is the order of the calls.
//
//   std::string text;
//   int result = FormatDevicePrintf("%d %f\n", args, &text);  // result: 2
//   DevicePrintfBuffer().Append(text);
//   std::string out = DevicePrintfBuffer().Take();

#ifndef REFERENCE_DEVICE_SERVICES_PRINTF_BUFFER_H_
#define REFERENCE_DEVICE_SERVICES_PRINTF_BUFFER_H_

#include <stdarg.h>
#include <stddef.h>

#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace mxcts::device_internal {

// A bounded buffer of printf records. Thread safe.
class PrintfBuffer {
 public:
  // A buffer that holds at most `capacity` bytes of text.
  explicit PrintfBuffer(size_t capacity) : capacity_(capacity) {}

  PrintfBuffer(const PrintfBuffer&) = delete;
  PrintfBuffer& operator=(const PrintfBuffer&) = delete;

  // Appends `record` if it fits in what is left of the capacity; otherwise
  // drops it, counts the drop and returns false.
  bool Append(std::string_view record);

  // Returns the buffered text, in order, and empties the buffer. If
  // `dropped` is not null, stores there the records dropped since the last
  // Take; resets that count either way.
  std::string Take(size_t* dropped = nullptr);

  // Changes the capacity; false (and no change) if the buffered text would
  // not fit.
  bool SetCapacity(size_t capacity);

  size_t capacity() const;
  // The records dropped since the last Take.
  size_t dropped() const;
  // Records a use of device printf that appends nothing (a call with a
  // null format).
  void MarkUsed();
  // Whether anything was appended (or dropped), or MarkUsed called, since
  // construction or the last ResetUse.
  bool used() const;
  // Forgets that the buffer was used.
  void ResetUse();

 private:
  mutable absl::Mutex mutex_;
  std::string text_ ABSL_GUARDED_BY(mutex_);
  size_t capacity_ ABSL_GUARDED_BY(mutex_);
  size_t dropped_ ABSL_GUARDED_BY(mutex_) = 0;
  bool used_ ABSL_GUARDED_BY(mutex_) = false;
};

// The number of arguments that `format` consumes: one per conversion other
// than %%, plus one per '*' width or precision.
int CountPrintfArguments(const char* format);

// Formats one device printf call into `*text` (replacing its contents).
// Returns what device printf returns: the number of arguments after the
// format, -1 for a null format (and no text), -2 if formatting failed.
// [lang.printf.return.argument-count]
int FormatDevicePrintf(const char* format, va_list args, std::string* text);

// The engine's device printf buffer, 1 MiB at first.
PrintfBuffer& DevicePrintfBuffer();

// Device printf as the image table offers it: formats and appends.
int DeviceVprintf(const char* format, va_list args);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SERVICES_PRINTF_BUFFER_H_
