// Copyright mxcts authors.
//
// The control of rejected.cc: the same declaration, well-formed.
int value = 42;
