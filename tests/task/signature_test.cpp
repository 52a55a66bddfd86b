#include <gtest/gtest.h>

#include <string>

#include "kopt/task.hpp"

namespace kopt {
namespace signature_test {

Signature parse_ok(std::string const& text) {
  auto sig = parse_signature(text);
  EXPECT_TRUE(sig.ok()) << text << ": " << (sig.ok() ? "" : sig.error().message);
  return sig.ok() ? *sig : Signature{};
}

std::string parse_fail(std::string const& text) {
  auto sig = parse_signature(text);
  EXPECT_FALSE(sig.ok()) << "parsed unexpectedly: " << text;
  return sig.ok() ? std::string() : sig.error().message;
}

TEST(Signature, SoftmaxLauncher) {
  auto sig = parse_ok(R"(extern "C" void softmax(float* out, const float* __restrict__ in, int N, int C))");
  EXPECT_EQ(sig.function, "softmax");
  ASSERT_EQ(sig.params.size(), 4u);
  EXPECT_EQ(sig.params[0].name, "out");
  EXPECT_TRUE(sig.params[0].is_pointer);
  EXPECT_FALSE(sig.params[0].is_const);
  EXPECT_EQ(sig.params[0].dtype, DType::f32);
  EXPECT_EQ(sig.params[0].c_type, "float*");
  EXPECT_EQ(sig.params[1].name, "in");
  EXPECT_TRUE(sig.params[1].is_const);
  EXPECT_EQ(sig.params[1].c_type, "const float*");
  EXPECT_EQ(sig.params[2].name, "N");
  EXPECT_FALSE(sig.params[2].is_pointer);
  EXPECT_EQ(sig.params[2].dtype, DType::i32);
  EXPECT_EQ(sig.params[2].c_type, "int");
}

TEST(Signature, QualifiersAndTypeSpellings) {
  auto sig = parse_ok(
      "extern \"C\" __host__ void k(float const* a, __nv_bfloat16* b, int64_t n, const int m,\n"
      "    unsigned int u, double* __restrict out, const __half* __restrict__ h, std::int64_t s, float "
      "alpha,\n"
      "    float* const fixed, size_t bytes);");
  EXPECT_EQ(sig.function, "k");
  ASSERT_EQ(sig.params.size(), 11u);
  EXPECT_TRUE(sig.params[0].is_const);
  EXPECT_EQ(sig.params[0].dtype, DType::f32);
  EXPECT_EQ(sig.params[0].c_type, "float const*");
  EXPECT_EQ(sig.params[1].dtype, DType::bf16);
  EXPECT_FALSE(sig.params[1].is_const);
  EXPECT_EQ(sig.params[2].dtype, DType::i64);
  EXPECT_EQ(sig.params[3].name, "m");
  EXPECT_EQ(sig.params[3].dtype, DType::i32);
  EXPECT_FALSE(sig.params[3].is_const);  // only pointee constness is recorded
  EXPECT_EQ(sig.params[3].c_type, "const int");
  EXPECT_EQ(sig.params[4].name, "u");
  EXPECT_EQ(sig.params[4].dtype, DType::u32);
  EXPECT_EQ(sig.params[5].dtype, DType::f64);
  EXPECT_EQ(sig.params[5].name, "out");
  EXPECT_EQ(sig.params[6].dtype, DType::f16);
  EXPECT_TRUE(sig.params[6].is_const);
  EXPECT_EQ(sig.params[7].dtype, DType::i64);
  EXPECT_EQ(sig.params[8].dtype, DType::f32);
  EXPECT_FALSE(sig.params[8].is_pointer);
  EXPECT_FALSE(sig.params[9].is_const);  // a const pointer to mutable data is writable
  EXPECT_EQ(sig.params[9].c_type, "float*");
  EXPECT_EQ(sig.params[10].dtype, DType::u64);
}

TEST(Signature, BoolBuffersAreBytesOfZeroAndOne) {
  // A PyTorch extension's `mask.data_ptr<bool>()`: its own dtype, one byte wide, not an integer of 0..255.
  // A bool scalar (attention's `causal`) is a size-case value of 0 or 1.
  auto sig = parse_ok("void masked(const float* x, const bool* mask, float* out, int64_t n, bool causal)");
  ASSERT_EQ(sig.params.size(), 5u);
  EXPECT_EQ(sig.params[1].dtype, DType::boolean);
  EXPECT_TRUE(sig.params[1].is_const);
  EXPECT_EQ(sig.params[4].dtype, DType::boolean);
  EXPECT_FALSE(sig.params[4].is_pointer);
  EXPECT_EQ(size_of(DType::boolean), 1u);
  EXPECT_EQ(to_string(DType::boolean), "bool");
  EXPECT_EQ(dtype_from_string("bool"), DType::boolean);
}

TEST(Signature, OptionalExternAndDefinitionBody) {
  auto sig = parse_ok("void f(int* x, int n) { launch<<<1, 1>>>(x, n); }");
  EXPECT_EQ(sig.function, "f");
  EXPECT_EQ(sig.params.size(), 2u);
  EXPECT_TRUE(parse_ok("extern \"C\" void g(void)").params.empty());
  EXPECT_TRUE(parse_ok("extern \"C\" void g()").params.empty());
  EXPECT_EQ(parse_ok("extern \"C\" void g(float *out)").params[0].name, "out");
  EXPECT_EQ(parse_ok("extern \"C\" void g(float*out,int n)").params[1].name, "n");
}

TEST(Signature, DefaultArgumentsAndAttributesAsPeopleWriteThem) {
  auto sig = parse_ok(
      R"(extern "C" __attribute__((visibility("default"))) void elu(float* __restrict__ out, )"
      R"(const float* __restrict__ in, const int n, float alpha = 1.0f, int mode = (2 * 3), float eps = -1e-5f))");
  EXPECT_EQ(sig.function, "elu");
  ASSERT_EQ(sig.params.size(), 6u);
  EXPECT_EQ(sig.params[2].name, "n");
  EXPECT_EQ(sig.params[2].c_type, "const int");
  EXPECT_EQ(sig.params[3].name, "alpha");
  EXPECT_EQ(sig.params[3].dtype, DType::f32);
  EXPECT_EQ(sig.params[4].name, "mode");
  EXPECT_EQ(sig.params[5].name, "eps");
  EXPECT_EQ(sig.params[5].c_type, "float");
}

// The caller's stream, as PyTorch extensions and library C APIs pass it: neither a buffer nor a size.
TEST(Signature, AStreamParameterIsTheCallersStream) {
  auto sig = parse_ok(
      "extern \"C\" void relu(const float* x, float* y, int64_t n, cudaStream_t stream = 0, const CUstream "
      "s2)");
  ASSERT_EQ(sig.params.size(), 5u);
  EXPECT_TRUE(sig.params[3].is_stream);
  EXPECT_FALSE(sig.params[3].is_pointer);
  EXPECT_FALSE(sig.params[3].is_scalar());
  EXPECT_EQ(sig.params[3].c_type, "cudaStream_t");
  EXPECT_EQ(sig.params[3].default_argument, "0");
  EXPECT_TRUE(sig.params[4].is_stream);
  EXPECT_EQ(sig.params[4].c_type, "const CUstream");
  EXPECT_TRUE(sig.params[2].is_scalar());
  EXPECT_FALSE(sig.params[2].is_stream);
  // A pointer to a stream is not a stream.
  EXPECT_NE(parse_fail("extern \"C\" void f(float* y, cudaStream_t* s)").find("unknown type"),
            std::string::npos);
}

// A launcher that returns its launches' status, as C APIs do.
TEST(Signature, ALauncherMayReturnCudaError) {
  auto sig = parse_ok("extern \"C\" cudaError_t scale(const float* x, float* y, int n)");
  EXPECT_TRUE(sig.returns_error);
  EXPECT_EQ(sig.return_type(), "cudaError_t");
  EXPECT_FALSE(parse_ok("void scale(const float* x, float* y, int n)").returns_error);
  EXPECT_NE(parse_fail("extern \"C\" int scale(float* y, int n)").find("expected void or cudaError_t"),
            std::string::npos);
}

// Complex and vector elements as CUDA code writes them: lanes scalars of one type per element, the
// spelling kept for the generated code, and the header that declares the type where one is needed.
TEST(Signature, VectorAndComplexElements) {
  auto sig = parse_ok(
      "extern \"C\" void f(cufftComplex* data, const float2* __restrict__ x, float4* y, const "
      "__nv_bfloat162* "
      "h, cuDoubleComplex* z, int n)");
  ASSERT_EQ(sig.params.size(), 6u);
  EXPECT_EQ(sig.params[0].dtype, DType::f32);
  EXPECT_EQ(sig.params[0].lanes, 2);
  EXPECT_EQ(sig.params[0].c_type, "cufftComplex*");
  EXPECT_EQ(sig.params[0].type_header, "<cufft.h>");
  EXPECT_FALSE(sig.params[0].is_const);
  EXPECT_EQ(sig.params[1].lanes, 2);
  EXPECT_TRUE(sig.params[1].is_const);
  EXPECT_EQ(sig.params[1].c_type, "const float2*");
  EXPECT_TRUE(sig.params[1].type_header.empty());
  EXPECT_EQ(sig.params[2].lanes, 4);
  EXPECT_EQ(sig.params[3].dtype, DType::bf16);
  EXPECT_EQ(sig.params[3].lanes, 2);
  EXPECT_EQ(sig.params[3].type_header, "<cuda_bf16.h>");
  EXPECT_EQ(sig.params[4].dtype, DType::f64);
  EXPECT_EQ(sig.params[5].lanes, 1);
  // By value, a vector is not a size or a coefficient kopt can give.
  auto const message = parse_fail("extern \"C\" void f(float* y, float2 c, int n)");
  EXPECT_NE(message.find("'c' is a float2 passed by value; expected a pointer to it"), std::string::npos)
      << message;
}

TEST(Signature, RejectsUnknownTypeNamingTheParam) {
  auto message = parse_fail("extern \"C\" void f(float* out, const my_t* in, int n)");
  EXPECT_NE(message.find("parameter 2"), std::string::npos) << message;
  EXPECT_NE(message.find("'in'"), std::string::npos) << message;
  EXPECT_NE(message.find("my_t"), std::string::npos) << message;
  EXPECT_NE(message.find("expected one of float"), std::string::npos) << message;
  message = parse_fail("extern \"C\" void f(float* out, wchar_t flag)");
  EXPECT_NE(message.find("'flag'"), std::string::npos) << message;
}

TEST(Signature, RejectsReferencesAndDoublePointers) {
  EXPECT_NE(parse_fail("extern \"C\" void f(float& out)").find("reference"), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float** out)").find("pointer to a pointer"), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float* * out)").find("pointer to a pointer"), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float out[])").find("array"), std::string::npos);
}

