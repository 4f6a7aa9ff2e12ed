"""MXMACA backends and the rules that compile MXMACA sources with them.

A backend is everything that turns MXMACA source into a running program: a
compiler driver, the installed SDK tree it reads (headers, device libraries),
the runtime library programs link, a capability manifest (the optional
features it claims) and a list of its known failures. `mxmaca_backend`
bundles them; the flag `--//conformance:backend=<label>` picks one (default:
the reference, //reference/backend). docs/backend-guide.md is the guide.

    load("//tools/build_defs:mxmaca.bzl", "mxmaca_binary", "mxmaca_library", "mxmaca_test")

    mxmaca_test(
        name = "saxpy_test",
        srcs = ["saxpy_test.cu"],
        deps = ["@com_google_googletest//:gtest_main"],
    )

Each MXMACA source is compiled by the backend's driver in an action of its
own:

    DRIVER -x maca -c SRC -o OBJ --maca-path=SDK_ROOT FLAGS...

where FLAGS are the build's --copt/--cxxopt, `-iquote`/`-I`/`-isystem`/`-D`
from the compilation contexts of `deps` and of the backend's runtime, the
rule's `defines` and then its `copts`. The objects are linked by a cc_binary whose deps are `deps` and the
backend (whose CcInfo is its runtime library).

`mxmaca_test` runs the test binary under //conformance/testing:
expectation_runner, which applies the backend's expectations file (known
failures, with reasons) to the GoogleTest XML result, and gives the test the
backend's capability manifest in $MXMACA_CAPABILITIES
(conformance/testing/capabilities.h reads it).

`mxmaca_compile_fail_test` checks that the driver rejects a source with a
matching diagnostic and accepts a control source beside it. The driver runs
at build time, in an action that records its exit status and output and
always succeeds; the test reads the two records, so it needs neither the
driver nor the SDK where it runs.

Tested by //tools/build_defs/testing (a fake backend whose driver is g++).
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library")

MxmacaBackendInfo = provider(
    doc = "An MXMACA backend: its driver, SDK, manifest and expectations.",
    fields = {
        "name": "string: the backend's name, as reports show it.",
        "driver": "File: the compiler driver executable.",
        "driver_tools": "list of FilesToRunProvider: the driver and its runfiles.",
        "sdk_root": "string: the SDK root, relative to the execution root or absolute.",
        "sdk_root_in_runfiles": "string: the SDK root relative to a runfiles tree's workspace folder, or absolute.",
        "sdk_files": "depset of File: the SDK tree, inputs of every compile action.",
        "capabilities": "File: the capability manifest.",
        "expectations": "File or None: the known failures.",
        "checked": "File: written once the manifest and expectations parse.",
        "test_env": "dict: environment of tests; '{sdk_root}' in a value is the SDK root.",
        "test_needs_sdk": "bool: tests get the SDK tree in their runfiles.",
        "libraries": "dict: library name (as -l names it) -> CcInfo of the backend's optional libraries.",
    },
)

# The install layout: the driver is $MACA_PATH/mxgpu_llvm/bin/mxcc.
_DRIVER_DIR_IN_SDK = "mxgpu_llvm/bin/"

# Sources the driver compiles; anything else in srcs is an input only (a
# header included by them).
_COMPILED_EXTENSIONS = ["cu", "maca", "cc", "cpp", "cxx", "c++", "C"]

def _find_driver(target):
    """Returns the driver's File from an executable, a file or an SDK target."""
    executable = target[DefaultInfo].files_to_run.executable
    if executable != None:
        return executable
    files = target[DefaultInfo].files.to_list()
    if len(files) == 1:
        return files[0]
    for f in files:
        if f.path.endswith("/" + _DRIVER_DIR_IN_SDK + "mxcc"):
            return f
    fail("driver %s is not executable, is not one file, and holds no %smxcc" %
         (target.label, _DRIVER_DIR_IN_SDK))

def _driver_tools(target):
    """The driver target's FilesToRunProvider, if it runs (brings runfiles)."""
    files_to_run = target[DefaultInfo].files_to_run
    return [files_to_run] if files_to_run.executable != None else []

def _runfiles_path(path, root):
    """Maps an execution-root path under `root` to its runfiles path."""
    if path.startswith("/"):
        return path
    if root and path.startswith(root + "/"):
        path = path[len(root) + 1:]
    if path.startswith("external/"):
        return "../" + path[len("external/"):]
    return path

