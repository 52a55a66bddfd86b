// A strategy made concrete for a task: the library's common header, then the template with its
// placeholders replaced (docs/strategies.md, "Placeholders").
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "kopt/propose.hpp"
#include "propose/contract.hpp"
#include "propose/host_launch.hpp"

namespace kopt {
namespace {

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])) != 0) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

Param const& task_param(TaskSpec const& task, std::string_view name) {
  return *std::find_if(task.signature.params.begin(), task.signature.params.end(),
                       [&](Param const& p) { return p.name == name; });
}

// A role's value in the task's terms, as kopt's launch expressions and C++ both read it.
std::string role_expression(RoleBinding const& r) {
  if (!r.offset.empty()) return "(" + r.parameter + " + (" + r.offset + "))";
  return r.parameter.empty() ? "(" + r.value + ")" : r.parameter;
}

// The value an integer role passes in C++ or in kopt's kernel arguments: its own, or 0 for a role the
// template never reads that took a size case's variable (LibraryStrategy::unread), which no launcher has.
std::string passed_value(TaskSpec const& task, RoleBinding const& r) {
  if (!r.parameter.empty() || task.sizes.empty()) return r.parameter.empty() ? r.value : r.parameter;
  auto const expr = Expr::parse(r.value);
  if (!expr) return r.value;
  auto const names = expr->identifiers();
  bool const per_size = std::any_of(names.begin(), names.end(), [&](std::string const& name) {
    return task.sizes.front().variables.contains(name);
  });
  return per_size ? "0" : r.value;
}

// A generated launcher's argument for a slice of the task's buffer (RoleBinding::offset): the buffer
// advanced by the offset in its own elements (C's `x + start`, a float2 being one), as the role's pointer.
std::string slice_argument(TaskSpec const& task, RoleBinding const& r) {
  std::string const slice = fmt::format("{} + ({})", r.parameter, cpp_expression(r.offset));
  return task_param(task, r.parameter).lanes > 1 ? fmt::format("kopt_any_pointer{{{}}}", slice) : slice;
}

// The parameter of a kernel-mode adapter's host function that carries a slice (kernel_host_adapter).
std::string slice_parameter(RoleBinding const& r) {
  return "kopt_slice_" + r.role.name;
}

// The `args=(...)` of a kernel-mode adapter (docs/compile.md, "Kernel arguments").
std::string kernel_args(TaskSpec const& task, StrategyBinding const& binding) {
  std::vector<std::string> args;
  for (RoleBinding const& r : binding.roles) {
    bool const same_type = !r.parameter.empty() && task_param(task, r.parameter).dtype == r.role.dtype;
    if (r.copied) {
      args.push_back("kopt_copy_" +
                     r.parameter);  // a parameter of the generated launcher (kernel_host_adapter)
    } else if (!r.offset.empty()) {
      args.push_back(slice_parameter(r));  // likewise
    } else if (r.role.is_pointer || same_type) {
      args.push_back(r.parameter);
    } else {
      args.push_back(fmt::format("{}({})", to_string(r.role.dtype), passed_value(task, r)));
    }
  }
  return fmt::format("args=({})", fmt::join(args, ", "));
}

// The number of elements of the task's buffer `parameter`, as C++ over the launcher's integer parameters.
std::string buffer_length(TaskSpec const& task, std::string const& parameter) {
  BufferSpec const* buffer = task.find_buffer(parameter);
  return buffer != nullptr ? cpp_expression(buffer->length.text()) : "0";
}

// A device buffer of the adapter's (grow_only_buffer), as long as the task's buffer `parameter`, named
// `name`.
std::string adapter_buffer(TaskSpec const& task, std::string const& parameter, std::string const& name) {
  return grow_only_buffer(
      task, name,
      fmt::format("sizeof(*{}) * static_cast<size_t>({})", parameter, buffer_length(task, parameter)));
}

