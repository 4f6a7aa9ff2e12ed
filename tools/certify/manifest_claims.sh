# Copyright mxcts authors.
#
# tools/certify/manifest_claims.sh: what a backend's capability manifest
# claims (format: conformance/testing/capability_manifest.h), for the
# scripts that choose what to build with a backend: `certify build`
# (tools/certify/build.sh) and perf/native_cuda/build_pair.sh. Sourced:
#
#   source tools/certify/manifest_claims.sh
#   manifest_claims backends/cuda/capabilities.txt graphs && echo claimed
#   unclaimed_targets backends/cuda/capabilities.txt '//perf/...'

# manifest_claims MANIFEST CAPABILITY: succeeds when the manifest claims
# the capability: a flag "yes", a count above 0, or a list (matrix shapes).
# "-" stands for a chapter that needs no capability and is always claimed.
manifest_claims() {
  local manifest="$1" capability="$2" value
  [[ "$capability" == "-" ]] && return 0
  value="$(sed 's/#.*//' "$manifest" | awk -v f="$capability" '$1 == f {$1 = ""; print}' | xargs)"
  [[ -z "$value" || "$value" == no ]] && return 1
  [[ "$value" =~ ^[0-9]+$ ]] && { [[ "$value" -gt 0 ]]; return; }
  return 0
}

# unclaimed_targets MANIFEST UNIVERSE: prints "<label> <capability>" for
# each target of the Bazel query expression UNIVERSE tagged
# "mxmaca_capability=<capability>" (conformance_test's required_capability)
# whose capability the manifest does not claim: a backend without it cannot
# even compile the target. Bazel's messages go to standard error.
unclaimed_targets() {
  local manifest="$1" universe="$2" capability
  for capability in $(bazel query --output=build "attr(tags, 'mxmaca_capability=', $universe)" |
    grep -o 'mxmaca_capability=[A-Za-z0-9_]*' | sed 's/^mxmaca_capability=//' | sort -u); do
    manifest_claims "$manifest" "$capability" && continue
    bazel query "attr(tags, '\\bmxmaca_capability=$capability\\b', $universe)" |
      sed "s/\$/ $capability/"
  done
}
