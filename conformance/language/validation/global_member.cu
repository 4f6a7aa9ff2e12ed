// Must not compile: a kernel cannot be a class member.
// [lang.function.global.not-class-member]
struct Holder {
  __global__ void Member(int* out) { *out = 1; }
};