// The adapter's copy of an inout buffer that the strategy reads while it writes the buffer itself (an
// in-place sort bound to an out-of-place one), filled on the stream the candidate runs on.
std::string input_copy(TaskSpec const& task, std::string const& parameter) {
  return fmt::format(
             "  // kopt: the strategy reads a copy of '{0}' while it writes '{0}' (updated in place)\n",
             parameter) +
         adapter_buffer(task, parameter, "kopt_copy_" + parameter) +
         fmt::format(
             "  cudaMemcpyAsync(kopt_copy_{0}, {0}, kopt_copy_{0}_needed, cudaMemcpyDeviceToDevice, {1});\n",
             parameter, launch_stream(task));
}

// For an output the strategy reads before it writes (RoleBinding::seeded_from): the task's input it
// starts from, copied into it on the stream the candidate runs on.
std::string seed_copy(TaskSpec const& task, RoleBinding const& r) {
  return fmt::format(
      "  // kopt: the strategy updates '{0}' in place, starting from '{1}'\n"
      "  cudaMemcpyAsync({0}, {1}, sizeof(*{0}) * static_cast<size_t>({2}), cudaMemcpyDeviceToDevice, "
      "{3});\n",
      r.parameter, r.seeded_from, buffer_length(task, r.parameter), launch_stream(task));
}

// For an output the task adds into (RoleBinding::accumulated): the buffer the strategy writes instead,
// the kernel that adds it into the task's buffer, and that kernel's launch after the strategy's call.
std::string sum_buffer(TaskSpec const& task, std::string const& parameter) {
  return fmt::format("  // kopt: the strategy writes a buffer of its own, added into '{}' after it\n",
                     parameter) +
         adapter_buffer(task, parameter, "kopt_sum_" + parameter);
}

std::string add_into_kernel(TaskSpec const& task, std::string const& parameter) {
  std::string const type(c_type_name(task_param(task, parameter).dtype));
  return fmt::format(
      "// kopt: '{0}' is added into, not overwritten: what the strategy wrote is added to it here\n"
      "__global__ void kopt_add_into_{0}({1}* out, const {1}* add, long long n) {{\n"
      "  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;\n"
      "       i += static_cast<long long>(gridDim.x) * blockDim.x)\n"
      "    out[i] = {1}(static_cast<float>(out[i]) + static_cast<float>(add[i]));\n"
      "}}\n",
      parameter, type);
}

std::string add_into_call(TaskSpec const& task, std::string const& parameter) {
  Param const& param = task_param(task, parameter);
  std::string const type(c_type_name(param.dtype));
  // The kernel adds scalars: a buffer of float2 has two per element.
  std::string const scalars = param.lanes > 1
                                  ? fmt::format("{} * ({})", param.lanes, buffer_length(task, parameter))
                                  : buffer_length(task, parameter);
  return fmt::format(
      "  {{\n"
      "    long long const kopt_n = {1};\n"
      "    if (kopt_n > 0)\n"
      "      kopt_add_into_{0}<<<static_cast<unsigned int>(kopt_min(kopt_ceil_div(kopt_n, 256), 4096)), "
      "256, 0, {3}>>>(\n"
      "          {4}, static_cast<const {2}*>(kopt_sum_{0}), kopt_n);\n"
      "  }}\n",
      parameter, scalars, type, launch_stream(task), pointer_argument(task, parameter));
}

// The code before the adapter's entry: the add-into kernels of its accumulated outputs, and the helpers
// the lengths' C++ uses.
std::string adapter_prelude(TaskSpec const& task, StrategyBinding const& binding) {
  std::string out = "\n" + std::string(cpp_expression_helpers());
  for (RoleBinding const& r : binding.roles) {
    if (r.accumulated) out += add_into_kernel(task, r.parameter);
  }
  return out;
}