def _sdk_root(ctx, driver):
    """Returns the SDK root given by `sdk_root`, else the driver's."""
    if ctx.attr.sdk_root:
        return ctx.attr.sdk_root
    suffix = "/" + _DRIVER_DIR_IN_SDK + driver.basename
    if not driver.path.endswith(suffix):
        fail("the driver %s is not at SDK_ROOT/%s%s; set sdk_root" %
             (driver.path, _DRIVER_DIR_IN_SDK, driver.basename))
    return driver.path[:-len(suffix)]

def _mxmaca_backend_impl(ctx):
    driver = _find_driver(ctx.attr.driver)
    sdk_root = _sdk_root(ctx, driver)
    sdk_files = depset(transitive = [t[DefaultInfo].files for t in ctx.attr.sdk])

    # Fail the build, naming file and line, on a malformed manifest or
    # expectations file, before any test runs.
    checked = ctx.actions.declare_file(ctx.label.name + ".checked")
    args = ctx.actions.args()
    args.add("--capabilities=" + ctx.file.capabilities.path)
    inputs = [ctx.file.capabilities]
    if ctx.file.expectations:
        args.add("--expectations=" + ctx.file.expectations.path)
        inputs.append(ctx.file.expectations)
    args.add("--out=" + checked.path)
    ctx.actions.run(
        executable = ctx.executable._check_backend_files,
        arguments = [args],
        inputs = inputs,
        outputs = [checked],
        mnemonic = "MxmacaBackendCheck",
        progress_message = "Checking the manifest and expectations of %s" % ctx.label,
    )

    backend = MxmacaBackendInfo(
        name = ctx.attr.backend_name or ctx.label.name,
        driver = driver,
        driver_tools = _driver_tools(ctx.attr.driver),
        sdk_root = sdk_root,
        sdk_root_in_runfiles = _runfiles_path(sdk_root, driver.root.path),
        sdk_files = sdk_files,
        capabilities = ctx.file.capabilities,
        expectations = ctx.file.expectations,
        checked = checked,
        test_env = ctx.attr.test_env,
        test_needs_sdk = ctx.attr.test_needs_sdk,
        libraries = {
            name: target[CcInfo]
            for target, name in ctx.attr.libraries.items()
        },
    )
    return [
        backend,
        # Programs link the runtime: `deps = ["//conformance:backend"]`.
        ctx.attr.runtime[CcInfo],
        DefaultInfo(files = depset([checked])),
    ]

mxmaca_backend = rule(
    implementation = _mxmaca_backend_impl,
    doc = "An MXMACA backend; also provides its runtime's CcInfo.",
    attrs = {
        "backend_name": attr.string(
            doc = "The name reports use (default: the target's name).",
        ),
        "driver": attr.label(
            doc = "The compiler driver: an executable, a file, or an SDK " +
                  "target holding mxgpu_llvm/bin/mxcc. Built for the target " +
                  "configuration: this project builds where it runs, and " +
                  "the SDK is then built once for the driver and the tests.",
            mandatory = True,
            allow_files = True,
            cfg = "target",
        ),
        "sdk": attr.label_list(
            doc = "The files of the installed SDK tree the driver reads.",
            allow_files = True,
        ),
        "sdk_root": attr.string(
            doc = "The SDK root (--maca-path), relative to the execution " +
                  "root or absolute. Default: the driver's directory, " +
                  "three levels up (SDK_ROOT/mxgpu_llvm/bin/mxcc).",
        ),
        "runtime": attr.label(
            doc = "The runtime library programs link (its CcInfo).",
            mandatory = True,
            providers = [CcInfo],
        ),
        "capabilities": attr.label(
            doc = "The capability manifest (docs/backend-guide.md).",
            mandatory = True,
            allow_single_file = True,
        ),
        "expectations": attr.label(
            doc = "The known failures (conformance/expectations/<name>.txt).",
            allow_single_file = True,
        ),
        "test_env": attr.string_dict(
            doc = "Environment variables of every test; '{sdk_root}' in a " +
                  "value becomes the absolute SDK root in the runfiles.",
        ),
        "test_needs_sdk": attr.bool(
            doc = "Put the SDK tree in every test's runfiles (a runtime " +
                  "that compiles at run time needs the driver).",
        ),
        "libraries": attr.label_keyed_string_dict(
            doc = "The backend's optional libraries beside its runtime, " +
                  "each by the name -l gives it (a program's -lmcanalyzer " +
                  "is {label: \"mcanalyzer\"}); mxmaca_backend_library " +
                  "links one.",
            providers = [CcInfo],
        ),
        "_check_backend_files": attr.label(
            default = "//conformance/testing:check_backend_files",
            executable = True,
            cfg = "exec",
        ),
    },
)

