// Builds TaskSpec values in code for the inputs tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kopt/inputs.hpp"
#include "kopt/task.hpp"

namespace kopt::testing {

inline Expr expr(std::string const& text) {
  auto parsed = Expr::parse(text);
  EXPECT_TRUE(parsed.ok()) << text;
  return parsed.ok() ? *parsed : Expr();
}

inline GeneratorSpec gen(std::string kind, std::map<std::string, GeneratorParam> params = {},
                         std::map<std::string, std::string> targets = {}) {
  GeneratorSpec spec;
  spec.kind = std::move(kind);
  spec.params = std::move(params);
  spec.targets = std::move(targets);
  return spec;
}

inline BufferSpec buffer(std::string name, Role role, DType dtype, std::string const& length,
                         std::vector<GeneratorSpec> generators = {}) {
  BufferSpec spec;
  spec.name = std::move(name);
  spec.role = role;
  spec.dtype = dtype;
  spec.length = expr(length);
  spec.generators = std::move(generators);
  return spec;
}

inline TaskSpec task(std::vector<BufferSpec> buffers, std::vector<std::string> const& scalars = {"N"}) {
  TaskSpec spec;
  spec.name = "test_task";
  spec.spec_file = "/tasks/test/task.toml";
  spec.buffers = std::move(buffers);
  for (auto const& name : scalars) spec.scalars.push_back(ScalarSpec{name, DType::i32});
  return spec;
}

inline SizeCase size(std::map<std::string, std::int64_t> const& values) {
  SizeCase size_case;
  size_case.name = "case";
  for (auto const& [name, value] : values) size_case.values.emplace(name, ScalarValue{value});
  return size_case;
}

// Decodes buffer `index` of `inputs` as T.
template <class T>
std::vector<T> values_of(TrialInputs const& inputs, std::size_t index) {
  auto const& bytes = inputs.buffers.at(index).bytes;
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// Generates inputs and fails the test on error.
inline TrialInputs generate_ok(TaskSpec const& spec, SizeCase const& size_case, std::uint64_t seed = 7,
                               int trial = 0, unsigned threads = 1) {
  auto result = generate_inputs(spec, size_case, seed, trial, threads);
  EXPECT_TRUE(result.ok()) << (result.ok() ? std::string() : result.error().message);
  return result.ok() ? std::move(result).value() : TrialInputs{};
}

}  // namespace kopt::testing
