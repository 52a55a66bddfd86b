#include "kopt/dtype.hpp"

#include <array>
#include <string>

namespace kopt {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::string_view c_name;
  std::size_t size;
  bool floating;
};

constexpr std::array<DTypeInfo, 12> kTypes{{
    {DType::f32, "f32", "float", 4, true},
    {DType::f64, "f64", "double", 8, true},
    {DType::f16, "f16", "__half", 2, true},
    {DType::bf16, "bf16", "__nv_bfloat16", 2, true},
    {DType::i8, "i8", "int8_t", 1, false},
    {DType::u8, "u8", "uint8_t", 1, false},
    {DType::i16, "i16", "int16_t", 2, false},
    {DType::i32, "i32", "int", 4, false},
    {DType::u32, "u32", "unsigned int", 4, false},
    {DType::i64, "i64", "int64_t", 8, false},
    {DType::u64, "u64", "uint64_t", 8, false},
    {DType::boolean, "bool", "bool", 1, false},
}};

DTypeInfo const* find(DType dtype) noexcept {
  for (auto const& info : kTypes) {
    if (info.dtype == dtype) return &info;
  }
  return nullptr;
}

}  // namespace

std::string_view to_string(DType dtype) noexcept {
  auto const* info = find(dtype);
  return info ? info->name : "unknown";
}

std::optional<DType> dtype_from_string(std::string_view text) noexcept {
  for (auto const& info : kTypes) {
    if (info.name == text) return info.dtype;
  }
  return std::nullopt;
}

std::optional<DType> dtype_from_c_type(std::string_view c_type) noexcept {
  struct Alias {
    std::string_view spelling;
    DType dtype;
  };
  static constexpr std::array<Alias, 28> kAliases{{
      {"float", DType::f32},
      {"double", DType::f64},
      {"__half", DType::f16},
      {"half", DType::f16},
      {"__nv_bfloat16", DType::bf16},
      {"nv_bfloat16", DType::bf16},
      {"__bfloat16", DType::bf16},
      {"bf16", DType::bf16},
      {"int8_t", DType::i8},
      {"signed char", DType::i8},
      {"char", DType::i8},
      {"uint8_t", DType::u8},
      {"unsigned char", DType::u8},
      {"int16_t", DType::i16},
      {"short", DType::i16},
      {"int", DType::i32},
      {"int32_t", DType::i32},
      {"unsigned", DType::u32},
      {"unsigned int", DType::u32},
      {"uint32_t", DType::u32},
      {"int64_t", DType::i64},
      {"long", DType::i64},
      {"long long", DType::i64},
      {"uint64_t", DType::u64},
      {"size_t", DType::u64},
      {"unsigned long", DType::u64},
      {"unsigned long long", DType::u64},
      {"bool", DType::boolean},
  }};
  for (auto const& alias : kAliases) {
    if (alias.spelling == c_type) return alias.dtype;
  }
  return std::nullopt;
}

std::optional<VectorElement> vector_element_from_c_type(std::string_view c_type) noexcept {
  struct Alias {
    std::string_view spelling;
    VectorElement element;
  };
  // cuComplex.h and cufft.h name complex numbers as float2 / double2 (re, im).
  static constexpr std::array<Alias, 21> kAliases{{
      {"float2", {DType::f32, 2, {}}},
      {"float3", {DType::f32, 3, {}}},
      {"float4", {DType::f32, 4, {}}},
      {"double2", {DType::f64, 2, {}}},
      {"double3", {DType::f64, 3, {}}},
      {"double4", {DType::f64, 4, {}}},
      {"int2", {DType::i32, 2, {}}},
      {"int3", {DType::i32, 3, {}}},
      {"int4", {DType::i32, 4, {}}},
      {"uint2", {DType::u32, 2, {}}},
      {"uint4", {DType::u32, 4, {}}},
      {"__half2", {DType::f16, 2, "<cuda_fp16.h>"}},
      {"half2", {DType::f16, 2, "<cuda_fp16.h>"}},
      {"__nv_bfloat162", {DType::bf16, 2, "<cuda_bf16.h>"}},
      {"nv_bfloat162", {DType::bf16, 2, "<cuda_bf16.h>"}},
      {"cuComplex", {DType::f32, 2, "<cuComplex.h>"}},
      {"cuFloatComplex", {DType::f32, 2, "<cuComplex.h>"}},
      {"cuDoubleComplex", {DType::f64, 2, "<cuComplex.h>"}},
      {"cufftComplex", {DType::f32, 2, "<cufft.h>"}},
      {"cufftDoubleComplex", {DType::f64, 2, "<cufft.h>"}},
      {"cufftReal", {DType::f32, 1, "<cufft.h>"}},
  }};
  for (auto const& alias : kAliases) {
    if (alias.spelling == c_type) return alias.element;
  }
  return std::nullopt;
}

std::string_view c_type_name(DType dtype) noexcept {
  auto const* info = find(dtype);
  return info ? info->c_name : "void";
}

std::size_t size_of(DType dtype) noexcept {
  auto const* info = find(dtype);
  return info ? info->size : 0;
}

bool is_floating(DType dtype) noexcept {
  auto const* info = find(dtype);
  return info != nullptr && info->floating;
}

}  // namespace kopt
