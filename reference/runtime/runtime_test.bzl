"""One cc_test per test file of the runtime, with the usual dependencies."""

load("@rules_cc//cc:defs.bzl", "cc_test")

def runtime_test(name, deps = [], data = [], size = "small", src = None, **kwargs):
    """A small GoogleTest cc_test `name` built from `name`.cc.

    The test links the whole runtime (//reference/runtime:mcruntime), as a
    program does: a test of a lower package may still reach it through the
    entry points, and the runtime's process-wide objects are the ones a
    program gets.

    Args:
      name: the test's name; its source is `name`.cc unless `src` is given.
      deps: further dependencies beside the runtime and gtest_main.
      data: data files.
      size: the test size.
      src: the source, when several tests share one (environment variants).
      **kwargs: passed to cc_test (env, tags, ...).
    """
    cc_test(
        name = name,
        size = size,
        srcs = [src or name + ".cc"],
        data = data,
        deps = deps + [
            "//reference/runtime:mcruntime",
            "@com_google_googletest//:gtest_main",
        ],
        **kwargs
    )
