#include <gtest/gtest.h>

#include "kopt/candidate_status.hpp"
#include "kopt/dtype.hpp"
#include "kopt/result.hpp"

namespace kopt {
namespace status_test {

TEST(CandidateStatus, RoundTripsEveryName) {
  for (auto status : {CandidateStatus::ok, CandidateStatus::compile_error, CandidateStatus::load_error,
                      CandidateStatus::launch_error, CandidateStatus::runtime_error, CandidateStatus::timeout,
                      CandidateStatus::wrong_output, CandidateStatus::nondeterministic,
                      CandidateStatus::input_mutated, CandidateStatus::out_of_bounds_write,
                      CandidateStatus::implausibly_fast, CandidateStatus::sandbox_violation}) {
    auto parsed = candidate_status_from_string(to_string(status));
    ASSERT_TRUE(parsed.has_value()) << to_string(status);
    EXPECT_EQ(*parsed, status);
  }
  EXPECT_FALSE(candidate_status_from_string("fast").has_value());
}

TEST(CandidateStatus, EarlierPipelineStageWins) {
  EXPECT_LT(pipeline_rank(CandidateStatus::compile_error), pipeline_rank(CandidateStatus::wrong_output));
  EXPECT_LT(pipeline_rank(CandidateStatus::out_of_bounds_write),
            pipeline_rank(CandidateStatus::wrong_output));
  EXPECT_LT(pipeline_rank(CandidateStatus::wrong_output), pipeline_rank(CandidateStatus::ok));
}

TEST(DType, MapsCTypesAndSizes) {
  EXPECT_EQ(dtype_from_c_type("float"), DType::f32);
  EXPECT_EQ(dtype_from_c_type("__nv_bfloat16"), DType::bf16);
  EXPECT_EQ(dtype_from_c_type("int64_t"), DType::i64);
  EXPECT_FALSE(dtype_from_c_type("struct foo").has_value());
  EXPECT_EQ(size_of(DType::bf16), 2u);
  EXPECT_EQ(size_of(DType::f64), 8u);
  EXPECT_TRUE(is_floating(DType::f16));
  EXPECT_FALSE(is_floating(DType::i32));
  EXPECT_EQ(dtype_from_string("bf16"), DType::bf16);
  EXPECT_FALSE(dtype_from_string("float").has_value());
}

TEST(Result, HoldsValueOrError) {
  Result<int> good = 3;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 3);
  Result<int> bad = make_error(ErrorCode::invalid_spec, "task.toml: field 'sizes': expected an array");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::invalid_spec);
  EXPECT_STREQ(to_string(bad.error().code), "invalid_spec");
}

}  // namespace status_test
}  // namespace kopt
