#!/bin/bash
# Tests tools/setup against stand-ins for dpkg-query, apt-get, id and sudo on a
# PATH that holds nothing else the script could reach, so no real package is
# touched. Each case checks what setup printed, its exit status and exactly
# which apt-get commands it ran.
#
# Usage: setup_test.sh PATH_TO_SETUP
set -u
setup="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/setup_test.XXXXXX")"
source tools/testing/check.sh

all_packages() { sed -n '/^REQUIRED_PACKAGES=(/,/^)/p' "$setup" | sed '1d;$d' | tr -d ' '; }

# Builds a fresh fake system in $work/case: bin/ holds the stand-ins plus
# links to the few real tools setup uses; state/ holds the fake dpkg database.
new_system() {
  rm -rf "$work/case"
  mkdir -p "$work/case/bin" "$work/case/state"
  bin="$work/case/bin"
  state="$work/case/state"
  : >"$state/installed"
  : >"$state/apt.log"
  for tool in env mktemp rm tail cat sed tr true grep; do
    ln -s "$(type -P "$tool")" "$bin/$tool"
  done
  cat >"$bin/dpkg-query" <<STUB
#!/bin/bash
# dpkg-query -W -f=FORMAT PACKAGE
package="\${!#}"
if grep -qx "\$package" "$state/installed"; then
  printf 'install ok installed'
else
  echo "dpkg-query: no packages found matching \$package" >&2
  exit 1
fi
STUB
  cat >"$bin/apt-get" <<STUB
#!/bin/bash
echo "\$*" >>"$state/apt.log"
[ -e "$state/apt_fails" ] && { echo "E: Unable to locate package \${!#}"; exit 100; }
if [ "\$1" = install ] || [[ " \$* " == *" install "* ]]; then
  for arg in "\$@"; do
    case "\$arg" in -*|install) ;; *) echo "\$arg" >>"$state/installed" ;; esac
  done
fi
exit 0
STUB
  printf '#!/bin/bash\necho "${FAKE_UID:-0}"\n' >"$bin/id"
  chmod +x "$bin/dpkg-query" "$bin/apt-get" "$bin/id"
}

install_all_but() {
  all_packages | grep -vx -e "${1:-^$}" >"$state/installed"
}

run_setup() {
  output="$(PATH="$bin" FAKE_UID="${FAKE_UID:-0}" "$setup" 2>&1)"
  status=$?
}

# On a failed check, also show which apt-get commands the case ran.
check_context() {
  echo "  apt-get calls:"
  sed 's/^/    /' "$state/apt.log"
}

# 1. Everything installed: a no-op that runs no apt-get at all.
new_system
install_all_but
run_setup
check all-present-exits-0 '[ "$status" -eq 0 ]'
check all-present-says-so '[[ "$output" == *"required packages are installed"* ]]'
check all-present-runs-no-apt '[ ! -s "$state/apt.log" ]'

# 2. Two packages missing: one update, one install of exactly those two; a
#    second run is then a no-op (idempotence).
new_system
all_packages | grep -vx -e libre2-dev -e clang-format >"$state/installed"
run_setup
check missing-installs-exit-0 '[ "$status" -eq 0 ]'
check missing-update-runs-once '[ "$(grep -c "update" "$state/apt.log")" -eq 1 ]'
check missing-installs-only-missing \
  '[ "$(grep " install " "$state/apt.log" | grep -o "clang-format libre2-dev\$")" = "clang-format libre2-dev" ]'
check missing-installs-nothing-else \
  '[ "$(grep " install " "$state/apt.log" | grep -c "bazel-bootstrap")" -eq 0 ]'
: >"$state/apt.log"
run_setup
check second-run-exits-0 '[ "$status" -eq 0 ]'
check second-run-runs-no-apt '[ ! -s "$state/apt.log" ]'

# 3. Missing packages, not root, no sudo: a clear message and no apt-get.
new_system
install_all_but libgtest-dev
FAKE_UID=1000 run_setup
check not-root-fails '[ "$status" -ne 0 ]'
check not-root-message-names-root '[[ "$output" == *"needs root"* ]]'
check not-root-message-names-package '[[ "$output" == *"libgtest-dev"* ]]'
check not-root-runs-no-apt '[ ! -s "$state/apt.log" ]'

# 3b. Control for 3: not root but a password-less sudo installs through it.
new_system
install_all_but libgtest-dev
printf '#!/bin/bash\n[ "$1" = -n ] && shift\nexec "$@"\n' >"$bin/sudo"
chmod +x "$bin/sudo"
FAKE_UID=1000 run_setup
check sudo-installs '[ "$status" -eq 0 ] && grep -q "install.*libgtest-dev" "$state/apt.log"'

# 4. No apt-get on the machine: a clear message.
new_system
install_all_but libbenchmark-dev
rm "$bin/apt-get"
run_setup
check no-apt-fails '[ "$status" -ne 0 ]'
check no-apt-message '[[ "$output" == *"apt-get not found"* ]]'

# 5. apt-get fails: one message naming the step, then apt's own words.
new_system
install_all_but libabsl-dev
touch "$state/apt_fails"
run_setup
check apt-failure-fails '[ "$status" -ne 0 ]'
check apt-failure-names-step "[[ \"\$output\" == *\"'apt-get update' failed\"* ]]"
check apt-failure-shows-apt-output '[[ "$output" == *"Unable to locate package"* ]]'

# 6. Not Debian at all (no dpkg-query): a clear message.
new_system
rm "$bin/dpkg-query"
run_setup
check no-dpkg-fails '[ "$status" -ne 0 ]'
check no-dpkg-message '[[ "$output" == *"not a Debian system"* ]]'

rm -rf "$work"
finish setup_test
