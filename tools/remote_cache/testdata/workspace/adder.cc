#include "adder.h"

int Add(int a, int b) { return a + b; }