// Whether a kernel-mode instantiation needs host code: an output added into or started from an input, an
// input read from a copy or from a slice of a buffer (kopt's kernel arguments name parameters, not pointer
// arithmetic).
bool needs_host_code(StrategyBinding const& binding) {
  return std::any_of(binding.roles.begin(), binding.roles.end(), [](RoleBinding const& r) {
    return r.accumulated || r.copied || !r.offset.empty() || !r.seeded_from.empty();
  });
}

// A kernel-mode instantiation whose binding needs host code (`text`, its arguments already on the launch
// line): its kernel renamed, a host function `kopt_launch_ENTRY` with the task's parameters (and a pointer
// per copied input) that launches it as the evaluator would, and the task's entry, which copies the inout
// buffers read from a copy, calls it with its accumulated outputs replaced by the adapter's buffers, and
// then adds those in.
Result<std::string> kernel_host_adapter(TaskSpec const& task, StrategyBinding const& binding,
                                        std::string text, std::string const& where) {
  std::string const& entry = task.signature.function;
  std::string const kernel = "kopt_kernel_" + entry;
  std::string const launch = "kopt_launch_" + entry;
  std::string buffers;
  std::string adds;
  std::vector<std::string> extra_params;
  std::vector<std::string> extra_args;
  for (RoleBinding const& r : binding.roles) {
    if (!r.offset.empty()) {
      extra_params.push_back(fmt::format("{} {}", r.role.c_type, slice_parameter(r)));
      extra_args.push_back(slice_argument(task, r));
    }
    if (!r.seeded_from.empty()) buffers += seed_copy(task, r);
    if (!r.copied) continue;
    buffers += input_copy(task, r.parameter);
    extra_params.push_back(fmt::format("{} kopt_copy_{}", r.role.c_type, r.parameter));
    extra_args.push_back(fmt::format("static_cast<{}>(kopt_copy_{})", r.role.c_type, r.parameter));
  }
  auto launcher = kernel_launcher(task, text, launch, kernel, where, extra_params);
  if (!launcher) return launcher.error();
  RE2 const entry_word("\\b" + RE2::QuoteMeta(entry) + "\\b", RE2::Latin1);
  RE2::GlobalReplace(&text, entry_word, kernel);
  std::vector<std::string> args;
  for (Param const& p : task.signature.params) {
    auto const role = std::find_if(binding.roles.begin(), binding.roles.end(), [&](RoleBinding const& r) {
      return r.parameter == p.name && r.accumulated;
    });
    if (role == binding.roles.end()) {
      args.push_back(p.name);
      continue;
    }
    buffers += sum_buffer(task, p.name);
    adds += add_into_call(task, p.name);
    args.push_back(fmt::format("static_cast<{}>(kopt_sum_{})", p.c_type, p.name));
  }
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return text + adapter_prelude(task, binding) +
         "\n// kopt: the strategy's kernel, launched as kopt launches it\n" + *launcher +
         fmt::format("\n// kopt: the task's launcher ({})\nextern \"C\" {} {}({}) {{\n{}  {}({});\n{}{}}}\n",
                     binding.describe(), task.signature.return_type(), entry, parameter_list(task), buffers,
                     launch, fmt::join(args, ", "), adds, launcher_status(task));
}