def _split_extension(path):
    """Returns (stem, extension) of `path`'s last component."""
    slash = path.rfind("/")
    dot = path.rfind(".")
    if dot <= slash + 1:
        return path, ""
    return path[:dot], path[dot + 1:]

def _is_compiled(f):
    return _split_extension(f.basename)[1] in _COMPILED_EXTENSIONS

def _deps_compilation_context(deps):
    """The merged compilation context of `deps` (the backend among them)."""
    cc_infos = [dep[CcInfo] for dep in deps if CcInfo in dep]
    return cc_common.merge_cc_infos(cc_infos = cc_infos).compilation_context

def _driver_arguments(ctx, backend, compilation_context):
    """The flags every driver run of this rule gets, after the source."""
    args = ctx.actions.args()
    args.add("--maca-path=" + backend.sdk_root)
    args.add_all(ctx.fragments.cpp.copts)
    args.add_all(ctx.fragments.cpp.cxxopts)
    args.add_all(compilation_context.quote_includes, before_each = "-iquote")
    args.add_all(compilation_context.includes, before_each = "-I")
    args.add_all(compilation_context.system_includes, before_each = "-isystem")
    args.add_all(compilation_context.defines, format_each = "-D%s")
    args.add_all(ctx.attr.defines, format_each = "-D%s")
    args.add_all(ctx.attr.copts)
    return args

# Objects with relocatable device code live under this directory, so that a
# device link finds them among the objects of its dependencies.
_RDC_OBJECTS_DIR = "_mxmaca_rdc_objs"

def _dependency_rdc_objects(deps):
    """The relocatable device code objects that `deps` link."""
    found = []
    for dep in deps:
        if CcInfo not in dep:
            continue
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for library in linker_input.libraries:
                for obj in library.objects + library.pic_objects:
                    if ("/%s/" % _RDC_OBJECTS_DIR) in obj.path and obj not in found:
                        found.append(obj)
    return found

def _mxmaca_objects_impl(ctx):
    backend = ctx.attr.backend[MxmacaBackendInfo]
    compilation_context = _deps_compilation_context(ctx.attr.deps + [ctx.attr.backend])
    flags = _driver_arguments(ctx, backend, compilation_context)
    inputs = depset(
        ctx.files.srcs + [backend.checked],
        transitive = [compilation_context.headers, backend.sdk_files],
    )
    objects = []
    directory = _RDC_OBJECTS_DIR if ctx.attr.rdc else "_mxmaca_objs"
    for src in ctx.files.srcs:
        if not _is_compiled(src):
            continue
        stem = _split_extension(src.short_path)[0].replace("../", "external/")
        obj = ctx.actions.declare_file("%s/%s/%s.o" % (directory, ctx.label.name, stem))
        head = ctx.actions.args()
        head.add_all(["-x", "maca", "-c", src, "-o", obj])
        if ctx.attr.rdc:
            head.add("-fgpu-rdc")
        ctx.actions.run(
            executable = backend.driver,
            tools = backend.driver_tools,
            arguments = [head, flags],
            inputs = inputs,
            outputs = [obj],
            mnemonic = "MxmacaCompile",
            # The driver finds the host tools (g++, ld, objcopy) on PATH.
            use_default_shell_env = True,
            progress_message = "Compiling %s with the %s backend" % (src.short_path, backend.name),
        )
        objects.append(obj)
    if not objects:
        fail("srcs holds no MXMACA source (%s)" % ", ".join(_COMPILED_EXTENSIONS))

    # A program links the relocatable device code of its own sources and of
    # its dependencies into one device image, in one more object.
    if ctx.attr.device_link:
        rdc_objects = (objects if ctx.attr.rdc else []) + _dependency_rdc_objects(ctx.attr.deps)
        if rdc_objects:
            device_link = ctx.actions.declare_file("_mxmaca_objs/%s/device_link.o" % ctx.label.name)
            head = ctx.actions.args()
            head.add_all(["--device-link"] + rdc_objects + ["-o", device_link])
            ctx.actions.run(
                executable = backend.driver,
                tools = backend.driver_tools,
                arguments = [head, flags],
                inputs = depset(rdc_objects + [backend.checked], transitive = [backend.sdk_files]),
                outputs = [device_link],
                mnemonic = "MxmacaDeviceLink",
                use_default_shell_env = True,
                progress_message = "Linking the device code of %s with the %s backend" % (ctx.label, backend.name),
            )
            objects.append(device_link)
    return [DefaultInfo(files = depset(objects))]

