"""One cc_test per test file of the runtime, with the usual dependencies."""

load("@rules_cc//cc:defs.bzl", "cc_test")

def runtime_test(name, deps = [], data = [], size = "small", **kwargs):
    """A small GoogleTest cc_test `name` built from `name`.cc.

    Args:
      name: the test's name; its source is `name`.cc.
      deps: further dependencies beside the runtime and gtest_main.
      data: data files.
      size: the test size.
      **kwargs: passed to cc_test (env, tags, ...).
    """
    cc_test(
        name = name,
        size = size,
        srcs = [name + ".cc"],
        data = data,
        deps = deps + [
            ":mcruntime",
            "@com_google_googletest//:gtest_main",
        ],
        **kwargs
    )
