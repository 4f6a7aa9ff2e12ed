#!/bin/sh
# The smoke fixture's "test command": builds the library and its tests with
# the host compiler and runs them. Usage: run_fixture_test.sh TEST_SOURCE...
set -e
c++ -o fixture_test lib/fixture.cc "$@"
./fixture_test