_mxmaca_objects = rule(
    implementation = _mxmaca_objects_impl,
    doc = "Compiles each MXMACA source with the backend's driver.",
    attrs = {
        "srcs": attr.label_list(allow_files = True, mandatory = True),
        "deps": attr.label_list(),
        "copts": attr.string_list(),
        "defines": attr.string_list(),
        "backend": attr.label(mandatory = True, providers = [MxmacaBackendInfo]),
        "rdc": attr.bool(doc = "Compile as relocatable device code (-fgpu-rdc)."),
        "device_link": attr.bool(
            doc = "Add the object of the device link of all relocatable " +
                  "device code (own and of deps): set for programs.",
        ),
    },
    fragments = ["cpp"],
)

def _compile_objects(name, srcs, deps, copts, defines, backend, testonly, rdc = False, device_link = False):
    objects = name + "_objects"
    _mxmaca_objects(
        name = objects,
        srcs = srcs,
        deps = deps,
        copts = copts,
        defines = defines,
        backend = backend,
        testonly = testonly,
        rdc = rdc,
        device_link = device_link,
        visibility = ["//visibility:private"],
    )
    return ":" + objects

def mxmaca_library(
        name,
        srcs,
        hdrs = [],
        deps = [],
        copts = [],
        defines = [],
        rdc = False,
        backend = "//conformance:backend",
        testonly = False,
        **kwargs):
    """A library of MXMACA sources, compiled with the selected backend.

    With `rdc = True` its sources are relocatable device code (-fgpu-rdc):
    kernels of other sources may call its `__device__` functions and use its
    device variables. Every mxmaca_binary and mxmaca_test that depends on
    it, directly or not, links the device code of all such libraries into
    one image (the driver's --device-link).

    Args:
      name: the library's name.
      srcs: MXMACA sources and the private headers they include.
      hdrs: headers for dependents.
      deps: cc libraries (mxmaca_library ones included).
      copts: further driver flags, after all others.
      defines: macros defined for the driver (-D).
      rdc: compile as relocatable device code.
      backend: the MxmacaBackendInfo target (default: the flag's choice).
      testonly: as for every rule.
      **kwargs: passed to cc_library (visibility, tags, ...).
    """
    cc_library(
        name = name,
        srcs = [_compile_objects(name, srcs + hdrs, deps, copts, defines, backend, testonly, rdc = rdc)],
        hdrs = hdrs,
        deps = deps + [backend],
        # The driver's objects are not position-independent unless copts
        # say so, and a shared library of relocatable device code would
        # need its own device link: programs link the library statically.
        linkstatic = True,
        testonly = testonly,
        **kwargs
    )

def mxmaca_binary(
        name,
        srcs,
        deps = [],
        copts = [],
        defines = [],
        rdc = False,
        backend = "//conformance:backend",
        testonly = False,
        **kwargs):
    """An executable built from MXMACA sources with the selected backend.

    Args:
      name: the binary's name.
      srcs: MXMACA sources (.cu, .maca, .cc, ...) and the headers they include.
      deps: cc libraries: their include paths and defines reach the driver,
        and they are linked.
      copts: further driver flags, after all others.
      defines: macros defined for the driver (-D).
      rdc: compile as relocatable device code (-fgpu-rdc).
      backend: the MxmacaBackendInfo target (default: the flag's choice).
      testonly: as for every rule.
      **kwargs: passed to cc_binary (linkopts, data, visibility, ...).
    """
    cc_binary(
        name = name,
        srcs = [_compile_objects(name, srcs, deps, copts, defines, backend, testonly, rdc = rdc, device_link = True)],
        deps = deps + [backend],
        testonly = testonly,
        **kwargs
    )

def _shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"

def _in_runfiles(path):
    """A shell word for `path` (a runfiles path) in the launcher scripts."""
    if path.startswith("/"):
        return _shell_quote(path)
    return '"$root"/' + _shell_quote(path)

