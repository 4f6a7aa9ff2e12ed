// A function for remote_cache_test.sh's workspace to compile and test.
#ifndef MXCTS_TOOLS_REMOTE_CACHE_TESTDATA_WORKSPACE_ADDER_H_
#define MXCTS_TOOLS_REMOTE_CACHE_TESTDATA_WORKSPACE_ADDER_H_

// Returns a + b.
int Add(int a, int b);

#endif  // MXCTS_TOOLS_REMOTE_CACHE_TESTDATA_WORKSPACE_ADDER_H_
