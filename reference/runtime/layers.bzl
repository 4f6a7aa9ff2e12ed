"""The layers of the reference runtime, bottom to top.

A package may use the packages of lower layers only; packages of one layer
do not use each other. Each package's library is visible to the packages
above it (`visible_above`), so an edge that goes down the list is a build
error, not a review comment. reference/runtime/README.md draws the same
picture.
"""

RUNTIME_LAYERS = [
    ["errors"],
    ["host_thread", "environment", "binary_cache"],
    ["devices"],
    ["timeline"],
    ["memory"],
    ["images", "peer"],
    ["launch", "traps", "pools", "modules"],
    ["ipc", "graphs"],
    ["process"],
    ["api"],
]

def visible_above(package):
    """The visibility of `package`'s library: the layers above it.

    Also the runtime's root package (which assembles libmcruntime.so) and its
    test support (reference/runtime/testing).

    Args:
      package: a package name of RUNTIME_LAYERS, such as "memory".

    Returns:
      A list of visibility labels.
    """
    above = []
    found = False
    for layer in RUNTIME_LAYERS:
        if found:
            above += ["//reference/runtime/%s:__pkg__" % name for name in layer]
        if package in layer:
            found = True
    if not found:
        fail("%s is not a layer of the runtime (layers.bzl)" % package)
    return above + [
        "//reference/runtime:__pkg__",
        "//reference/runtime/testing:__pkg__",
    ]
