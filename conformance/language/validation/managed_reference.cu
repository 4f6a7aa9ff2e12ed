// Must not compile: a __managed__ variable of reference type.
// [lang.variable.managed.not-const-or-reference]
int target;
__managed__ int& value = target;
