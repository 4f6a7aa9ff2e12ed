#!/bin/bash
# Copyright mxcts authors.
#
# Checks that libmcruntime.so exports (as defined dynamic symbols) every
# function mc_runtime_api.h declares (through its per-family headers), the
# launch ABI entry points and the built-ins, so that a program links with
# -lmcruntime alone.
#
# Usage: shared_library_exports_test.sh LIBRARY HEADER...

set -euo pipefail
library="$1"
shift
headers=("$@")

exported="$(nm -D --defined-only "$library" | awk '{print $NF}')"
declared="$(cat "${headers[@]}" |
  grep -oE '^(mcError_t|const char\*) (mc[A-Za-z0-9_]+)\(' |
  sed -E 's/^(mcError_t|const char\*) (mc[A-Za-z0-9_]+)\($/\2/')"

count="$(echo "$declared" | grep -c .)"
if [[ "$count" -lt 30 ]]; then
  echo "FAIL: found only $count declarations in ${headers[*]}" >&2
  exit 1
fi

missing=0
for name in $declared; do
  if ! grep -qx "$name" <<<"$exported"; then
    echo "FAIL: $name is declared but not exported" >&2
    missing=1
  fi
done
# The launch ABI (mcr/detail/launch_abi.h) and the built-ins host code may
# name (mcr/detail/device_abi.h).
for name in _ZN13__mc_internal23PushLaunchConfigurationE4dim3S0_mP11MCstream_stb \
            _ZN13__mc_internal18LaunchFromStubArgsEPKvPPv \
            _ZN13__mc_internal14RegisterKernelEPKNS_9ImageBlobEPKvPKc \
            _ZN13__mc_internal22RegisterDeviceVariableEPKNS_9ImageBlobEPKvPKcmj \
            _ZN13__mc_internal23RegisterManagedVariableEPKNS_9ImageBlobEPKcm \
            __mc_dev_syncthreads __mc_dev_clock64 __mc_dev_nanosleep \
            threadIdx blockIdx blockDim gridDim \
            __mc_dev_shared_variable __mc_dev_dynamic_shared; do
  if ! grep -qx "$name" <<<"$exported"; then
    echo "FAIL: ABI entry $name is not exported" >&2
    missing=1
  fi
done
# Control: a name that is not part of the API is not found.
if grep -qx "mcNoSuchFunction" <<<"$exported"; then
  echo "FAIL: the export check matches anything" >&2
  exit 1
fi
if [[ "$missing" -ne 0 ]]; then exit 1; fi
echo "PASS: $count functions exported"
