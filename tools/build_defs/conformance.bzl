"""Conformance tests tied to the spec, built with the selected backend.

    load(
        "//tools/build_defs:conformance.bzl",
        "conformance_compile_fail_test",
        "conformance_test",
    )

    conformance_test(
        name = "stream_create_test",
        srcs = ["stream_create_test.cc"],
    )

    conformance_compile_fail_test(
        name = "global_returns_int_test",
        src = "global_returns_int.cu",
        control = "global_returns_void.cu",
        error_pattern = "must return void",
        error_line = 2,
        spec = ["lang.function.global.return-type-void"],
    )

`conformance_test` is an `mxmaca_test` (tools/build_defs/mxmaca.bzl): its
sources are compiled by the driver of the backend that
`--//conformance:backend` selects, linked with that backend's runtime,
GoogleTest's main, MX_SPEC (conformance/testing/spec.h) and
MX_REQUIRE_CAPABILITY (conformance/testing/capabilities.h), and run under
the backend's known failures. A build-time check runs //tools/spec_refs over
the sources against the IDs of docs/spec; the test depends on its output,
so building the test fails, naming file and line, when a source names a
clause that does not exist or a test names no clause.

`conformance_compile_fail_test` is an `mxmaca_compile_fail_test` whose
`spec` clause IDs are checked against docs/spec the same way and recorded
in its XML result.

The first of these macros in a package also declares the package's
`conformance_lint` test: //tools/test_lint over the package's files (with
the shared support headers of conformance/testing and conformance/api/testing),
which fails, naming file, line and rule, when a test names no clause,
asserts nothing, tests a trap without a legal control, or is a
must-not-compile test without a control that can compile (the rules:
tools/test_lint/test_lint.h; conformance/README.md, "The lint"). A new package
gets it without a line of its own, so `bazel test //...` lints every test.
"""

load(
    "//tools/build_defs:mxmaca.bzl",
    "mxmaca_compile_fail_test",
    "mxmaca_test",
)

_BACKEND = "//conformance:backend"

# The runtime's timeline modes besides the default (eager), as test
# variants: `conformance_test(..., variants = TIMELINE_VARIANTS)` also runs
# the test with device work deferred until the host waits and in a shuffled
# permitted order (docs/spec/api-synchronization.md, "When device work
# runs"). A correct program passes in every mode.
TIMELINE_VARIANTS = {
    "deferred": {"MXCTS_TIMELINE": "deferred"},
    "shuffle": {"MXCTS_TIMELINE": "shuffle:20261121"},
}

# The device engine's shuffled order (reference/device/design.md, "Orders"),
# as a test variant: `conformance_test(..., variants = ENGINE_ORDER_VARIANTS)`
# also runs the test with blocks, waves and barrier releases permuted. A
# correct program passes in every order; other backends ignore the variable.
ENGINE_ORDER_VARIANTS = {
    "engine_shuffle": {"MXCTS_ENGINE_ORDER": "shuffle:20261126"},
}

# MACA_MPS_MODE's two values, as test variants: `conformance_test(...,
# variants = MPS_VARIANTS)` also runs the test as a client of the
# multi-process service in exclusive and in shared mode
# (docs/spec/api-mps.md); the child processes it starts inherit the mode
# unless they set their own.
MPS_VARIANTS = {
    "mps_exclusive": {"MACA_MPS_MODE": "0"},
    "mps_shared": {"MACA_MPS_MODE": "1"},
}

_CLAUSE_IDS = "//docs/spec:clause_ids.txt"

# Headers of helpers that tests of every chapter call, which the lint reads
# to see the assertions a test makes through them.
_LINT_HEADERS = [
    "//conformance/testing:lint_headers",
    "//conformance/api/testing:lint_headers",
]

def _conformance_lint():
    """Declares the package's `conformance_lint` test, once per package.

    Only the suite's packages are linted: the rules' own tests elsewhere
    (tools/build_defs/testing) use deliberately incomplete fixtures.
    """
    if not native.package_name().startswith("conformance/"):
        return
    if native.existing_rule("conformance_lint"):
        return
    files = native.glob(["**"])
    native.sh_test(
        name = "conformance_lint",
        size = "small",
        srcs = ["//tools/test_lint:lint_package_test.sh"],
        args = ["$(rootpath //tools/test_lint)"] +
               ["$(rootpath :%s)" % f for f in files] +
               ["$(rootpaths %s)" % h for h in _LINT_HEADERS],
        data = ["//tools/test_lint"] + files + _LINT_HEADERS,
    )

