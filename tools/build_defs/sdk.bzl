"""mxmaca_sdk: an installed MXMACA SDK tree, assembled from build outputs;
mxmaca_sdk_installer: installs one into a prefix.

    load("//tools/build_defs:sdk.bzl", "mxmaca_sdk")

    mxmaca_sdk(
        name = "sdk",
        driver = "//reference/compiler/driver:mxcc",
        headers = ["//reference/include:files"],
        libs = ["//reference/runtime:libmcruntime.so"],
    )

lays out, under bazel-bin/<package>/<name>/, the tree a real installation
has ([api.compile.mxcc.install-layout]):

    mxgpu_llvm/bin/mxcc   a copy of `driver` (a file, not a link, so the
                          driver finds the tree from /proc/self/exe)
    include/...           each header at its path below its own package
    lib/...               each of `libs` under its base name

Every file is a real copy, so the tree can be copied elsewhere and still
work. The rule returns the files as DefaultInfo (and runfiles) and the root
in MxmacaSdkInfo.

mxmaca_sdk_installer (below) copies such a tree into a prefix of the user's
choice (`bazel run //:install -- --prefix=DIR`).

The driver and the libraries are always built optimized (-c opt), whatever
the build's own compilation mode: the tree is what users compile and link
their programs with, and an unoptimized engine makes every kernel several
times slower. The project's default mode is opt too (.bazelrc), so there
the transition changes nothing and nothing is built twice.
"""

def _optimized_impl(settings, attr):
    return {"//command_line_option:compilation_mode": "opt"}

# Builds the SDK's contents in the optimized configuration.
_optimized = transition(
    implementation = _optimized_impl,
    inputs = [],
    outputs = ["//command_line_option:compilation_mode"],
)

MxmacaSdkInfo = provider(
    doc = "An assembled MXMACA SDK tree.",
    fields = {
        "root": "string: the tree's root, relative to the execution root.",
        "driver": "File: the tree's mxgpu_llvm/bin/mxcc.",
    },
)

def _relative_to_package(f):
    """The path of `f` below the package that owns it."""
    package = f.owner.package
    path = f.short_path
    if package and path.startswith(package + "/"):
        return path[len(package) + 1:]
    return f.basename

def _mxmaca_sdk_impl(ctx):
    placements = []  # (source File, path in the tree)
    # An attribute with a transition is a list of its (one) target.
    driver = ctx.attr.driver[0] if type(ctx.attr.driver) == "list" else ctx.attr.driver
    placements.append((driver[DefaultInfo].files_to_run.executable, "mxgpu_llvm/bin/mxcc"))
    for target in ctx.attr.headers:
        for f in target[DefaultInfo].files.to_list():
            placements.append((f, "include/" + _relative_to_package(f)))
    for target in ctx.attr.libs:
        for f in target[DefaultInfo].files.to_list():
            placements.append((f, "lib/" + f.basename))

    seen = {}
    outputs = []
    arguments = ctx.actions.args()
    for source, path in placements:
        if path in seen:
            fail("two files for %s/%s: %s and %s" %
                 (ctx.label.name, path, seen[path], source.path))
        seen[path] = source.path
        output = ctx.actions.declare_file(ctx.label.name + "/" + path)
        outputs.append(output)
        arguments.add(source)
        arguments.add(output)

    # One action copies everything: the tree is small and always changes
    # as a whole when the driver does.
    ctx.actions.run_shell(
        inputs = [source for source, _ in placements],
        outputs = outputs,
        arguments = [arguments],
        command = 'while [ "$#" -gt 0 ]; do cp -f "$1" "$2" || exit 1; shift 2; done',
        mnemonic = "MxmacaSdk",
        progress_message = "Assembling the MXMACA SDK %s" % ctx.label,
    )
    driver = outputs[0]
    root = driver.dirname[:-len("/mxgpu_llvm/bin")]
    return [
        DefaultInfo(
            files = depset(outputs),
            runfiles = ctx.runfiles(files = outputs),
        ),
        MxmacaSdkInfo(root = root, driver = driver),
    ]