# Every launcher starts here: it finds the runfiles tree whether Bazel runs
# the test, `bazel run` runs it, or a user runs bazel-bin/... by hand.
_LAUNCHER_HEAD = """#!/bin/bash
# Generated by {rule} for {label}.
set -u
if [[ -n "${{TEST_SRCDIR:-}}" ]]; then
  root="$TEST_SRCDIR/{workspace}"
elif [[ -d "$0.runfiles/{workspace}" ]]; then
  root="$(cd "$0.runfiles/{workspace}" && pwd)"
else
  root="$PWD"
fi
"""

def _launcher_head(ctx, rule_name):
    return _LAUNCHER_HEAD.format(
        rule = rule_name,
        label = str(ctx.label),
        workspace = ctx.workspace_name,
    )

def _backend_environment(backend):
    """Launcher lines exporting the backend's test environment."""
    lines = ["export MXMACA_CAPABILITIES=" +
             _in_runfiles(backend.capabilities.short_path)]
    root = _in_runfiles(backend.sdk_root_in_runfiles)
    for key, value in sorted(backend.test_env.items()):
        words = []
        for i, part in enumerate(value.split("{sdk_root}")):
            if i > 0:
                words.append(root)
            if part:
                words.append(_shell_quote(part))
        lines.append("export %s=%s" % (key, "".join(words) or "''"))
    return lines

def _backend_runfiles(ctx, backend):
    files = [backend.capabilities, backend.checked]
    if backend.expectations:
        files.append(backend.expectations)
    transitive = [backend.sdk_files] if backend.test_needs_sdk else []
    return ctx.runfiles(files = files, transitive_files = depset(transitive = transitive))

def _expectation_flags(backend):
    if not backend.expectations:
        return []
    return [
        "--expectations=" + _in_runfiles(backend.expectations.short_path),
        "--expectations_name=" + _shell_quote(backend.expectations.short_path),
    ]

