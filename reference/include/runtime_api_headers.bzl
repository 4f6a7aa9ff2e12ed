"""The per-family headers that mc_runtime_api.h includes, as labels.

One list for every target that reads the runtime API's declarations (the
export and per-thread checks of reference/runtime, the API fuzzer's table of
documented errors), so that a new family reaches all of them.
"""

RUNTIME_API_HEADERS = [
    "//reference/include:mcr/detail/runtime_api_%s.h" % family
    for family in [
        "device",
        "errors",
        "event",
        "graph",
        "ipc",
        "launch",
        "memory",
        "module",
        "peer",
        "per_thread",
        "pool",
        "stream",
    ]
]
