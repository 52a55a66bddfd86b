// TaskSpec accessors, roles and default tolerances.
#include <algorithm>

#include "kopt/task.hpp"

namespace kopt {

std::string_view to_string(Role role) noexcept {
  switch (role) {
    case Role::input: return "input";
    case Role::output: return "output";
    case Role::inout: return "inout";
    case Role::scratch: return "scratch";
  }
  return "unknown";
}

std::string TaskSpec::family_label() const {
  if (!is_chain()) return family;
  std::string label;
  for (StageSpec const& stage : stages) label += (label.empty() ? "" : " -> ") + stage.family;
  return label;
}

std::vector<std::size_t> Signature::kernel_parameters() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (!params[i].is_stream) out.push_back(i);
  }
  return out;
}

ToleranceSpec default_tolerance(DType dtype) noexcept {
  switch (dtype) {
    case DType::f32: return {1e-5, 1e-5, 0.0};
    case DType::f64: return {1e-10, 1e-10, 0.0};
    case DType::f16: return {1e-3, 1e-2, 0.0};
    case DType::bf16: return {1e-2, 1.6e-2, 0.0};
    default: return {0.0, 0.0, 0.0};  // integer outputs must match exactly
  }
}

BufferSpec const* TaskSpec::find_buffer(std::string_view buffer_name) const {
  for (auto const& buffer : buffers) {
    if (buffer.name == buffer_name) return &buffer;
  }
  return nullptr;
}

ToleranceSpec TaskSpec::tolerance_for(DType dtype) const {
  auto it = tolerance.find(dtype);
  return it != tolerance.end() ? it->second : default_tolerance(dtype);
}

ScalarEnv TaskSpec::env_for(SizeCase const& size) const {
  ScalarEnv env;
  for (auto const& scalar : scalars) {
    if (is_floating(scalar.dtype)) continue;
    auto it = size.values.find(scalar.name);
    if (it == size.values.end()) continue;
    if (auto const* value = std::get_if<std::int64_t>(&it->second)) env.emplace(scalar.name, *value);
  }
  for (auto const& [variable, value] : size.variables) env.emplace(variable, value);
  return env;
}

std::vector<SizeCase const*> select_size_cases(TaskSpec const& task, std::vector<std::string> const& names) {
  std::vector<SizeCase const*> out;
  for (auto const& s : task.sizes) {
    if (names.empty() || std::find(names.begin(), names.end(), s.name) != names.end()) out.push_back(&s);
  }
  return out;
}

}  // namespace kopt
