// Copyright mxcts authors.
//
// Runtime compilation through the binary cache, with a counting stand-in
// for the compile step: hits skip it and return what it returned, failures
// are never stored, and every input is part of the key.

#include "reference/rtc/cached_compile.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mxcts::rtc {
namespace {

class CachedCompileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* base = getenv("TEST_TMPDIR");
    std::string pattern =
        absl::StrCat(base != nullptr ? base : "/tmp", "/rtccacheXXXXXX");
    ASSERT_NE(mkdtemp(&pattern[0]), nullptr);
    root_ = pattern;
    runtime::BinaryCacheSettings settings;
    settings.directory = root_ + "/cache";
    cache_ = std::make_unique<runtime::BinaryCache>(
        settings, [](const std::string& warning) {
          ADD_FAILURE() << "unexpected warning: " << warning;
        });
    inputs_.source = "extern \"C\" __global__ void k() {}";
    inputs_.name = "k.cu";
    inputs_.headers = {{"h.h", "#define X 1"}};
    inputs_.compiler_arguments = {"-O2"};
    inputs_.name_expressions = {"k"};
  }

  void TearDown() override {
    ASSERT_EQ(std::system(("rm -rf '" + root_ + "'").c_str()), 0);
  }

  absl::StatusOr<CompileOutputs> Run(const CompileInputs& inputs,
                                     runtime::CacheOutcome* outcome) {
    return CachedCompile(inputs, *cache_, "compiler 1", compile_, outcome);
  }

  std::string root_;
  std::unique_ptr<runtime::BinaryCache> cache_;
  CompileInputs inputs_;
  int compiles_ = 0;
  std::function<absl::StatusOr<CompileOutputs>(const CompileInputs&)> compile_ =
      [this](const CompileInputs& in) {
        ++compiles_;
        CompileOutputs out;
        out.compiled = true;
        out.log = "warning: something\n";
        out.image = std::string("MCMODULE\0", 9) + in.source;
        out.lowered_names = {"k"};
        return absl::StatusOr<CompileOutputs>(out);
      };
};

TEST_F(CachedCompileTest, SecondCompileHitsWithTheSameOutputs) {
  runtime::CacheOutcome outcome;
  absl::StatusOr<CompileOutputs> first = Run(inputs_, &outcome);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(outcome, runtime::CacheOutcome::kMissStored);
  absl::StatusOr<CompileOutputs> second = Run(inputs_, &outcome);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(outcome, runtime::CacheOutcome::kHit);
  EXPECT_EQ(compiles_, 1);
  EXPECT_TRUE(second->compiled);
  EXPECT_EQ(second->image, first->image);
  EXPECT_EQ(second->log, first->log);
  EXPECT_EQ(second->lowered_names, first->lowered_names);
}

TEST_F(CachedCompileTest, SourceErrorsAreNotStored) {
  compile_ = [this](const CompileInputs&) {
    ++compiles_;
    CompileOutputs out;
    out.log = "k.cu:1:1: error: nope\n";
    return absl::StatusOr<CompileOutputs>(out);
  };
  runtime::CacheOutcome outcome;
  EXPECT_FALSE(Run(inputs_, &outcome)->compiled);
  EXPECT_EQ(outcome, runtime::CacheOutcome::kCompileFailed);
  EXPECT_FALSE(Run(inputs_, &outcome)->compiled);
  EXPECT_EQ(compiles_, 2);
  EXPECT_EQ(cache_->counters().stores, 0u);
}

