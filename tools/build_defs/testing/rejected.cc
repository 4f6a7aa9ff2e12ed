// Copyright mxcts authors.
//
// Must not compile: an int initialized from a string literal. The fake
// backend's driver (g++) rejects it with "invalid conversion"; accepted.cc
// is the same file without the mistake.
int value = "not a number";
