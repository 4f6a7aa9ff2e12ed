"""conformance_test: a GoogleTest conformance test tied to the spec.

    load("//tools/build_defs:conformance.bzl", "conformance_test")

    conformance_test(
        name = "stream_create_test",
        srcs = ["stream_create_test.cc"],
    )

expands to a `cc_test` linking GoogleTest's main and MX_SPEC
(conformance/testing/spec.h), plus a build-time check: a genrule that runs
//tools/spec_refs over the sources against the IDs of docs/spec. The test
depends on the check's output, so building the test fails, naming file and
line, when a source names a clause that does not exist or a test names no
clause.
"""

load("@rules_cc//cc:defs.bzl", "cc_test")

def conformance_test(name, srcs, deps = [], size = "small", **kwargs):
    """Declares a conformance test and the check of its clause references.

    Args:
      name: the test's name.
      srcs: the test's C++ sources; each test in them must use MX_SPEC.
      deps: further dependencies.
      size: the test size (default "small").
      **kwargs: passed to cc_test.
    """
    check = name + "_spec_references"
    native.genrule(
        name = check,
        testonly = True,
        srcs = srcs + ["//docs/spec:clause_ids.txt"],
        outs = [check + ".txt"],
        cmd = ("$(location //tools/spec_refs) " +
               "--ids=$(location //docs/spec:clause_ids.txt) --out=$@ " +
               " ".join(["$(location %s)" % src for src in srcs])),
        tools = ["//tools/spec_refs"],
    )
    cc_test(
        name = name,
        srcs = srcs,
        size = size,
        data = kwargs.pop("data", []) + [":" + check],
        deps = deps + [
            "//conformance/testing:spec",
            "@com_google_googletest//:gtest_main",
        ],
        **kwargs
    )