// A launcher with the task's signature that calls the template's, renamed `inner`, in the contract's order.
std::string launcher_adapter(TaskSpec const& task, StrategyBinding const& binding, std::string const& inner) {
  std::vector<std::string> params;
  std::vector<std::string> unused;
  std::string stream_scope;  // the strategy's launcher launches on the caller's stream
  for (Param const& p : task.signature.params) {
    params.push_back(p.c_type + " " + p.name);
    if (p.is_stream) {
      stream_scope = fmt::format("  kopt_strategy::LaunchStreamScope const kopt_stream_scope({});\n", p.name);
      continue;
    }
    if (binding.roles.end() == std::find_if(binding.roles.begin(), binding.roles.end(),
                                            [&](RoleBinding const& r) { return r.parameter == p.name; })) {
      unused.push_back("  (void)" + p.name + ";\n");
    }
  }
  std::vector<std::string> args;
  std::string copies;
  std::string adds;
  for (RoleBinding const& r : binding.roles) {
    if (r.copied) {
      copies += input_copy(task, r.parameter);
      args.push_back(fmt::format("static_cast<{}>(kopt_copy_{})", r.role.c_type, r.parameter));
      continue;
    }
    if (r.accumulated) {
      copies += sum_buffer(task, r.parameter);
      adds += add_into_call(task, r.parameter);
      args.push_back(fmt::format("static_cast<{}>(kopt_sum_{})", r.role.c_type, r.parameter));
      continue;
    }
    if (!r.offset.empty()) {
      args.push_back(slice_argument(task, r));
      continue;
    }
    if (!r.seeded_from.empty()) copies += seed_copy(task, r);
    args.push_back(r.role.is_pointer
                       ? pointer_argument(task, r.parameter)
                       : fmt::format("static_cast<{}>({})", r.role.c_type,
                                     r.parameter.empty() ? "(" + passed_value(task, r) + ")" : r.parameter));
  }
  return adapter_prelude(task, binding) +
         fmt::format(
             "\n// kopt: the task's launcher, calling the strategy's with its contract's roles ({})\n"
             "extern \"C\" {} {}({}) {{\n{}{}{}  {}({});\n{}{}}}\n",
             binding.describe(), task.signature.return_type(), task.signature.function,
             fmt::join(params, ", "), fmt::join(unused, ""), stream_scope, copies, inner,
             fmt::join(args, ", "), adds, launcher_status(task));
}

// [strategy_params] values name the task's scalars by the roles they fill (ELU's `alpha` is map1s's `s`).
// Every identifier is looked at once, so one rename never feeds another (a -> b, b -> c).
std::string in_role_names(std::string const& text, StrategyBinding const& binding) {
  std::map<std::string, std::string, std::less<>> renames;
  for (RoleBinding const& r : binding.roles) {
    if (!r.role.is_pointer && !r.parameter.empty() && r.parameter != r.role.name)
      renames[r.parameter] = r.role.name;
  }
  if (renames.empty()) return text;
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    auto const c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) == 0 && text[i] != '_') {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_'))
      ++end;
    std::string_view const word(text.data() + i, end - i);
    auto const it = renames.find(word);
    out += it == renames.end() ? std::string(word) : it->second;
    i = end;
  }
  return out;
}

}  // namespace

bool is_kernel_template(std::string const& text) {
  static RE2 const launch_line(R"(//[ \t]*kopt:launch\b)", RE2::Latin1);
  static RE2 const entry_kernel(R"(__global__[^;{(]*\{\{ENTRY\}\}\s*\()", RE2::Latin1);
  return RE2::PartialMatch(text, launch_line) || RE2::PartialMatch(text, entry_kernel);
}

std::string_view define_param(std::string_view value) {
  if (value.size() < 5 || !value.starts_with("{{") || !value.ends_with("}}")) return {};
  std::string_view const name = value.substr(2, value.size() - 4);
  return is_identifier(name) ? name : std::string_view();
}

