#!/bin/bash
# Copyright mxcts authors.
#
# run_package.sh on a fake package, without Bazel or a GPU: an
# "expectation runner" that writes a GoogleTest XML and passes, fails or
# hangs as its binary says. Checks the summary, the per-target timeout, the
# hashes of the package and of the results, and unpacking from pieces.
set -u
run="$TEST_SRCDIR/$TEST_WORKSPACE/tools/certify/run_package.sh"
tmp="$TEST_TMPDIR/run_package_test"
rm -rf "$tmp"
mkdir -p "$tmp/package/bin" "$tmp/package/lib"
fail() { echo "FAIL: $*" >&2; exit 1; }

cd "$tmp/package" || exit 1
cat > expectation_runner <<'RUNNER'
#!/bin/bash
binary="${@: -1}"
echo '<testsuites><testsuite name="S"><testcase name="A" classname="S"/></testsuite></testsuites>' > "$XML_OUTPUT_FILE"
echo "MXMACA_CAPABILITIES=$MXMACA_CAPABILITIES"
exec "$binary"
RUNNER
printf '#!/bin/bash\nexit 0\n' > bin/pkg__passes
printf '#!/bin/bash\nexit 1\n' > bin/pkg__fails
printf '#!/bin/bash\nsleep 30\n' > bin/pkg__hangs
chmod +x expectation_runner bin/*
printf 'device_count 1\n' > capabilities.txt
printf 'cuda\n' > backend_name.txt
printf '//pkg:passes pkg__passes\n//pkg:fails pkg__fails\n//pkg:hangs pkg__hangs\n' > targets.txt
mkdir judged
echo '<testsuites/>' > judged/pkg__rejects.xml
echo 'PASSED //pkg:rejects' > judged/summary.txt
find . -type f | sed 's|^\./||' | sort | xargs sha256sum > MANIFEST
cd "$tmp" || exit 1

"$run" package --out=results --jobs=2 --timeout=2 > run.log 2>&1 || fail "run exited $?: $(cat run.log)"
grep -qx 'PASSED //pkg:passes' results/summary.txt || fail "summary: $(cat results/summary.txt)"
grep -qx 'FAILED //pkg:fails' results/summary.txt || fail "summary: $(cat results/summary.txt)"
grep -qx 'TIMEOUT //pkg:hangs' results/summary.txt || fail "summary: $(cat results/summary.txt)"
grep -q "MXMACA_CAPABILITIES=$tmp/results/capabilities.txt" results/pkg__passes.log || fail "manifest not given"
grep -qx 'PASSED //pkg:rejects' results/summary.txt || fail "judged test not in the summary: $(cat results/summary.txt)"
grep -qx 'passed: 2' results/summary.txt || fail "counts: $(cat results/summary.txt)"
cmp -s package/judged/pkg__rejects.xml results/pkg__rejects.xml || fail "judged XML not copied"
cmp -s <(sort package/MANIFEST) <(sort results/package.sha256) || fail "package.sha256 differs from MANIFEST"
(cd results && sha256sum --quiet -c MANIFEST) || fail "results MANIFEST does not check"
grep -q ' summary.txt$' results/MANIFEST || fail "summary.txt not hashed"
grep -q ' MANIFEST$' results/MANIFEST && fail "MANIFEST hashes itself"

# Control: a package changed after it was built is reported.
cp package/bin/pkg__passes passes.orig
echo changed >> package/bin/pkg__passes
"$run" package --out=results2 --timeout=2 > run2.log 2>&1
grep -q 'differs from its MANIFEST' run2.log || fail "a changed package was not reported"

# From pieces: joined and unpacked first; a missing piece is refused.
mkdir -p pieces
cp passes.orig package/bin/pkg__passes
tar -C "$tmp" -cf - package | xz -1 | split -b 300 -d -a 3 - pieces/package.tar.xz.
[[ $(ls pieces | wc -l) -gt 1 ]] || fail "expected several pieces"
"$run" pieces --out=results3 --timeout=2 > run3.log 2>&1 || fail "pieces: $(cat run3.log)"
grep -qx 'PASSED //pkg:passes' results3/summary.txt || fail "pieces summary: $(cat results3/summary.txt)"
rm pieces/package.tar.xz.001
"$run" pieces --out=results4 > run4.log 2>&1 && fail "a missing piece was accepted"
grep -q 'do not unpack' run4.log || fail "missing piece message: $(cat run4.log)"
"$run" nowhere --out=results5 > run5.log 2>&1 && fail "no package accepted"
grep -q 'nowhere holds neither' run5.log || fail "no package message: $(cat run5.log)"
echo PASS
