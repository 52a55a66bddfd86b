#include <algorithm>
#include <limits>
#include <map>
#include <new>

#include "inputs/buffer_generators.hpp"
#include "inputs/counter_random.hpp"
#include "inputs/generator_params.hpp"
#include "inputs/structured_generators.hpp"
#include "kopt/inputs.hpp"
#include "kopt/splitmix.hpp"

namespace kopt {
namespace {

constexpr std::size_t kMaxBufferBytes = std::size_t{1} << 40;  // 1 TiB: a larger length is a spec error

GeneratorSpec make_generator(std::string kind, std::map<std::string, GeneratorParam> params) {
  GeneratorSpec spec;
  spec.kind = std::move(kind);
  spec.params = std::move(params);
  return spec;
}

// Used when an input or inout buffer declares no generator: trials cover negative values and two
// distributions for floats, a symmetric integer range for signed and 0..200 for unsigned integers, 0 and 1
// for bool.
std::vector<GeneratorSpec> default_generators(DType dtype) {
  if (is_floating(dtype)) {
    return {make_generator("uniform", {{"low", -1.0}, {"high", 1.0}}),
            make_generator("normal", {{"mean", 0.0}, {"std", 1.0}}),
            make_generator("uniform", {{"low", 0.0}, {"high", 1.0}})};
  }
  if (dtype == DType::boolean) return {make_generator("int_uniform", {{"low", 0.0}, {"high", 1.0}})};
  bool const is_unsigned = dtype == DType::u8 || dtype == DType::u32 || dtype == DType::u64;
  if (is_unsigned) return {make_generator("int_uniform", {{"low", 0.0}, {"high", 200.0}})};
  return {make_generator("int_uniform", {{"low", -100.0}, {"high", 100.0}})};
}

}  // namespace

Result<std::vector<std::size_t>> buffer_lengths(TaskSpec const& task, SizeCase const& size) {
  ScalarEnv const env = task.env_for(size);
  std::vector<std::size_t> lengths;
  lengths.reserve(task.buffers.size());
  for (auto const& buffer : task.buffers) {
    std::string const where = spec_label(task) + ": buffers." + buffer.name + ".length";
    auto length = buffer.length.evaluate(env);
    if (!length) {
      return make_error(ErrorCode::invalid_spec, where + ": '" + buffer.length.text() + "' for size case '" +
                                                     size.name + "': " + length.error().message);
    }
    if (*length < 0) {
      return make_error(ErrorCode::invalid_spec, where + ": '" + buffer.length.text() + "' is " +
                                                     std::to_string(*length) + " for size case '" +
                                                     size.name + "'; expected a length >= 0");
    }
    // Scalars: a buffer of float2 (lanes 2) holds two floats per element of its length.
    auto const lanes = static_cast<std::size_t>(std::max(buffer.lanes, 1));
    auto const elements = static_cast<std::size_t>(*length);
    std::size_t const scalar_bytes = std::max<std::size_t>(size_of(buffer.dtype), 1) * lanes;
    if (elements > kMaxBufferBytes / scalar_bytes) {
      return make_error(ErrorCode::invalid_spec, where + ": '" + buffer.length.text() + "' is " +
                                                     std::to_string(*length) + " elements for size case '" +
                                                     size.name + "'; expected a buffer under 1 TiB");
    }
    lengths.push_back(elements * lanes);
  }
  return lengths;
}

Result<TrialInputs> generate_inputs(TaskSpec const& task, SizeCase const& size, std::uint64_t seed, int trial,
                                    unsigned threads) {
  if (auto valid = validate_generators(task); !valid) return std::move(valid).error();
  auto lengths = buffer_lengths(task, size);
  if (!lengths) return std::move(lengths).error();
  std::string const label = spec_label(task);
  ScalarEnv const env = task.env_for(size);

  TrialInputs inputs;
  inputs.seed = seed;
  inputs.trial = trial;
  inputs.buffers.resize(task.buffers.size());
  try {
    for (std::size_t i = 0; i < task.buffers.size(); ++i) {
      auto const& spec = task.buffers[i];
      auto& buffer = inputs.buffers[i];
      buffer.name = spec.name;
      buffer.role = spec.role;
      buffer.dtype = spec.dtype;
      buffer.count = (*lengths)[i];
      if (has_initial_contents(spec.role)) buffer.bytes.resize(buffer.count * size_of(spec.dtype));
    }
  } catch (std::bad_alloc const&) {
    return make_error(ErrorCode::invalid_argument, label + ": size case '" + size.name +
                                                       "': not enough host memory for the input buffers");
  }
  auto typed = [&inputs](std::size_t i) {
    auto& buffer = inputs.buffers[i];
    return TypedBuffer(buffer.dtype, buffer.bytes.data(), buffer.count);
  };

  std::map<std::string, std::string> structured_targets;  // buffer -> generator
  for (auto const& [name, spec] : task.structured_generators) {
    for (auto const& [role, buffer] : spec.targets) structured_targets[buffer] = name;
  }

  for (std::size_t i = 0; i < task.buffers.size(); ++i) {
    auto const& spec = task.buffers[i];
    if (!has_initial_contents(spec.role) || structured_targets.contains(spec.name)) continue;
    bool const defaulted = spec.generators.empty();
    std::vector<GeneratorSpec> const generators =
        defaulted ? default_generators(spec.dtype) : spec.generators;
    auto const n = static_cast<int>(generators.size());
    auto const k = static_cast<std::size_t>(((trial % n) + n) % n);
    std::string const field = defaulted
                                  ? "buffers." + spec.name + " (default generator " + generators[k].kind + ")"
                                  : buffer_generator_field(spec, k);
    ParamReader const params(generators[k], env, label + ": " + field);
    auto const stream = RandomStream::for_trial(seed, trial, i);
    if (auto ok = fill_buffer(params, stream, typed(i), spec.name, threads); !ok)
      return std::move(ok).error();
  }

  for (auto const& [name, spec] : task.structured_generators) {
    std::map<std::string, StructuredTarget> targets;
    for (auto const& [role, buffer_name] : spec.targets) {
      for (std::size_t i = 0; i < task.buffers.size(); ++i) {
        if (task.buffers[i].name == buffer_name)
          targets.emplace(role, StructuredTarget{buffer_name, typed(i)});
      }
    }
    ParamReader const params(spec, env, label + ": generators." + name);
    auto const stream = RandomStream::for_trial(seed, trial, stream_id_of(name));
    if (auto ok = fill_structured(params, stream, targets, threads); !ok) return std::move(ok).error();
  }
  return inputs;
}

std::uint64_t trial_seed(std::uint64_t seed, std::size_t size_index, int trial) noexcept {
  return mix64(seed ^ mix64(0x9e3779b97f4a7c15ULL * (size_index + 1)) ^
               mix64(static_cast<std::uint64_t>(trial) + 0x51ed));
}

}  // namespace kopt