def conformance_test(
        name,
        srcs,
        deps = [],
        size = "small",
        backend = _BACKEND,
        required_capability = None,
        **kwargs):
    """Declares a conformance test and the check of its clause references.

    Args:
      name: the test's name.
      srcs: the test's MXMACA sources; each test in them must use MX_SPEC.
      deps: further dependencies.
      size: the test size (default "small").
      backend: the backend (default: the one --//conformance:backend picks).
      required_capability: the capability of the manifest (docs/backend-guide.md)
        without which the test cannot even be compiled, for a test outside
        that capability's own chapter (a dynamic parallelism case in the
        memory model, say). It becomes the tag
        "mxmaca_capability=<capability>": certification (tools/certify)
        builds and requires the test only from a backend that claims it. A
        case that merely runs a feature skips itself instead
        (MX_REQUIRE_CAPABILITY).
      **kwargs: passed to mxmaca_test (copts, defines, data, tags,
        variants, ...).
    """
    if required_capability:
        kwargs["tags"] = kwargs.get("tags", []) + [
            "mxmaca_capability=" + required_capability,
        ]
    _conformance_lint()
    check = name + "_spec_references"
    native.genrule(
        name = check,
        testonly = True,
        srcs = srcs + [_CLAUSE_IDS],
        outs = [check + ".txt"],
        cmd = ("$(location //tools/spec_refs) " +
               "--ids=$(location %s) --out=$@ " % _CLAUSE_IDS +
               " ".join(["$(location %s)" % src for src in srcs])),
        tools = ["//tools/spec_refs"],
    )
    mxmaca_test(
        name = name,
        srcs = srcs,
        size = size,
        backend = backend,
        data = kwargs.pop("data", []) + [":" + check],
        deps = deps + [
            "//conformance/testing:capabilities",
            "//conformance/testing:fresh_process",
            "//conformance/testing:spec",
            "//conformance/testing:trap_expectation",
            "@com_google_googletest//:gtest_main",
        ],
        **kwargs
    )

def conformance_compile_fail_test(
        name,
        src,
        control,
        error_pattern,
        error_line,
        spec,
        size = "small",
        backend = _BACKEND,
        **kwargs):
    """Declares a must-not-compile conformance test and checks its clauses.

    Args:
      name: the test's name.
      src: the source the backend's driver must reject.
      control: the source beside it, without the broken rule, that must
        compile.
      error_pattern: RE2 the driver's diagnostic for `src` must match on
        a backend that claims reference_choices (the reference's wording).
      error_line: the line of `src` with the broken rule: on other
        backends the diagnostic must point there, in any words.
      spec: the clause IDs the test checks (at least one), each a clause of
        docs/spec.
      size: the test size (default "small").
      backend: the backend (default: the one --//conformance:backend picks).
      **kwargs: passed to mxmaca_compile_fail_test (hdrs, deps, copts, tags).
    """
    if not spec:
        fail("%s: a conformance test names the clauses it checks (spec)" % name)
    _conformance_lint()
    check = name + "_spec_references"
    native.genrule(
        name = check,
        testonly = True,
        srcs = [src, _CLAUSE_IDS],
        outs = [check + ".txt"],
        cmd = ("for id in %s; do " % " ".join(spec) +
               "grep -qxF \"$$id\" $(location %s) || " % _CLAUSE_IDS +
               "{ echo \"$(location %s): test %s names '$$id', " % (src, name) +
               "which is not a clause\" >&2; exit 1; }; " +
               "echo \"MustNotCompile.%s $$id\"; done > $@" % name),
    )
    mxmaca_compile_fail_test(
        name = name,
        src = src,
        control = control,
        error_pattern = error_pattern,
        error_line = error_line,
        spec = spec,
        size = size,
        backend = backend,
        data = kwargs.pop("data", []) + [":" + check],
        **kwargs
    )
