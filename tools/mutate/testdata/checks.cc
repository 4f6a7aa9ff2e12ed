// Fixture for finder_test.cc: each function holds one form of check, tagged
// or not. Not compiled.

int TrailingTag(int size) {
  if (size == 0) {  // [fix.alpha.size-zero]: returns early
    return 0;
  }
  return size;
}

int TagAbove(int* ptr) {
  // Why the check exists, in prose.
  // [fix.alpha.null-pointer]
  if (ptr == nullptr) {
    return -1;
  }
  return *ptr;
}

int TagInBody(int flags) {
  if ((flags & ~3) != 0) {
    // [fix.alpha.invalid-flags] [fix.beta.flags-checked-first]
    return -2;
  }
  return flags;
}

// clang-format off
int MultiLineCondition(int a, int b) {
  if (a > b &&
      b > 0) {  // [fix.alpha.ordered]
    return 1;
  }
  return 0;
}
// clang-format on

int Untagged(int v) {
  if (v > 100) {
    return 100;
  }
  return v;
}

// [fix.alpha.documented-function]: a tag above a declaration is no check.
int DocumentedFunction(int v) {
  int w = v;

  if (w < 0) {
    return 0;
  }
  return w;
}

int ParenInString(const char* s) {
  if (s[0] == ')') {  // [fix.alpha.paren]
    return 1;
  }
  return 0;
}

int Checked(int v) {
  // [fix.beta.checked-call]
  MX_RETURN_IF_ERROR(Validate(v));
  MX_RETURN_IF_ERROR(Untracked(v));
  return v;
}

int Preprocessor(int v) {
#if (DEFINED_VALUE)  // [fix.alpha.not-a-check]
  return v;
#endif
  if constexpr (true) {  // [fix.alpha.constexpr]
    return v;
  }
  if (int w = v; w > 0) {  // [fix.alpha.init-statement]
    return w;
  }
  return 0;
}