Result<std::string> instantiate_strategy(StrategyLibrary const& library, LibraryStrategy const& strategy,
                                         TaskSpec const& task, int arch_sm, StrategyBinding const* chosen) {
  auto const applicability = check_applicability(strategy, task, arch_sm);
  if (!applicability.applies) {
    return make_error(ErrorCode::invalid_argument, "strategy '" + strategy.name + "' does not apply to " +
                                                       task.name + ": " + applicability.reason);
  }
  StrategyBinding const& binding = chosen != nullptr ? *chosen : applicability.bindings.front();
  bool const kernel_mode = is_kernel_template(strategy.template_text);
  std::string const inner = "kopt_bound_" + task.signature.function;
  std::map<std::string, std::string, std::less<>> values;
  for (auto const& [key, text] : task.strategy_params) values[key] = in_role_names(text, binding);
  values["T"] = binding.element == DType::bf16 ? "__nv_bfloat16" : "float";
  if (binding.index) values["I"] = std::string(index_type_spelling(*binding.index));
  values["ENTRY"] = binding.identity || kernel_mode ? task.signature.function : inner;
  for (std::size_t i = 0; i < binding.roles.size(); ++i) {
    values[fmt::format("ARG{}", i)] = role_expression(binding.roles[i]);
  }

  std::string const& text = strategy.template_text;
  std::string out = fmt::format("// kopt strategy '{}' for task {} ({}), from {}\n", strategy.name, task.name,
                                values["T"], strategy.template_path.filename().string());
  if (!binding.identity) out += "// kopt binding: " + binding.describe() + "\n";
  // The compiler builds the candidate for this architecture-specific target (docs/compile.md).
  if (!strategy.arch.empty()) out += "// kopt:arch " + strategy.arch + "\n";
  out += element_type_includes(task);  // the adapter's signature names cufftComplex, __half2, ...
  out += library.common_header;
  if (!out.empty() && out.back() != '\n') out += '\n';
  for (auto const& [name, value] : strategy.defines) {
    // "{{f}}": the task's expression for the param, parenthesised (the loader checked f is a param, and
    // applicability that the task gives it).
    std::string_view const param = define_param(value);
    auto const given = param.empty() ? values.end() : values.find(param);
    out += "#define " + name + " " + (given != values.end() ? "(" + given->second + ")" : value) + "\n";
  }
  out += "#line 1 \"" + strategy.template_path.filename().string() + "\"\n";
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto const open = text.find("{{", pos);
    if (open == std::string::npos) {
      out.append(text, pos, std::string::npos);
      break;
    }
    out.append(text, pos, open - pos);
    auto const line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(open), '\n');
    auto const close = text.find("}}", open + 2);
    auto const newline = text.find('\n', open);
    if (close == std::string::npos || (newline != std::string::npos && newline < close)) {
      return make_error(ErrorCode::invalid_spec,
                        fmt::format("{}:{}: '{{{{' is not closed on its line; expected "
                                    "{{{{NAME}}}}",
                                    strategy.template_path.string(), line));
    }
    std::string const name = text.substr(open + 2, close - open - 2);
    auto const value = values.find(name);
    if (!is_identifier(name) || value == values.end()) {
      return make_error(
          ErrorCode::invalid_spec,
          fmt::format("{}:{}: unknown placeholder '{{{{{}}}}}'; expected T, ENTRY, ARG0..ARG{}, I (where the "
                      "signature has an index type I) or a "
                      "[strategy_params] key of {}",
                      strategy.template_path.string(), line, name,
                      binding.roles.empty() ? 0 : binding.roles.size() - 1, task.name));
    }
    out += value->second;
    pos = close + 2;
  }
  if (binding.identity) return out;
  if (!kernel_mode) return out + launcher_adapter(task, binding, inner);
  // The template's launch line gets the kernel's arguments in the contract's order.
  static RE2 const launch_line(R"((//[ \t]*kopt:launch\b[^\n]*))", RE2::Latin1);
  re2::StringPiece line;
  if (!RE2::PartialMatch(out, launch_line, &line)) {
    // The template launches with the task's [launch]: the arguments get a line of their own.
    auto const body = out.find("#line 1 ");
    out.insert(body == std::string::npos ? 0 : body, "// kopt:launch " + kernel_args(task, binding) + "\n");
  } else {
    auto const end = static_cast<std::size_t>(line.data() - out.data()) + line.size();
    out.insert(end, " " + kernel_args(task, binding));
  }
  if (needs_host_code(binding)) {
    return kernel_host_adapter(task, binding, std::move(out),
                               strategy.template_path.string() + " for " + task.name);
  }
  return out;
}

}  // namespace kopt
