// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/stream_attributes.h
// -----------------------------------------------------------------------------
//
// The stream attribute setters of the stream attribute tests
// (docs/spec/api-stream.md, "Stream attributes"): the access policy window
// a stream starts with, a comparison of windows, one-line setters of the
// window and the synchronization policy, and the restoring of a stream's
// defaults (the default streams keep what a test sets for the life of the
// process, so a test that sets theirs restores them).
//
//   ASSERT_EQ(SetPolicy(stream, mcSyncPolicySpin), mcSuccess);
//   ...
//   RestoreDefaultAttributes(stream);
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_STREAM_ATTRIBUTES_H_
#define MXCTS_CONFORMANCE_API_TESTING_STREAM_ATTRIBUTES_H_

#include <mc_runtime.h>

namespace mxcts::conformance {

// The access policy window a stream has before one is set.
inline mcAccessPolicyWindow DefaultWindow() {
  return mcAccessPolicyWindow{nullptr, 0, 0.0f, mcAccessPropertyNormal,
                              mcAccessPropertyNormal};
}

// True if the two windows agree in every field.
inline bool SameWindow(const mcAccessPolicyWindow& a,
                       const mcAccessPolicyWindow& b) {
  return a.base_ptr == b.base_ptr && a.num_bytes == b.num_bytes &&
         a.hitRatio == b.hitRatio && a.hitProp == b.hitProp &&
         a.missProp == b.missProp;
}

// Sets the stream's access policy window; returns what
// mcStreamSetAttribute returned.
inline mcError_t SetWindow(mcStream_t stream,
                           const mcAccessPolicyWindow& window) {
  mcStreamAttrValue value;
  value.accessPolicyWindow = window;
  return mcStreamSetAttribute(stream, mcStreamAttributeAccessPolicyWindow,
                              &value);
}

// Sets the stream's synchronization policy; returns what
// mcStreamSetAttribute returned.
inline mcError_t SetPolicy(mcStream_t stream, mcSynchronizationPolicy policy) {
  mcStreamAttrValue value;
  value.syncPolicy = policy;
  return mcStreamSetAttribute(stream, mcStreamAttributeSynchronizationPolicy,
                              &value);
}

// Gives `stream` its default attributes back (the default streams keep
// theirs for the life of the process).
inline void RestoreDefaultAttributes(mcStream_t stream) {
  SetWindow(stream, DefaultWindow());
  SetPolicy(stream, mcSyncPolicyAuto);
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_STREAM_ATTRIBUTES_H_