TEST(Signature, RejectsUnnamedParams) {
  EXPECT_NE(parse_fail("extern \"C\" void f(float*, int n)").find("parameter 1 has no name"),
            std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float* out, int)").find("parameter 2 has no name"),
            std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float* out, unsigned int)").find("has no name"),
            std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float* out, int64_t)").find("has no name"), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float* out, , int n)").find("parameter 2 is empty"),
            std::string::npos);
}

TEST(Signature, RejectsNonVoidReturnAndMissingName) {
  auto message = parse_fail("extern \"C\" int f(float* out)");
  EXPECT_NE(message.find("return type is 'int'; expected void"), std::string::npos) << message;
  EXPECT_NE(parse_fail("extern \"C\" float* f(float* out)").find("expected void"), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void (float* out)").find("missing function name"), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" f(float* out)").find("missing return type"), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f").find("no parameter list"), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float* out").find("unclosed"), std::string::npos);
  EXPECT_NE(parse_fail("extern void f(float* out)").find("\"C\""), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" __global__ void f(float* out)").find("host launcher"),
            std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float* out) const").find("after the parameter list"),
            std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float* a, int a)").find("used twice"), std::string::npos);
  EXPECT_NE(parse_fail("extern \"C\" void f(float* a, int @)").find("unexpected character '@'"),
            std::string::npos);
  EXPECT_FALSE(parse_signature("").ok());
}

}  // namespace signature_test
}  // namespace kopt