def _mxmaca_expectation_test_impl(ctx):
    backend = ctx.attr.backend[MxmacaBackendInfo]
    runner = ctx.executable._runner
    binary = ctx.executable.binary
    command = [
        "exec",
        _in_runfiles(runner.short_path),
        "--target=" + _shell_quote(str(ctx.label)),
        "--backend=" + _shell_quote(backend.name),
    ] + _expectation_flags(backend) + [
        "--",
        _in_runfiles(binary.short_path),
        '"$@"',
    ]
    script = ctx.actions.declare_file(ctx.label.name)
    variant_environment = [
        "export %s=%s" % (key, _shell_quote(value))
        for key, value in sorted(ctx.attr.env.items())
    ]
    ctx.actions.write(
        output = script,
        content = "\n".join(
            [_launcher_head(ctx, "mxmaca_test")] +
            _backend_environment(backend) + variant_environment +
            [" ".join(command), ""],
        ),
        is_executable = True,
    )
    runfiles = ctx.runfiles(files = [binary, runner] + ctx.files.data)
    runfiles = runfiles.merge(_backend_runfiles(ctx, backend))
    for target in [ctx.attr.binary, ctx.attr._runner] + ctx.attr.data:
        runfiles = runfiles.merge(target[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

_mxmaca_expectation_test = rule(
    implementation = _mxmaca_expectation_test_impl,
    doc = "Runs a GoogleTest binary under the backend's expectations.",
    attrs = {
        "binary": attr.label(mandatory = True, executable = True, cfg = "target"),
        "backend": attr.label(mandatory = True, providers = [MxmacaBackendInfo]),
        "data": attr.label_list(allow_files = True),
        "env": attr.string_dict(
            doc = "Environment variables the launcher exports before running.",
        ),
        "_runner": attr.label(
            default = "//conformance/testing:expectation_runner",
            executable = True,
            cfg = "target",
        ),
    },
    test = True,
)

def mxmaca_test(
        name,
        srcs,
        deps = [],
        copts = [],
        defines = [],
        size = "small",
        data = [],
        rdc = False,
        backend = "//conformance:backend",
        variants = {},
        **kwargs):
    """A GoogleTest test built from MXMACA sources with the selected backend.

    The test binary (NAME_binary) runs under //conformance/testing:
    expectation_runner with the backend's capability manifest in
    $MXMACA_CAPABILITIES. A failure the backend's expectations file lists is
    reported as KNOWN FAILURE and does not fail the target (the XML result
    keeps it failed); a listed test that passes fails the target.

    Args:
      name: the test's name.
      srcs: MXMACA sources and the headers they include.
      deps: cc libraries, GoogleTest's main among them.
      copts: further driver flags, after all others.
      defines: macros defined for the driver (-D).
      size: the test size.
      data: files the test reads at run time.
      rdc: compile as relocatable device code (-fgpu-rdc); the device code
        of relocatable deps is linked either way.
      backend: the MxmacaBackendInfo target (default: the flag's choice).
      variants: {suffix: {variable: value}}: further tests NAME_SUFFIX that
        run the same binary with those environment variables exported (for
        example the runtime's timeline modes).
      **kwargs: passed to the test (tags, timeout, args, shard_count,
        flaky, local, visibility, ...); linkopts goes to the binary.
    """
    binary = name + "_binary"
    cc_binary(
        name = binary,
        srcs = [_compile_objects(name, srcs, deps, copts, defines, backend, True, rdc = rdc, device_link = True)],
        deps = deps + [backend],
        linkopts = kwargs.pop("linkopts", []),
        testonly = True,
        visibility = ["//visibility:private"],
    )
    # A test's own environment (env) holds in every variant too; a
    # variant's variables win.
    base_environment = kwargs.pop("env", {})
    _mxmaca_expectation_test(
        name = name,
        binary = ":" + binary,
        backend = backend,
        data = data,
        size = size,
        env = base_environment,
        **kwargs
    )
    for suffix, environment in sorted(variants.items()):
        merged = dict(base_environment)
        merged.update(environment)
        _mxmaca_expectation_test(
            name = name + "_" + suffix,
            binary = ":" + binary,
            backend = backend,
            data = data,
            size = size,
            env = merged,
            **kwargs
        )

def _record_driver_run(ctx, backend, src, inputs, flags, record):
    """Runs the driver on `src`; `record` gets "exit N" and its output."""
    head = ctx.actions.args()
    head.add_all([record, record.path + ".o", backend.driver, "-x", "maca", "-c", src])
    ctx.actions.run_shell(
        command = ('record="$1"; object="$2"; shift 2; ' +
                   '"$@" -o "$object" > "$record.log" 2>&1; status=$?; ' +
                   '{ echo "exit $status"; cat "$record.log"; } > "$record"; ' +
                   'rm -f "$record.log" "$object"'),
        arguments = [head, flags],
        inputs = inputs,
        tools = backend.driver_tools,
        outputs = [record],
        mnemonic = "MxmacaCompileRecord",
        use_default_shell_env = True,
        progress_message = "Compiling %s with the %s backend, recording the outcome" %
                           (src.short_path, backend.name),
    )

def _mxmaca_compile_fail_test_impl(ctx):
    backend = ctx.attr.backend[MxmacaBackendInfo]
    compilation_context = _deps_compilation_context(ctx.attr.deps + [ctx.attr.backend])
    flags = _driver_arguments(ctx, backend, compilation_context)
    inputs = depset(
        [ctx.file.src, ctx.file.control, backend.checked] + ctx.files.hdrs,
        transitive = [compilation_context.headers, backend.sdk_files],
    )
    records = {}
    for kind, src in [("rejected", ctx.file.src), ("control", ctx.file.control)]:
        record = ctx.actions.declare_file("%s_%s.record" % (ctx.label.name, kind))
        _record_driver_run(ctx, backend, src, inputs, flags, record)
        records[kind] = record
    checker = ctx.executable._checker
    command = [
        "exec",
        _in_runfiles(checker.short_path),
        "--target=" + _shell_quote(str(ctx.label)),
        "--backend=" + _shell_quote(backend.name),
        "--source=" + _shell_quote(ctx.file.src.short_path),
        "--record=" + _in_runfiles(records["rejected"].short_path),
        "--control_source=" + _shell_quote(ctx.file.control.short_path),
        "--control_record=" + _in_runfiles(records["control"].short_path),
        "--error_pattern=" + _shell_quote(ctx.attr.error_pattern),
        "--error_line=%d" % ctx.attr.error_line,
        "--spec=" + _shell_quote(" ".join(ctx.attr.spec)),
        "--capabilities=" + _in_runfiles(backend.capabilities.short_path),
    ] + _expectation_flags(backend)
    if ctx.attr.unsupported_where:
        command.append("--unsupported_where=" + _shell_quote(ctx.attr.unsupported_where))
    if ctx.attr.required_capability:
        command.append("--required_capability=" + _shell_quote(ctx.attr.required_capability))
    script = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.write(
        output = script,
        content = "\n".join([
            _launcher_head(ctx, "mxmaca_compile_fail_test"),
            " ".join(command),
            "",
        ]),
        is_executable = True,
    )
    runfiles = ctx.runfiles(files = [checker, records["rejected"], records["control"]] + ctx.files.data)
    runfiles = runfiles.merge(_backend_runfiles(ctx, backend))
    runfiles = runfiles.merge(ctx.attr._checker[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

mxmaca_compile_fail_test = rule(
    implementation = _mxmaca_compile_fail_test_impl,
    doc = """A must-not-compile test.

Passes only if the backend's driver rejects `src` (a non-zero exit, not a
crash) with a diagnostic and compiles `control` (the same source minus the
one broken rule). The diagnostic must match `error_pattern` (an RE2 regular
expression, searched in the driver's stdout and stderr together) on a
backend that claims `reference_choices` (the reference's wording); on any
other it must point at `src` and, if `error_line` is set, that line
(`file:LINE:` or `file(LINE)`), whatever its words. Both compiles run at build time
with the flags mxmaca_test would use; the test reads their records and
reports, on failure, the file, the pattern and what the driver printed. The
result XML has one case, MustNotCompile.<name>, with `spec` as its "spec"
property; the backend's expectations may list it as a known failure.
""",
    attrs = {
        "src": attr.label(
            doc = "The source the driver must reject.",
            mandatory = True,
            allow_single_file = True,
        ),
        "control": attr.label(
            doc = "The source beside it that must compile.",
            mandatory = True,
            allow_single_file = True,
        ),
        "error_pattern": attr.string(
            doc = "RE2 the driver's diagnostic for `src` must match.",
            mandatory = True,
        ),
        "hdrs": attr.label_list(
            doc = "Headers the two sources include.",
            allow_files = True,
        ),
        "deps": attr.label_list(doc = "cc libraries whose headers they include."),
        "data": attr.label_list(
            doc = "Files the test needs (for example a build-time check's output).",
            allow_files = True,
        ),
        "copts": attr.string_list(doc = "Further driver flags."),
        "defines": attr.string_list(doc = "Macros defined for the driver."),
        "spec": attr.string_list(
            doc = "Clause IDs the test checks, recorded in its XML result.",
        ),
        "unsupported_where": attr.string(
            doc = "A capability (docs/backend-guide.md): on a backend " +
                  "whose manifest claims it, the test reports unsupported " +
                  "(it checks what a backend without the feature rejects).",
        ),
        "required_capability": attr.string(
            doc = "A capability the test needs: on a backend whose " +
                  "manifest does not claim it, the test reports unsupported.",
        ),
        "error_line": attr.int(
            doc = "The line of `src` the diagnostic points at (0: any).",
            default = 0,
        ),
        "backend": attr.label(
            default = "//conformance:backend",
            providers = [MxmacaBackendInfo],
        ),
        "_checker": attr.label(
            default = "//conformance/testing:compile_fail_check",
            executable = True,
            cfg = "target",
        ),
    },
    fragments = ["cpp"],
    test = True,
)

def _mxmaca_backend_library_impl(ctx):
    backend = ctx.attr.backend[MxmacaBackendInfo]
    if ctx.attr.library not in backend.libraries:
        fail("the %s backend has no library '%s' (its libraries: %s)" %
             (backend.name, ctx.attr.library, ", ".join(sorted(backend.libraries.keys())) or "none"))
    return [backend.libraries[ctx.attr.library]]

mxmaca_backend_library = rule(
    implementation = _mxmaca_backend_library_impl,
    doc = """One of the backend's optional libraries, for `deps`: what a program
that names `-l<library>` links, e.g. the mcLog API's mcanalyzer.

    mxmaca_backend_library(name = "mcanalyzer", library = "mcanalyzer")
""",
    attrs = {
        "library": attr.string(
            doc = "The library's name, as -l names it.",
            mandatory = True,
        ),
        "backend": attr.label(
            doc = "The backend (default: the one --//conformance:backend picks).",
            default = "//conformance:backend",
            providers = [MxmacaBackendInfo],
        ),
    },
)
