"""A minimal @rules_cc for Bazel 4.2: each rule forwards to the native one.

Bazel's bundled C++ tools (@bazel_tools, @local_config_cc) load
`@rules_cc//cc:defs.bzl`, and every BUILD file of this project loads its C++
rules from here too. Debian's bazel-rules-cc package targets a newer Bazel, so
this file provides the names those callers need and nothing else: each macro
passes its attributes through unchanged.

Tested by //tools/rules_cc_shim_test (outside the shim, whose WORKSPACE file makes it a repository of its own).
"""

def cc_library(**attrs):
    """Forwards to the native cc_library."""
    native.cc_library(**attrs)

def cc_binary(**attrs):
    """Forwards to the native cc_binary."""
    native.cc_binary(**attrs)

def cc_test(**attrs):
    """Forwards to the native cc_test."""
    native.cc_test(**attrs)

def cc_import(**attrs):
    """Forwards to the native cc_import."""
    native.cc_import(**attrs)

def cc_toolchain(**attrs):
    """Forwards to the native cc_toolchain."""
    native.cc_toolchain(**attrs)

def cc_toolchain_suite(**attrs):
    """Forwards to the native cc_toolchain_suite."""
    native.cc_toolchain_suite(**attrs)