TEST_F(CachedCompileTest, CompileStepErrorsAreNotStored) {
  compile_ = [this](const CompileInputs&) {
    ++compiles_;
    return absl::StatusOr<CompileOutputs>(absl::NotFoundError("no compiler"));
  };
  runtime::CacheOutcome outcome;
  EXPECT_EQ(Run(inputs_, &outcome).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(outcome, runtime::CacheOutcome::kCompileFailed);
  EXPECT_EQ(cache_->counters().stores, 0u);
}

TEST_F(CachedCompileTest, DisabledCacheAlwaysCompiles) {
  runtime::BinaryCacheSettings settings;
  settings.enabled = false;
  cache_ = std::make_unique<runtime::BinaryCache>(settings);
  runtime::CacheOutcome outcome;
  ASSERT_TRUE(Run(inputs_, &outcome).ok());
  ASSERT_TRUE(Run(inputs_, &outcome).ok());
  EXPECT_EQ(outcome, runtime::CacheOutcome::kDisabled);
  EXPECT_EQ(compiles_, 2);
}

// [api.cache.contents.keyed-by-input]: each input, changed alone, misses.
TEST_F(CachedCompileTest, EveryInputIsPartOfTheKey) {
  const runtime::CacheKey base = CompileCacheKey(inputs_, "compiler 1");
  EXPECT_EQ(CompileCacheKey(inputs_, "compiler 1"), base);  // the control
  EXPECT_NE(CompileCacheKey(inputs_, "compiler 2"), base);
  CompileInputs changed = inputs_;
  changed.source += " ";
  EXPECT_NE(CompileCacheKey(changed, "compiler 1"), base);
  changed = inputs_;
  changed.name = "other.cu";
  EXPECT_NE(CompileCacheKey(changed, "compiler 1"), base);
  changed = inputs_;
  changed.headers[0].first = "g.h";
  EXPECT_NE(CompileCacheKey(changed, "compiler 1"), base);
  changed = inputs_;
  changed.headers[0].second = "#define X 2";
  EXPECT_NE(CompileCacheKey(changed, "compiler 1"), base);
  changed = inputs_;
  changed.headers.clear();
  EXPECT_NE(CompileCacheKey(changed, "compiler 1"), base);
  changed = inputs_;
  changed.compiler_arguments = {"-O3"};
  EXPECT_NE(CompileCacheKey(changed, "compiler 1"), base);
  changed = inputs_;
  changed.name_expressions.push_back("k2");
  EXPECT_NE(CompileCacheKey(changed, "compiler 1"), base);
  // The time bound does not change the result, so not the key either.
  changed = inputs_;
  changed.timeout = absl::Seconds(1);
  EXPECT_EQ(CompileCacheKey(changed, "compiler 1"), base);
}

TEST_F(CachedCompileTest, OutputsRoundTrip) {
  CompileOutputs outputs;
  outputs.compiled = true;
  outputs.log = "log";
  outputs.image = std::string("\0\1\2", 3);
  outputs.lowered_names = {"_Z1kv", "", "x"};
  std::optional<CompileOutputs> back =
      DecodeCompileOutputs(EncodeCompileOutputs(outputs));
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(back->compiled);
  EXPECT_EQ(back->log, outputs.log);
  EXPECT_EQ(back->image, outputs.image);
  EXPECT_EQ(back->lowered_names, outputs.lowered_names);
}

TEST_F(CachedCompileTest, DecodeRejectsOtherBytes) {
  CompileOutputs outputs;
  outputs.image = "image";
  const std::string bytes = EncodeCompileOutputs(outputs);
  EXPECT_TRUE(DecodeCompileOutputs(bytes).has_value());  // the control
  EXPECT_FALSE(DecodeCompileOutputs("").has_value());
  EXPECT_FALSE(DecodeCompileOutputs(bytes + "x").has_value());
  for (size_t size = 0; size < bytes.size(); ++size) {
    EXPECT_FALSE(DecodeCompileOutputs(bytes.substr(0, size)).has_value())
        << size;
  }
}

// An entry of another encoding under the right key is a miss, and the
// compilation replaces it.
TEST_F(CachedCompileTest, UndecodableEntryIsRebuilt) {
  cache_->Store(inputs_.name, CompileCacheKey(inputs_, "compiler 1"),
                "not outputs");
  runtime::CacheOutcome outcome;
  ASSERT_TRUE(Run(inputs_, &outcome).ok());
  EXPECT_EQ(outcome, runtime::CacheOutcome::kMissStored);
  ASSERT_TRUE(Run(inputs_, &outcome).ok());
  EXPECT_EQ(outcome, runtime::CacheOutcome::kHit);
  EXPECT_EQ(compiles_, 1);
}

// The identity lists the installation's files: two installations that
// differ in one file's size have different identities.
TEST_F(CachedCompileTest, CompilerIdentityFollowsTheInstallation) {
  for (const char* sdk : {"/sdk1", "/sdk2"}) {
    const std::string root = root_ + sdk;
    ASSERT_EQ(std::system(("mkdir -p '" + root + "/mxgpu_llvm/bin' '" + root +
                           "/include' '" + root + "/lib'")
                              .c_str()),
              0);
    std::ofstream(root + "/mxgpu_llvm/bin/mxcc") << "compiler";
    std::ofstream(root + "/include/mc_runtime.h") << "header";
    const struct timespec times[2] = {{1000, 0}, {1000, 0}};
    for (const char* file : {"/mxgpu_llvm/bin/mxcc", "/include/mc_runtime.h"}) {
      ASSERT_EQ(utimensat(AT_FDCWD, (root + file).c_str(), times, 0), 0);
    }
  }
  std::ofstream(root_ + "/sdk2/lib/libmcdevice.a") << "library";
  const std::string one = CompilerIdentity(root_ + "/sdk1/mxgpu_llvm/bin/mxcc");
  const std::string two = CompilerIdentity(root_ + "/sdk2/mxgpu_llvm/bin/mxcc");
  EXPECT_NE(one, two);
  EXPECT_NE(one.find("include/mc_runtime.h=6:1000.0"), std::string::npos)
      << one;
  EXPECT_NE(two.find("lib/libmcdevice.a="), std::string::npos) << two;
  EXPECT_EQ(CompilerIdentity(root_ + "/sdk1/mxgpu_llvm/bin/mxcc"), one);
}

}  // namespace
}  // namespace mxcts::rtc
