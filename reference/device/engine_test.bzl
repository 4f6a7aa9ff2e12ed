"""Tests of the engine's parts, with the usual dependencies."""

load("@rules_cc//cc:defs.bzl", "cc_test")

def engine_part_tests(part, tests, thread_loop_variants = True):
    """One small GoogleTest cc_test per name of `tests`, built from name.cc.

    Each links the part's library and the whole engine (a part's tests run
    grids, and the engine's settings are the ones a program gets), plus the
    shared test helpers of engine_test_util.h.

    Args:
      part: the part's library, such as ":collectives".
      tests: the test names.
      thread_loop_variants: also build each test as name_thread_loop, whose
        grids run through a kernel thread loop (engine_test_util.h) rather
        than one entry call per thread.
    """
    deps = [
        part,
        "//reference/device:engine",
        "//reference/device:engine_test_util",
        "//reference/include:headers",
        "@com_google_absl//:status",
        "@com_google_absl//:statusor",
        "@com_google_googletest//:gmock_main",
    ]
    for test in tests:
        cc_test(
            name = test,
            size = "small",
            srcs = [test + ".cc"],
            deps = deps,
        )
        if thread_loop_variants:
            cc_test(
                name = test + "_thread_loop",
                size = "small",
                srcs = [test + ".cc"],
                local_defines = ["MXCTS_ENGINE_TEST_THREAD_LOOP"],
                deps = deps,
            )