mxmaca_sdk = rule(
    implementation = _mxmaca_sdk_impl,
    doc = "Assembles an installed MXMACA SDK tree from build outputs.",
    attrs = {
        "driver": attr.label(
            doc = "The compiler driver; becomes mxgpu_llvm/bin/mxcc.",
            mandatory = True,
            executable = True,
            cfg = _optimized,
        ),
        "headers": attr.label_list(
            doc = "Headers; each goes to include/ at its path below its package.",
            allow_files = True,
        ),
        "libs": attr.label_list(
            doc = "Libraries and other files of lib/, by base name.",
            allow_files = True,
            cfg = _optimized,
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)

def _mxmaca_sdk_installer_impl(ctx):
    info = ctx.attr.sdk[MxmacaSdkInfo]
    files = ctx.attr.sdk[DefaultInfo].files.to_list()

    # Each file's place in the tree is its path below the driver's root.
    tree = info.driver.short_path[:-len("mxgpu_llvm/bin/mxcc")]
    lines = []
    for f in files:
        if not f.short_path.startswith(tree):
            fail("%s is not inside the SDK tree %s" % (f.short_path, tree))
        lines.append("%s\t%s" % (f.short_path, f.short_path[len(tree):]))
    manifest = ctx.actions.declare_file(ctx.label.name + ".files")
    ctx.actions.write(manifest, "\n".join(sorted(lines)) + "\n")

    installer = ctx.file._installer
    launcher = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.write(launcher, _LAUNCHER.format(
        label = str(ctx.label),
        workspace = ctx.workspace_name,
        installer = installer.short_path,
        manifest = manifest.short_path,
        default_prefix = ctx.attr.default_prefix,
    ), is_executable = True)
    runfiles = ctx.runfiles(files = files + [manifest, installer])
    return [DefaultInfo(executable = launcher, runfiles = runfiles)]

# The executable of an mxmaca_sdk_installer: finds its runfiles (its own
# .runfiles tree under `bazel run`, RUNFILES_DIR or TEST_SRCDIR when a test
# runs it) and hands the manifest to tools/install_sdk.
_LAUNCHER = """#!/bin/bash
# Installs the MXMACA SDK of {label}: run with --help for the options.
# Generated by mxmaca_sdk_installer (tools/build_defs/sdk.bzl).
set -u
self="${{BASH_SOURCE[0]}}"
if [ -d "$self.runfiles/{workspace}" ]; then
  runfiles="$self.runfiles/{workspace}"
elif [ -n "${{RUNFILES_DIR:-}}" ] && [ -d "$RUNFILES_DIR/{workspace}" ]; then
  runfiles="$RUNFILES_DIR/{workspace}"
elif [ -n "${{TEST_SRCDIR:-}}" ] && [ -d "$TEST_SRCDIR/{workspace}" ]; then
  runfiles="$TEST_SRCDIR/{workspace}"
else
  echo "install: cannot find the runfiles of $self; run it with bazel run {label}" >&2
  exit 1
fi
exec "$runfiles/{installer}" --files-from="$runfiles/{manifest}" \\
  --runfiles="$runfiles" --default-prefix="{default_prefix}" --command="bazel run {label} --" "$@"
"""

mxmaca_sdk_installer = rule(
    implementation = _mxmaca_sdk_installer_impl,
    doc = """Installs an mxmaca_sdk tree into a prefix: `bazel run LABEL -- --prefix=DIR`.

    The files are copied (never linked) to DIR at their paths in the tree,
    so DIR holds a relocatable SDK: nothing in it names the checkout or
    Bazel's output tree ([api.compile.mxcc.install-relocatable]). Without
    --prefix the SDK goes to `default_prefix`. tools/install_sdk does the
    copying; the rule gives it the list of files.
    """,
    attrs = {
        "sdk": attr.label(
            doc = "The mxmaca_sdk tree to install.",
            mandatory = True,
            providers = [MxmacaSdkInfo],
        ),
        "default_prefix": attr.string(
            doc = "Where the SDK goes when no --prefix is given.",
            default = "/opt/maca",
        ),
        "_installer": attr.label(
            default = "//tools:install_sdk",
            allow_single_file = True,
        ),
    },
    executable = True,
)
