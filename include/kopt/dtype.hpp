// Element types of task buffers.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace kopt {

// `boolean` is C++'s bool: one byte holding 0 or 1 (a PyTorch bool mask's storage).
enum class DType { f32, f64, f16, bf16, i8, u8, i16, i32, u32, i64, u64, boolean };

std::string_view to_string(DType dtype) noexcept;
std::optional<DType> dtype_from_string(std::string_view text) noexcept;
// Maps a C/CUDA type spelling ("float", "__nv_bfloat16", "int64_t", ...) to a DType.
std::optional<DType> dtype_from_c_type(std::string_view c_type) noexcept;
// A CUDA vector or complex type that a buffer may hold ("float2", "cufftComplex", "float4"): `lanes`
// scalars of `dtype` per element, laid out one after the other. `header` declares the type where
// cuda_runtime.h does not ("<cufft.h>" for cufftComplex); empty otherwise.
struct VectorElement {
  DType dtype = DType::f32;
  int lanes = 1;
  std::string_view header;
};
std::optional<VectorElement> vector_element_from_c_type(std::string_view c_type) noexcept;
std::string_view c_type_name(DType dtype) noexcept;  // canonical CUDA spelling
std::size_t size_of(DType dtype) noexcept;
bool is_floating(DType dtype) noexcept;

}  // namespace kopt
