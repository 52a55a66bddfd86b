// Loading and validation of task.toml (docs/task-format.md is the user-facing reference).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "kopt/task.hpp"
#include "kopt/text.hpp"
#include "task/spec_diagnostics.hpp"
#include "task/toml_precheck.hpp"

namespace kopt {
namespace {

using task_detail::check_keys;
using task_detail::is_todo;
using task_detail::join_field;
using task_detail::quoted_list;
using task_detail::SpecDiagnostics;
using task_detail::type_name;

std::vector<std::string> const kTopLevelKeys{
    "name",    "description", "family",          "trials",    "entry",    "scalars",
    "buffers", "sizes",       "tolerance",       "reference", "baseline", "work",
    "launch",  "generators",  "strategy_params", "binding",   "stages",   "intermediates"};

bool is_valid_name(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool is_identifier(std::string_view text) {
  if (text.empty() || (text[0] >= '0' && text[0] <= '9')) return false;
  for (char c : text) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

// Range of integer values a scalar of `dtype` can hold (TOML integers are 64-bit signed).
std::pair<std::int64_t, std::int64_t> integer_range(DType dtype) {
  constexpr auto kMax64 = std::numeric_limits<std::int64_t>::max();
  switch (dtype) {
    case DType::i8: return {-128, 127};
    case DType::u8: return {0, 255};
    case DType::boolean: return {0, 1};
    case DType::i16: return {-32768, 32767};
    case DType::i32:
      return {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
    case DType::u32: return {0, std::numeric_limits<std::uint32_t>::max()};
    case DType::u64: return {0, kMax64};
    default: return {std::numeric_limits<std::int64_t>::min(), kMax64};
  }
}

std::string all_dtype_names() {
  std::string out;
  for (auto dtype : {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i8, DType::u8, DType::i16,
                     DType::i32, DType::u32, DType::i64, DType::u64, DType::boolean}) {
    if (!out.empty()) out += ", ";
    out += to_string(dtype);
  }
  return out;
}

std::optional<Role> role_from_string(std::string_view text) {
  if (text == "input") return Role::input;
  if (text == "output") return Role::output;
  if (text == "inout") return Role::inout;
  if (text == "scratch") return Role::scratch;
  return std::nullopt;
}

// An expression whose value is checked against every size case once all sizes are known.
struct DeferredCheck {
  std::string field;
  toml::source_region where;
  Expr expr;
  std::int64_t minimum = 0;
  std::string expected;
};

class TaskLoader {
 public:
  TaskLoader(SpecDiagnostics& diag, toml::table const& root, std::filesystem::path dir)
      : diag_(diag), root_(root), dir_(std::move(dir)) {}

  TaskSpec load() {
    check_keys(diag_, root_, "", kTopLevelKeys);
    read_header();
    read_entry();
    read_scalar_defaults();
    collect_size_variables();
    read_buffers();
    read_structured_generators();
    read_sizes();
    read_tolerance();
    if (auto source = read_source("reference", true, true)) spec_.reference = std::move(*source);
    spec_.baseline = read_source("baseline", false, false);
    read_work();
    read_launch();
    read_strategy_params(root_, "strategy_params", spec_.strategy_params);
    read_binding(
        root_, "binding",
        "a parameter of the entry, an integer expression over its integer scalars, a number, or a slice of "
        "a buffer (\"x + start\")",
        [this](std::string const& value) { return binding_problem(value); }, spec_.binding);
    read_chain();
    check_outputs();
    check_sizes_evaluate();
    return std::move(spec_);
  }

 private:
  // ---- small readers -------------------------------------------------------------------------

  void error(toml::source_region const& where, std::string_view field, std::string_view what,
             std::string_view expected) {
    diag_.error(where, field, what, expected);
  }

  static std::string is_a(toml::node const& node) {
    std::string_view type = type_name(node);
    bool vowel = !type.empty() && std::string_view("aeiou").find(type[0]) != std::string_view::npos;
    return (vowel ? "is an " : "is a ") + std::string(type);
  }

  toml::table const* table_at(toml::table const& parent, std::string_view key, std::string const& field,
                              bool required, std::string_view expected) {
    auto const* node = parent.get(key);
    if (node == nullptr) {
      if (required) error(parent.source(), field, "missing", expected);
      return nullptr;
    }
    auto const* table = node->as_table();
    if (table == nullptr) error(node->source(), field, is_a(*node), expected);
    return table;
  }

  std::optional<std::string> string_at(toml::table const& parent, std::string_view key,
                                       std::string const& field, bool required, std::string_view expected) {
    auto const* node = parent.get(key);
    if (node == nullptr) {
      if (required) error(parent.source(), field, "missing", expected);
      return std::nullopt;
    }
    auto const* str = node->as_string();
    if (str == nullptr) {
      error(node->source(), field, is_a(*node), expected);
      return std::nullopt;
    }
    if (is_todo(str->get())) {
      error(node->source(), field, "still TODO", expected);
      return std::nullopt;
    }
    return str->get();
  }

  std::string expr_expectation() const {
    if (!have_signature_) return "an integer expression over the signature's integer scalars";
    if (int_scalars_.empty() && size_variables_.empty())
      return "an integer expression of constants (the signature has no integer scalars)";
    std::string names;
    for (auto const& n : int_scalars_) names += (names.empty() ? "" : ", ") + n;
    std::string variables;
    for (auto const& n : size_variables_) variables += (variables.empty() ? "" : ", ") + n;
    return "an integer expression over the integer scalars " + names +
           (variables.empty() ? "" : " and the sizes' variables " + variables);
  }

  std::optional<Expr> read_expr(toml::node const& node, std::string const& field) {
    if (auto const* integer = node.as_integer()) return Expr::constant(integer->get());
    auto const* str = node.as_string();
    if (str == nullptr) {
      error(node.source(), field, is_a(node),
            expr_expectation() + " (a string such as \"N*C\") or an integer");
      return std::nullopt;
    }
    if (is_todo(str->get())) {
      error(node.source(), field, "still TODO", expr_expectation());
      return std::nullopt;
    }
    auto parsed = Expr::parse(str->get());
    if (!parsed.ok()) {
      error(node.source(), field, parsed.error().message, "");
      return std::nullopt;
    }
    if (!have_signature_) return std::move(parsed).value();
    bool ok = true;
    for (auto const& id : parsed->identifiers()) {
      if (std::find(int_scalars_.begin(), int_scalars_.end(), id) != int_scalars_.end()) continue;
      if (std::find(size_variables_.begin(), size_variables_.end(), id) != size_variables_.end()) continue;
      ok = false;
      std::string what;
      if (std::find(float_scalars_.begin(), float_scalars_.end(), id) != float_scalars_.end()) {
        what = "'" + str->get() + "' uses '" + id + "', a floating-point scalar";
      } else if (spec_.find_buffer(id) != nullptr || is_pointer_param(id)) {
        what = "'" + str->get() + "' uses '" + id + "', a pointer parameter";
      } else if (Param const* p = find_param(id); p != nullptr && p->is_stream) {
        what = "'" + str->get() + "' uses '" + id + "', the launcher's stream";
      } else {
        what = "'" + str->get() + "' uses unknown name '" + id + "'";
      }
      error(node.source(), field, what, expr_expectation());
    }
    if (!ok) return std::nullopt;
    return std::move(parsed).value();
  }

  bool is_pointer_param(std::string_view name) const {
    for (auto const& p : spec_.signature.params) {
      if (p.is_pointer && p.name == name) return true;
    }
    return false;
  }

  Param const* find_param(std::string_view name) const {
    for (auto const& p : spec_.signature.params) {
      if (p.name == name) return &p;
    }
    return nullptr;
  }

  std::optional<double> read_number(toml::node const& node, std::string const& field,
                                    std::string_view expected) {
    if (auto const* integer = node.as_integer()) return static_cast<double>(integer->get());
    if (auto const* floating = node.as_floating_point()) {
      if (std::isfinite(floating->get())) return floating->get();
      error(node.source(), field, "is not finite", expected);
      return std::nullopt;
    }
    if (auto const* str = node.as_string(); str != nullptr && is_todo(str->get())) {
      error(node.source(), field, "still TODO", expected);
      return std::nullopt;
    }
    error(node.source(), field, is_a(node), expected);
    return std::nullopt;
  }

  // ---- sections ------------------------------------------------------------------------------

  void read_header() {
    if (auto name = string_at(root_, "name", "name", true, "a task name of letters, digits, '_', '.', '-'")) {
      if (is_valid_name(*name)) {
        spec_.name = *name;
      } else {
        error(root_.get("name")->source(), "name",
              "'" + *name + "' contains characters other than [A-Za-z0-9_.-]",
              "a task name of letters, digits, '_', '.', '-'");
      }
    }
    if (auto description = string_at(root_, "description", "description", true,
                                     "a plain-language description of what the kernel computes")) {
      if (description->empty()) {
        error(root_.get("description")->source(), "description", "is empty",
              "a plain-language description of what the kernel computes");
      }
      spec_.description = *description;
    }
    if (auto family =
            string_at(root_, "family", "family", false, "a family name string such as \"row_softmax\"")) {
      spec_.family = *family;
    }
    if (auto const* node = root_.get("trials")) {
      auto const* integer = node->as_integer();
      if (integer == nullptr) {
        error(node->source(), "trials", is_a(*node), "an integer >= 3");
      } else if (integer->get() < 3 || integer->get() > 1000000) {
        error(node->source(), "trials", std::to_string(integer->get()) + " is out of range",
              "an integer >= 3");
      } else {
        spec_.trials = static_cast<int>(integer->get());
      }
    }
  }

  void read_entry() {
    std::string const expected = "a table with signature = 'extern \"C\" void name(...)'";
    auto const* entry = table_at(root_, "entry", "entry", true, expected);
    if (entry == nullptr) return;
    check_keys(diag_, *entry, "entry", {"signature"});
    auto text = string_at(
        *entry, "signature", "entry.signature", true,
        "the launcher's C signature, e.g. 'extern \"C\" void f(float* out, const float* in, int N)'");
    if (!text) return;
    auto signature = parse_signature(*text);
    if (!signature.ok()) {
      error(entry->get("signature")->source(), "entry.signature", signature.error().message, "");
      return;
    }
    spec_.signature = std::move(signature).value();
    have_signature_ = true;
    for (auto const& p : spec_.signature.params) {
      if (!p.is_scalar()) continue;
      spec_.scalars.push_back({p.name, p.dtype});
      (is_floating(p.dtype) ? float_scalars_ : int_scalars_).push_back(p.name);
    }
  }

  std::vector<std::string> scalar_names() const {
    std::vector<std::string> names;
    for (auto const& s : spec_.scalars) names.push_back(s.name);
    return names;
  }

  static std::string value_expectation(ScalarSpec const& scalar) {
    if (is_floating(scalar.dtype)) return "a number (" + std::string(to_string(scalar.dtype)) + " scalar)";
    auto [lo, hi] = integer_range(scalar.dtype);
    return "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (" +
           std::string(to_string(scalar.dtype)) + " scalar)";
  }

  std::optional<ScalarValue> read_scalar_value(toml::node const& node, ScalarSpec const& scalar,
                                               std::string const& field) {
    std::string expected = value_expectation(scalar);
    if (is_floating(scalar.dtype)) {
      auto number = read_number(node, field, expected);
      if (!number) return std::nullopt;
      return ScalarValue{*number};
    }
    if (auto const* str = node.as_string(); str != nullptr && is_todo(str->get())) {
      error(node.source(), field, "still TODO", expected);
      return std::nullopt;
    }
    auto const* integer = node.as_integer();
    if (integer == nullptr) {
      error(node.source(), field, is_a(node), expected);
      return std::nullopt;
    }
    auto [lo, hi] = integer_range(scalar.dtype);
    if (integer->get() < lo || integer->get() > hi) {
      error(node.source(), field, std::to_string(integer->get()) + " does not fit", expected);
      return std::nullopt;
    }
    return ScalarValue{integer->get()};
  }

  void read_scalar_defaults() {
    auto const* table =
        table_at(root_, "scalars", "scalars", false, "a table of default values for scalar parameters");
    if (table == nullptr || !have_signature_) return;
    check_keys(diag_, *table, "scalars", scalar_names());
    for (auto const& scalar : spec_.scalars) {
      if (auto const* node = table->get(scalar.name)) {
        if (auto value = read_scalar_value(*node, scalar, join_field("scalars", scalar.name))) {
          scalar_defaults_[scalar.name] = *value;
        }
      }
    }
  }

  // A generator table: `kind` plus parameters (numbers and booleans -> double, strings kept).
  std::optional<GeneratorSpec> read_generator(toml::node const& node, std::string const& field,
                                              bool structured) {
    std::string const expected =
        structured ? "a table with kind = \"csr\" (or coo, csc, ell), its parameters and targets"
                   : "a table such as { kind = \"uniform\", low = -1.0, high = 1.0 }";
    auto const* table = node.as_table();
    if (table == nullptr) {
      error(node.source(), field, is_a(node), expected);
      return std::nullopt;
    }
    GeneratorSpec gen;
    bool ok = true;
    if (auto kind = string_at(*table, "kind", join_field(field, "kind"), true, "a generator kind string")) {
      if (kind->empty()) {
        error(table->get("kind")->source(), join_field(field, "kind"), "is empty", "a generator kind string");
        ok = false;
      }
      gen.kind = *kind;
    } else {
      ok = false;
    }
    for (auto const& [key, value] : *table) {
      std::string name(key.str());
      std::string param_field = join_field(field, name);
      if (name == "kind") continue;
      if (name == "targets") {
        if (!structured) {
          error(key.source(), param_field, "targets are only allowed in structured generators",
                "a [generators.<name>] table for generators that fill several buffers");
          ok = false;
          continue;
        }
        auto const* targets = value.as_table();
        if (targets == nullptr) {
          error(value.source(), param_field, is_a(value), "a table of role = \"buffer name\" strings");
          ok = false;
          continue;
        }
        for (auto const& [role, buffer] : *targets) {
          auto const* str = buffer.as_string();
          if (str == nullptr) {
            error(buffer.source(), join_field(param_field, role.str()), is_a(buffer), "a buffer name string");
            ok = false;
            continue;
          }
          gen.targets[std::string(role.str())] = str->get();
        }
        continue;
      }
      if (auto const* str = value.as_string()) {
        gen.params[name] = str->get();
      } else if (auto const* integer = value.as_integer()) {
        gen.params[name] = static_cast<double>(integer->get());
      } else if (auto const* floating = value.as_floating_point()) {
        gen.params[name] = floating->get();
      } else if (auto const* boolean = value.as_boolean()) {
        gen.params[name] = boolean->get() ? 1.0 : 0.0;
      } else {
        error(value.source(), param_field, is_a(value), "a number, a boolean or a string");
        ok = false;
      }
    }
    if (structured && gen.targets.empty() && table->get("targets") == nullptr) {
      error(table->source(), join_field(field, "targets"), "missing",
            "a table naming the buffers this generator fills, e.g. { row_ptr = \"row_ptr\", ... }");
      ok = false;
    }
    if (!ok) return std::nullopt;
    return gen;
  }

  void read_buffers() {
    if (!have_signature_) return;
    std::string const expected = "a [buffers.<name>] table for every pointer parameter";
    auto const* buffers = table_at(root_, "buffers", "buffers", false, expected);
    if (root_.get("buffers") != nullptr && buffers == nullptr) return;  // wrong type, reported
    std::vector<std::string> pointers;
    for (auto const& p : spec_.signature.params) {
      if (p.is_pointer) pointers.push_back(p.name);
    }
    if (buffers != nullptr) {
      for (auto const& [key, node] : *buffers) {
        std::string name(key.str());
        if (std::find(pointers.begin(), pointers.end(), name) != pointers.end()) continue;
        std::string what = find_param(name) != nullptr ? "'" + name + "' is a scalar parameter, not a pointer"
                                                       : "'" + name + "' is not a parameter of the signature";
        error(key.source(), join_field("buffers", name), what,
              pointers.empty() ? std::string("no buffers (the signature has no pointers)")
                               : "one of the pointer parameters " + quoted_list(pointers));
      }
    }
    for (auto const& param : spec_.signature.params) {
      if (!param.is_pointer) continue;
      std::string field = join_field("buffers", param.name);
      toml::node const* node = buffers != nullptr ? buffers->get(param.name) : nullptr;
      if (node == nullptr) {
        error(buffers != nullptr ? buffers->source() : root_.source(), field, "missing",
              "a [" + field + "] table with length = \"<expression>\" for pointer parameter '" + param.name +
                  "'");
        continue;
      }
      auto const* table = node->as_table();
      if (table == nullptr) {
        error(node->source(), field, is_a(*node), "a table with length = \"<expression>\"");
        continue;
      }
      read_buffer(param, *table, field);
    }
  }

  void read_buffer(Param const& param, toml::table const& table, std::string const& field) {
    check_keys(diag_, table, field,
               {"length", "role", "dtype", "generator", "generators", "affects_outputs"});
    BufferSpec buffer;
    buffer.name = param.name;
    buffer.dtype = param.dtype;
    buffer.lanes = param.lanes;
    buffer.role = param.is_const ? Role::input : Role::output;
    std::string const length_field = join_field(field, "length");
    if (auto const* length = table.get("length")) {
      if (auto expr = read_expr(*length, length_field)) {
        buffer.length = std::move(*expr);
        deferred_.push_back({length_field, length->source(), buffer.length, 0, "a length >= 0"});
      }
    } else {
      error(table.source(), length_field, "missing", "the element count as " + expr_expectation());
    }
    if (auto role = string_at(table, "role", join_field(field, "role"), false,
                              "\"input\", \"output\", \"inout\" or \"scratch\"")) {
      auto const& where = table.get("role")->source();
      if (auto parsed = role_from_string(*role)) {
        if (param.is_const && *parsed != Role::input) {
          error(where, join_field(field, "role"),
                "'" + *role + "' but the signature declares '" + param.c_type + " " + param.name +
                    "' (const, cannot be written)",
                "\"input\", or drop const from the parameter");
        } else {
          buffer.role = *parsed;
        }
      } else {
        error(where, join_field(field, "role"), "unknown role '" + *role + "'",
              "\"input\", \"output\", \"inout\" or \"scratch\"");
      }
    }
    if (auto dtype = string_at(table, "dtype", join_field(field, "dtype"), false, "a dtype name")) {
      auto const& where = table.get("dtype")->source();
      auto parsed = dtype_from_string(*dtype);
      std::string agree = "\"" + std::string(to_string(param.dtype)) + "\" (the signature declares '" +
                          param.c_type + " " + param.name + "')";
      if (!parsed) {
        error(where, join_field(field, "dtype"), "unknown dtype '" + *dtype + "'", agree);
      } else if (*parsed != param.dtype) {
        error(where, join_field(field, "dtype"), "'" + *dtype + "' disagrees with the signature", agree);
      }
    }
    if (auto const* affects = table.get("affects_outputs")) {
      std::string const affects_field = join_field(field, "affects_outputs");
      if (auto const* boolean = affects->as_boolean()) {
        buffer.affects_outputs = boolean->get();
        if (!buffer.affects_outputs && buffer.role != Role::input)
          error(affects->source(), affects_field,
                "false for a buffer the kernel writes (" + std::string(to_string(buffer.role)) + ")",
                "true, or false only for an input");
      } else {
        error(affects->source(), affects_field, is_a(*affects), "true or false");
      }
    }
    auto const* one = table.get("generator");
    auto const* many = table.get("generators");
    if (one != nullptr && many != nullptr) {
      error(many->source(), join_field(field, "generators"), "both 'generator' and 'generators' are given",
            "only one of them");
    } else if (one != nullptr || many != nullptr) {
      if (buffer.role == Role::output) {
        auto const& where = (one != nullptr ? one : many)->source();
        error(where, join_field(field, one != nullptr ? "generator" : "generators"),
              "an output buffer is never generated (the kernel writes it)",
              "no generator, or role = \"inout\" if the kernel also reads it");
      } else if (buffer.role == Role::scratch) {
        auto const& where = (one != nullptr ? one : many)->source();
        error(where, join_field(field, one != nullptr ? "generator" : "generators"),
              "a scratch buffer is never generated (kopt fills it with poison bytes)",
              "no generator, or role = \"inout\" if the kernel reads values the caller gives it");
      } else if (one != nullptr) {
        if (auto gen = read_generator(*one, join_field(field, "generator"), false)) {
          buffer.generators.push_back(std::move(*gen));
        }
      } else if (auto const* list = many->as_array()) {
        if (list->empty()) {
          error(many->source(), join_field(field, "generators"), "is empty", "at least one generator table");
        }
        for (std::size_t i = 0; i < list->size(); ++i) {
          std::string item_field = join_field(field, "generators") + "[" + std::to_string(i) + "]";
          if (auto gen = read_generator((*list)[i], item_field, false))
            buffer.generators.push_back(std::move(*gen));
        }
      } else {
        error(many->source(), join_field(field, "generators"), is_a(*many),
              "an array of generator tables (or a single 'generator')");
      }
      has_own_generator_.insert(buffer.name);
    }
    spec_.buffers.push_back(std::move(buffer));
  }

  void read_structured_generators() {
    auto const* table = table_at(root_, "generators", "generators", false,
                                 "a table of structured generators: [generators.<name>]");
    if (table == nullptr) return;
    std::map<std::string, std::string> claimed;  // buffer -> generator that fills it
    for (auto const& [key, node] : *table) {
      std::string name(key.str());
      std::string field = join_field("generators", name);
      auto gen = read_generator(node, field, true);
      if (!gen) continue;
      bool ok = true;
      for (auto const& [role, target] : gen->targets) {
        std::string target_field = join_field(join_field(field, "targets"), role);
        auto const& where = node.as_table()->get("targets")->as_table()->get(role)->source();
        auto const* buffer = spec_.find_buffer(target);
        if (!have_signature_) continue;
        if (buffer == nullptr) {
          std::vector<std::string> names;
          for (auto const& b : spec_.buffers) names.push_back(b.name);
          error(where, target_field, "'" + target + "' is not a buffer", "one of " + quoted_list(names));
          ok = false;
        } else if (!has_initial_contents(buffer->role)) {
          error(where, target_field,
                "'" + target + "' is an " + std::string(to_string(buffer->role)) + " buffer",
                "an input or inout buffer (outputs and scratch are written by the kernel)");
          ok = false;
        } else if (has_own_generator_.contains(target)) {
          error(where, target_field,
                "'" + target + "' also has its own generator in [buffers." + target + "]",
                "each buffer filled by exactly one generator (remove one of them)");
          ok = false;
        } else if (auto it = claimed.find(target); it != claimed.end()) {
          error(where, target_field, "'" + target + "' is already filled by [generators." + it->second + "]",
                "each buffer filled by exactly one generator");
          ok = false;
        } else {
          claimed[target] = name;
        }
      }
      if (ok) spec_.structured_generators[name] = std::move(*gen);
    }
  }

  // The names of the sizes' `variables` tables, known before the expressions that use them are read (their
  // values are read with each size case).
  void collect_size_variables() {
    auto const* array = root_.get("sizes") != nullptr ? root_.get("sizes")->as_array() : nullptr;
    if (array == nullptr) return;
    for (auto const& item : *array) {
      auto const* table = item.as_table();
      auto const* variables = table != nullptr && table->get("variables") != nullptr
                                  ? table->get("variables")->as_table()
                                  : nullptr;
      if (variables == nullptr) continue;
      for (auto const& [key, value] : *variables) {
        std::string const name(key.str());
        if (!is_identifier(name) || is_parameter(name)) continue;  // reported by read_sizes
        if (std::find(size_variables_.begin(), size_variables_.end(), name) == size_variables_.end())
          size_variables_.push_back(name);
      }
    }
  }

  bool is_parameter(std::string_view name) const {
    return std::any_of(spec_.signature.params.begin(), spec_.signature.params.end(),
                       [&](Param const& p) { return p.name == name; });
  }

  // sizes[i].variables: an integer per variable name, the same names in every size case.
  void read_size_variables(toml::table const& table, std::string const& field, SizeCase& size,
                           bool& complete) {
    auto const* node = table.get("variables");
    std::string const variables_field = join_field(field, "variables");
    std::string const expected = "a table of integers the launcher does not take, e.g. { nnz = 40960 }";
    if (node != nullptr && node->as_table() == nullptr) {
      error(node->source(), variables_field, is_a(*node), expected);
      complete = false;
      return;
    }
    if (node != nullptr) {
      for (auto const& [key, value] : *node->as_table()) {
        std::string const name(key.str());
        std::string const value_field = join_field(variables_field, name);
        if (!is_identifier(name)) {
          error(value.source(), value_field, "'" + name + "' is not an identifier",
                "a name of letters, digits and '_' that expressions can use");
          complete = false;
        } else if (is_parameter(name)) {
          error(value.source(), value_field, "'" + name + "' is a parameter of the launcher",
                "the parameter's value as " + join_field(field, name) + "; variables are for names the " +
                    "launcher does not take");
          complete = false;
        } else if (auto const* integer = value.as_integer()) {
          size.variables[name] = integer->get();
        } else {
          error(value.source(), value_field, is_a(value), "an integer");
          complete = false;
        }
      }
    }
    for (auto const& name : size_variables_) {
      if (size.variables.contains(name) || (node != nullptr && node->as_table()->contains(name))) continue;
      error(node != nullptr ? node->source() : table.source(), join_field(variables_field, name), "missing",
            "an integer: another size case defines the variable '" + name +
                "', and every size case defines the same variables");
      complete = false;
    }
  }

  void read_sizes() {
    std::string const expected = "one or more [[sizes]] tables, each with name and a value for every scalar";
    auto const* node = root_.get("sizes");
    if (node == nullptr) {
      error(root_.source(), "sizes", "missing", expected);
      return;
    }
    auto const* array = node->as_array();
    if (array == nullptr) {
      error(node->source(), "sizes", is_a(*node) + " (written as [sizes]?)",
            "an array of tables written as [[sizes]]");
      return;
    }
    if (array->empty()) {
      error(node->source(), "sizes", "is empty", expected);
      return;
    }
    std::vector<std::string> allowed{"name", "verify_only"};
    for (auto const& s : spec_.scalars) allowed.push_back(s.name);
    allowed.emplace_back("variables");
    std::set<std::string> names;
    bool any_timed = false;
    for (std::size_t i = 0; i < array->size(); ++i) {
      std::string field = "sizes[" + std::to_string(i) + "]";
      auto const& item = (*array)[i];
      auto const* table = item.as_table();
      if (table == nullptr) {
        error(item.source(), field, is_a(item), "a table with name and scalar values");
        continue;
      }
      if (have_signature_) check_keys(diag_, *table, field, allowed);
      SizeCase size;
      bool complete = true;
      if (auto name =
              string_at(*table, "name", join_field(field, "name"), true, "a unique size name string")) {
        if (!is_valid_name(*name)) {
          error(table->get("name")->source(), join_field(field, "name"),
                "'" + *name + "' contains characters other than [A-Za-z0-9_.-]",
                "a name of letters, digits, '_', '.', '-'");
        } else if (!names.insert(*name).second) {
          error(table->get("name")->source(), join_field(field, "name"), "'" + *name + "' is used twice",
                "a unique size name");
        }
        size.name = *name;
      }
      if (auto const* verify_only = table->get("verify_only")) {
        if (auto const* boolean = verify_only->as_boolean()) {
          size.verify_only = boolean->get();
        } else {
          error(verify_only->source(), join_field(field, "verify_only"), is_a(*verify_only), "true or false");
        }
      }
      if (!size.verify_only) any_timed = true;
      for (auto const& scalar : spec_.scalars) {
        std::string value_field = join_field(field, scalar.name);
        if (auto const* value_node = table->get(scalar.name)) {
          if (auto value = read_scalar_value(*value_node, scalar, value_field)) {
            size.values[scalar.name] = *value;
          } else {
            complete = false;
          }
        } else if (auto it = scalar_defaults_.find(scalar.name); it != scalar_defaults_.end()) {
          size.values[scalar.name] = it->second;
        } else {
          error(table->source(), value_field, "missing", value_expectation(scalar) + " here or in [scalars]");
          complete = false;
        }
      }
      read_size_variables(*table, field, size, complete);
      if (complete) complete_sizes_.push_back(spec_.sizes.size());
      spec_.sizes.push_back(std::move(size));
    }
    if (!any_timed) {
      error(node->source(), "sizes", "every size case is verify_only",
            "at least one size case without verify_only = true (it is timed)");
    }
  }

  // [strategy_params]: C++ expressions the strategy library's templates substitute (docs/strategies.md); also
  // a stage's `strategy_params` (`parent` the stage's table, `field` its name).
  void read_strategy_params(toml::table const& parent, std::string const& field,
                            std::map<std::string, std::string, std::less<>>& out) {
    auto const* table = table_at(parent, "strategy_params", field, false,
                                 "a table of strategy parameters, e.g. { op = \"x > 0.0f ? x : 0.0f\" }");
    if (table == nullptr) return;
    for (auto const& [key, node] : *table) {
      std::string const key_field = join_field(field, key.str());
      if (!is_identifier(key.str())) {
        error(key.source(), key_field, "is not an identifier", "a C identifier such as op or combine");
        continue;
      }
      auto const* text = node.as_string();
      if (text == nullptr) {
        error(node.source(), key_field, is_a(node), "a string holding a C++ expression");
        continue;
      }
      if (text->get().empty() || text->get().find('\n') != std::string::npos) {
        error(node.source(), key_field, "is empty or spans several lines", "a one-line C++ expression");
        continue;
      }
      out[std::string(key.str())] = text->get();
    }
  }

  // [binding]: role = "parameter" | "integer expression over the integer scalars" | number | "x + start";
  // also a stage's `binding`, whose values `string_problem` checks (what is wrong with one, or empty).
  void read_binding(toml::table const& parent, std::string const& field, std::string const& expected,
                    std::function<std::string(std::string const&)> const& string_problem,
                    std::map<std::string, std::string, std::less<>>& out) {
    auto const* table = table_at(parent, "binding", field, false,
                                 "a table of contract roles, e.g. { out = \"y\", cols = 2048 }");
    if (table == nullptr) return;
    for (auto const& [key, node] : *table) {
      std::string const key_field = join_field(field, key.str());
      if (!is_identifier(key.str())) {
        error(key.source(), key_field, "is not an identifier", "a role name of the strategies' contracts");
        continue;
      }
      std::string value;
      if (auto const* integer = node.as_integer()) {
        value = std::to_string(integer->get());
      } else if (auto const* floating = node.as_floating_point()) {
        value = fmt::format("{}", floating->get());
      } else if (auto const* text = node.as_string()) {
        value = std::string(trim(text->get()));
        if (std::string const problem = string_problem(value); !problem.empty()) {
          error(node.source(), key_field, "'" + text->get() + "' " + problem, expected);
          continue;
        }
      } else {
        error(node.source(), key_field, is_a(node), expected);
        continue;
      }
      out[std::string(key.str())] = value;
    }
  }

  // What is wrong with a top-level [binding] value written as a string, or empty.
  std::string binding_problem(std::string const& value) const {
    if (auto const variable = size_variable_in(value)) {
      return "uses '" + *variable +
             "', a per-size variable (never passed to a kernel, so a strategy cannot be given it)";
    }
    return binding_value_ok(value) ? std::string() : "is neither a parameter nor such an expression";
  }

  // ---- chains: [[intermediates]] and [[stages]] (docs/task-format.md, "Chains") ----------------------

  toml::array const* tables_at(std::string_view key, std::string_view expected) {
    auto const* node = root_.get(key);
    if (node == nullptr) return nullptr;
    auto const* array = node->as_array();
    if (array == nullptr || array->empty() ||
        !std::all_of(array->begin(), array->end(), [](toml::node const& n) { return n.is_table(); })) {
      error(node->source(), key, array == nullptr ? is_a(*node) : "is not one or more tables", expected);
      return nullptr;
    }
    return array;
  }

  void read_chain() {
    auto const* intermediates =
        tables_at("intermediates", "one or more [[intermediates]] tables with name and length");
    auto const* stages = tables_at("stages", "one or more [[stages]] tables with family, reads and writes");
    if (stages == nullptr) {
      if (intermediates != nullptr)
        error(root_.get("intermediates")->source(), "intermediates", "given without [[stages]]",
              "[[stages]] that write and read them, or no [[intermediates]]");
      return;
    }
    for (std::string_view const key : {"family", "strategy_params", "binding"}) {
      if (auto const* node = root_.get(key)) {
        error(node->source(), key, "given with [[stages]]",
              "no top-level " + std::string(key) + " in a chain: each stage has its own");
      }
    }
    if (!have_signature_) return;
    if (intermediates != nullptr) {
      for (std::size_t i = 0; i < intermediates->size(); ++i)
        read_intermediate(*(*intermediates)[i].as_table(), "intermediates[" + std::to_string(i) + "]");
    }
    for (std::size_t i = 0; i < stages->size(); ++i)
      read_stage(*(*stages)[i].as_table(), "stages[" + std::to_string(i) + "]");
    check_chain_flow(*stages);
  }

  void read_intermediate(toml::table const& table, std::string const& field) {
    check_keys(diag_, table, field, {"name", "length", "dtype"});
    IntermediateSpec spec;
    if (auto name =
            string_at(table, "name", join_field(field, "name"), true, "an identifier such as \"t0\"")) {
      if (!is_identifier(*name) || find_param(*name) != nullptr || find_intermediate(*name) != nullptr) {
        error(table.get("name")->source(), join_field(field, "name"),
              "'" + *name + "' is not an identifier, or names a launcher parameter or another intermediate",
              "a new identifier such as \"t0\"");
        return;
      }
      spec.name = *name;
    } else {
      return;
    }
    std::string const length_field = join_field(field, "length");
    auto const* length = table.get("length");
    if (length == nullptr) {
      error(table.source(), length_field, "missing", "the element count as " + expr_expectation());
      return;
    }
    auto expr = read_expr(*length, length_field);
    if (!expr) return;
    if (auto const variable = size_variable_in(expr->text())) {
      error(length->source(), length_field,
            "uses '" + *variable + "', a per-size variable (the chain sizes its buffers in the launcher)",
            "an integer expression over the launcher's integer scalars");
      return;
    }
    spec.length = std::move(*expr);
    deferred_.push_back({length_field, length->source(), spec.length, 0, "a length >= 0"});
    auto const first_output = std::find_if(spec_.buffers.begin(), spec_.buffers.end(),
                                           [](BufferSpec const& b) { return b.role == Role::output; });
    spec.dtype = first_output != spec_.buffers.end() ? first_output->dtype : DType::f32;
    if (auto dtype = string_at(table, "dtype", join_field(field, "dtype"), false, "a dtype name")) {
      auto parsed = dtype_from_string(*dtype);
      if (!parsed) {
        error(table.get("dtype")->source(), join_field(field, "dtype"), "unknown dtype '" + *dtype + "'",
              "one of " + all_dtype_names());
        return;
      }
      spec.dtype = *parsed;
    }
    spec_.intermediates.push_back(std::move(spec));
  }

  IntermediateSpec const* find_intermediate(std::string_view name) const {
    auto const it = std::find_if(spec_.intermediates.begin(), spec_.intermediates.end(),
                                 [&](IntermediateSpec const& t) { return t.name == name; });
    return it != spec_.intermediates.end() ? &*it : nullptr;
  }

  // A stage's `reads` or `writes`: launcher pointer parameters and intermediates, each once.
  std::vector<std::string> stage_buffers(toml::table const& table, std::string_view key,
                                         std::string const& field, std::vector<std::string> const& taken) {
    std::string const expected =
        "an array of names, each a pointer parameter of the launcher or an [[intermediates]] name, once per "
        "stage";
    std::vector<std::string> names;
    auto const* node = table.get(key);
    if (node == nullptr) {
      error(table.source(), field, "missing", expected);
      return names;
    }
    auto const* array = node->as_array();
    if (array == nullptr || array->empty()) {
      error(node->source(), field, array == nullptr ? is_a(*node) : "is empty", expected);
      return names;
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      auto const* name = (*array)[i].as_string();
      std::string const item = field + "[" + std::to_string(i) + "]";
      if (name == nullptr) {
        error((*array)[i].source(), item, is_a((*array)[i]), expected);
        continue;
      }
      std::string const text = name->get();
      bool const known = is_pointer_param(text) || find_intermediate(text) != nullptr;
      bool const repeated = std::find(names.begin(), names.end(), text) != names.end() ||
                            std::find(taken.begin(), taken.end(), text) != taken.end();
      if (!known || repeated) {
        error((*array)[i].source(), item,
              "'" + text +
                  (known ? "' is named twice by the stage (in place is not supported)" : "' is unknown"),
              expected);
        continue;
      }
      names.push_back(text);
    }
    return names;
  }

  void read_stage(toml::table const& table, std::string const& field) {
    check_keys(diag_, table, field, {"family", "reads", "writes", "strategy_params", "binding"});
    StageSpec stage;
    if (auto family = string_at(table, "family", join_field(field, "family"), true,
                                "a family name string such as \"row_softmax\"")) {
      stage.family = *family;
    }
    stage.reads = stage_buffers(table, "reads", join_field(field, "reads"), {});
    stage.writes = stage_buffers(table, "writes", join_field(field, "writes"), stage.reads);
    read_strategy_params(table, join_field(field, "strategy_params"), stage.strategy_params);
    auto const stage_problem = [&](std::string const& value) -> std::string {
      bool const names_buffer =
          std::find(stage.reads.begin(), stage.reads.end(), value) != stage.reads.end() ||
          std::find(stage.writes.begin(), stage.writes.end(), value) != stage.writes.end();
      bool const scalar_expression = !is_pointer_param(value) && find_intermediate(value) == nullptr &&
                                     !parse_pointer_slice(spec_.signature, value) &&
                                     binding_problem(value).empty();
      return names_buffer || scalar_expression ? std::string() : "is not a value a stage's role can take";
    };
    read_binding(table, join_field(field, "binding"),
                 "a name of the stage's reads or writes, an integer expression over the launcher's integer "
                 "scalars, or "
                 "a number",
                 stage_problem, stage.binding);
    spec_.stages.push_back(std::move(stage));
  }

  // Every launcher buffer read or written, each output written once, each intermediate written by one stage
  // and read only after it; launcher inputs never written.
  void check_chain_flow(toml::array const& stages) {
    if (!diag_.ok() || spec_.stages.size() != stages.size()) return;
    std::map<std::string, std::size_t, std::less<>> writer;
    for (std::size_t i = 0; i < spec_.stages.size(); ++i) {
      std::string const field = "stages[" + std::to_string(i) + "]";
      auto const& where = stages[i].source();
      for (std::string const& name : spec_.stages[i].reads) {
        BufferSpec const* buffer = spec_.find_buffer(name);
        if (buffer != nullptr && buffer->role != Role::input) {
          error(where, join_field(field, "reads"), "reads '" + name + "', which the launcher writes",
                "only the launcher's inputs and intermediates written by an earlier stage");
        } else if (buffer == nullptr && !writer.contains(name)) {
          error(where, join_field(field, "reads"), "reads '" + name + "' before any stage writes it",
                "an intermediate written by an earlier stage");
        }
      }
      for (std::string const& name : spec_.stages[i].writes) {
        BufferSpec const* buffer = spec_.find_buffer(name);
        if (buffer != nullptr && buffer->role != Role::output) {
          error(where, join_field(field, "writes"),
                "writes '" + name + "', which is the launcher's " + std::string(to_string(buffer->role)),
                "intermediates and the launcher's outputs (a chain cannot update an inout buffer)");
        } else if (!writer.emplace(name, i).second) {
          error(where, join_field(field, "writes"), "writes '" + name + "', which an earlier stage writes",
                "each output and intermediate written by one stage");
        }
      }
    }
    auto const used = [&](std::string const& name) {
      return std::any_of(spec_.stages.begin(), spec_.stages.end(), [&](StageSpec const& s) {
        return std::find(s.reads.begin(), s.reads.end(), name) != s.reads.end();
      });
    };
    for (BufferSpec const& buffer : spec_.buffers) {
      bool const ok = buffer.role == Role::input ? used(buffer.name) : writer.contains(buffer.name);
      if (!ok) {
        error(stages.source(), "stages",
              "no stage " + std::string(buffer.role == Role::input ? "reads" : "writes") +
                  " the launcher's '" + buffer.name + "'",
              "every pointer parameter read (an input) or written (an output) by a stage");
      }
    }
    for (IntermediateSpec const& t : spec_.intermediates) {
      if (!writer.contains(t.name) || !used(t.name)) {
        error(stages.source(), "stages", "the intermediate '" + t.name + "' is not written and then read",
              "each intermediate written by one stage and read by a later one");
      }
    }
  }

  std::optional<std::string> size_variable_in(std::string const& value) const {
    auto expr = Expr::parse(value);
    if (!expr) return std::nullopt;
    for (std::string const& name : expr->identifiers()) {
      if (std::find(size_variables_.begin(), size_variables_.end(), name) != size_variables_.end())
        return name;
    }
    return std::nullopt;
  }

  bool binding_value_ok(std::string const& value) const {
    auto const& params = spec_.signature.params;
    if (std::any_of(params.begin(), params.end(), [&](Param const& p) { return p.name == value; }))
      return true;
    if (parse_pointer_slice(spec_.signature, value)) return true;  // "x + start": a slice of a buffer
    auto expr = Expr::parse(value);
    if (!expr) return false;
    for (std::string const& name : expr->identifiers()) {
      bool const integer_scalar =
          std::any_of(spec_.scalars.begin(), spec_.scalars.end(),
                      [&](ScalarSpec const& s) { return s.name == name && !is_floating(s.dtype); });
      if (!integer_scalar) return false;
    }
    return true;
  }

  void read_tolerance() {
    auto const* table = table_at(root_, "tolerance", "tolerance", false, "a table of per-dtype tolerances");
    if (table == nullptr) return;
    for (auto const& [key, node] : *table) {
      std::string field = join_field("tolerance", key.str());
      auto dtype = dtype_from_string(key.str());
      if (!dtype) {
        error(key.source(), field, "unknown dtype '" + std::string(key.str()) + "'",
              "one of " + all_dtype_names());
        continue;
      }
      auto const* entry = node.as_table();
      if (entry == nullptr) {
        error(node.source(), field, is_a(node), "a table such as { atol = 1e-5, rtol = 1e-5 }");
        continue;
      }
      check_keys(diag_, *entry, field, {"atol", "rtol", "mismatch_fraction"});
      ToleranceSpec tol = default_tolerance(*dtype);
      bool ok = true;
      for (auto [name, target] : {std::pair{"atol", &tol.atol}, std::pair{"rtol", &tol.rtol}}) {
        if (auto const* value = entry->get(name)) {
          auto number = read_number(*value, join_field(field, name), "a number >= 0");
          if (number && *number < 0.0) {
            error(value->source(), join_field(field, name), "is negative", "a number >= 0");
            number.reset();
          }
          if (number) {
            *target = *number;
          } else {
            ok = false;
          }
        }
      }
      if (auto const* value = entry->get("mismatch_fraction")) {
        std::string fraction_field = join_field(field, "mismatch_fraction");
        auto number = read_number(*value, fraction_field, "a number in [0, 1)");
        if (number && (*number < 0.0 || *number >= 1.0)) {
          error(value->source(), fraction_field, "is out of range", "a number in [0, 1)");
          number.reset();
        }
        if (number) {
          tol.mismatch_fraction = *number;
        } else {
          ok = false;
        }
      }
      if (ok) spec_.tolerance[*dtype] = tol;
    }
  }

  // [reference] or [baseline]: `source = "<file>.cu"` (a CUDA launcher) or, for the reference only,
  // `torch = "<problem>.py"` with `precision` (a PyTorch module, docs/pytorch.md).
  std::optional<SourceSpec> read_source(std::string const& section, bool required, bool torch_allowed) {
    std::string const expected =
        torch_allowed
            ? "a table with source = \"<file>.cu\" or torch = \"<problem>.py\" (relative to the task folder)"
            : "a table with source = \"<file>.cu\" (relative to the task folder)";
    auto const* table = table_at(root_, section, section, required, expected);
    if (table == nullptr) return std::nullopt;
    SourceSpec source;
    std::string key = "source";
    if (torch_allowed && table->get("torch") != nullptr) {
      check_keys(diag_, *table, section, {"torch", "precision"});
      if (table->get("source") != nullptr)
        error(table->get("source")->source(), join_field(section, "source"), "is given with torch",
              "either source (a CUDA launcher) or torch (a PyTorch problem), not both");
      key = "torch";
      source.kind = ReferenceKind::torch;
      auto precision = string_at(*table, "precision", join_field(section, "precision"), true,
                                 "\"fp32\" or \"bf16\" (the precision of the PyTorch problem's tensors)");
      if (precision && *precision != "fp32" && *precision != "bf16") {
        error(table->get("precision")->source(), join_field(section, "precision"), "is '" + *precision + "'",
              "\"fp32\" or \"bf16\"");
        return std::nullopt;
      }
      if (!precision) return std::nullopt;
      source.precision = *precision;
    } else {
      check_keys(diag_, *table, section, {"source", "libraries"});
    }
    bool ok = true;
    auto path =
        string_at(*table, key, join_field(section, key), true,
                  key == "torch" ? "a .py file (a KernelBench-format problem) relative to the task folder"
                                 : "a .cu file path relative to the task folder");
    if (path) {
      std::filesystem::path resolved(*path);
      if (resolved.is_relative()) resolved = dir_ / resolved;
      resolved = resolved.lexically_normal();
      std::error_code ec;
      if (path->empty() || !std::filesystem::is_regular_file(resolved, ec)) {
        error(table->get(key)->source(), join_field(section, key),
              "file '" + *path + "' not found (looked for " + resolved.string() + ")",
              "an existing file, relative to the task folder " + dir_.string());
        ok = false;
      }
      source.path = resolved;
    } else {
      ok = false;
    }
    if (auto const* node = table->get("libraries")) {
      std::string field = join_field(section, "libraries");
      if (auto const* list = node->as_array()) {
        for (std::size_t i = 0; i < list->size(); ++i) {
          auto const* str = (*list)[i].as_string();
          if (str == nullptr || str->get().empty()) {
            error((*list)[i].source(), field + "[" + std::to_string(i) + "]",
                  str == nullptr ? is_a((*list)[i]) : "is empty", "a library name such as \"cublas\"");
            ok = false;
          } else {
            source.libraries.push_back(str->get());
          }
        }
      } else {
        error(node->source(), field, is_a(*node), "an array of library names such as [\"cublas\"]");
        ok = false;
      }
    }
    if (!ok) return std::nullopt;
    return source;
  }

  void read_work() {
    auto const* table = table_at(root_, "work", "work", false, "a table with bytes and flops expressions");
    if (table == nullptr) return;
    check_keys(diag_, *table, "work", {"bytes", "flops", "math"});
    if (auto const* node = table->get("math")) {
      auto const* value = node->as_string();
      std::string_view const text = value != nullptr ? std::string_view(value->get()) : std::string_view();
      if (text == "fp32") {
        spec_.work.math = WorkMath::fp32;
      } else if (text == "tensor") {
        spec_.work.math = WorkMath::tensor;
      } else {
        error(node->source(), "work.math", value != nullptr ? "is '" + std::string(text) + "'" : is_a(*node),
              "\"fp32\" (CUDA-core FP32 math) or \"tensor\" (tensor cores)");
      }
    }
    for (auto [name, target] :
         {std::pair{"bytes", &spec_.work.bytes}, std::pair{"flops", &spec_.work.flops}}) {
      if (auto const* node = table->get(name)) {
        std::string field = join_field("work", name);
        if (auto expr = read_expr(*node, field)) {
          deferred_.push_back({field, node->source(), *expr, 0, "a value >= 0"});
          *target = std::move(*expr);
        }
      }
    }
  }

  std::vector<Expr> read_dims(toml::table const& table, std::string_view key, std::string const& field) {
    std::string const expected = "1 to 3 integer expressions, e.g. [\"ceil_div(N, 256)\"]";
    std::vector<Expr> dims;
    auto const* node = table.get(key);
    if (node == nullptr) {
      error(table.source(), field, "missing", expected);
      return dims;
    }
    auto add = [&](toml::node const& item, std::string const& item_field) {
      if (auto expr = read_expr(item, item_field)) {
        deferred_.push_back({item_field, item.source(), *expr, 1, "a dimension >= 1"});
        dims.push_back(std::move(*expr));
      }
    };
    if (auto const* list = node->as_array()) {
      if (list->empty() || list->size() > 3) {
        error(node->source(), field, "has " + std::to_string(list->size()) + " dimensions", expected);
        return dims;
      }
      for (std::size_t i = 0; i < list->size(); ++i) add((*list)[i], field + "[" + std::to_string(i) + "]");
    } else {
      add(*node, field);
    }
    return dims;
  }

  void read_launch() {
    auto const* table = table_at(root_, "launch", "launch", false, "a table with grid and block expressions");
    if (table == nullptr) return;
    check_keys(diag_, *table, "launch", {"kernel", "grid", "block", "shared_bytes"});
    LaunchSpec launch;
    launch.kernel = spec_.signature.function;
    if (auto kernel = string_at(*table, "kernel", "launch.kernel", false, "a __global__ function name")) {
      if (!is_identifier(*kernel)) {
        error(table->get("kernel")->source(), "launch.kernel", "'" + *kernel + "' is not a C identifier",
              "a __global__ function name");
      }
      launch.kernel = *kernel;
    }
    launch.grid = read_dims(*table, "grid", "launch.grid");
    launch.block = read_dims(*table, "block", "launch.block");
    if (auto const* shared = table->get("shared_bytes")) {
      if (auto expr = read_expr(*shared, "launch.shared_bytes")) {
        deferred_.push_back({"launch.shared_bytes", shared->source(), *expr, 0, "a byte count >= 0"});
        launch.shared_bytes = std::move(*expr);
      }
    }
    spec_.launch = std::move(launch);
  }

  void check_outputs() {
    if (!have_signature_) return;
    for (auto const& buffer : spec_.buffers) {
      if (is_compared(buffer.role)) return;
    }
    // Missing buffer tables are reported on their own; only complain when all buffers are there.
    auto pointers = std::count_if(spec_.signature.params.begin(), spec_.signature.params.end(),
                                  [](Param const& p) { return p.is_pointer; });
    if (spec_.buffers.size() < static_cast<std::size_t>(pointers)) return;
    auto const* buffers = root_.get("buffers");
    error(buffers != nullptr ? buffers->source() : root_.source(), "buffers",
          "no buffer is written by the kernel and compared with the reference (scratch is not compared)",
          "at least one output or inout buffer (a non-const pointer, or role = \"output\"/\"inout\")");
  }

  void check_sizes_evaluate() {
    if (!diag_.ok()) return;  // only meaningful on an otherwise valid spec
    for (auto index : complete_sizes_) {
      auto const& size = spec_.sizes[index];
      ScalarEnv env = spec_.env_for(size);
      for (auto const& check : deferred_) {
        auto value = check.expr.evaluate(env);
        if (!value.ok()) {
          error(check.where, check.field, "for size '" + size.name + "': " + value.error().message,
                check.expected);
        } else if (*value < check.minimum) {
          error(check.where, check.field,
                "'" + check.expr.text() + "' is " + std::to_string(*value) + " for size '" + size.name + "'",
                check.expected);
        }
      }
    }
  }

  SpecDiagnostics& diag_;
  toml::table const& root_;
  std::filesystem::path dir_;
  TaskSpec spec_;
  bool have_signature_ = false;
  std::vector<std::string> int_scalars_;
  std::vector<std::string> float_scalars_;
  std::vector<std::string> size_variables_;  // every size case's `variables` names, in first-seen order
  std::map<std::string, ScalarValue> scalar_defaults_;
  std::set<std::string> has_own_generator_;
  std::vector<std::size_t> complete_sizes_;
  std::vector<DeferredCheck> deferred_;
};

std::filesystem::path absolute_or_same(std::filesystem::path const& path) {
  std::error_code ec;
  auto absolute = std::filesystem::absolute(path, ec);
  return ec ? path.lexically_normal() : absolute.lexically_normal();
}

}  // namespace

Result<TaskSpec> parse_task(std::string const& toml_text, std::filesystem::path const& origin,
                            std::filesystem::path const& dir) {
  SpecDiagnostics diag(origin.string());
  if (auto problem = task_detail::precheck_toml(toml_text)) {
    toml::source_region where;
    where.begin = {problem->line, problem->column};
    diag.error(where, "", problem->what, problem->expected);
    return diag.to_error();
  }
  toml::table root;
  try {
    root = toml::parse(toml_text, origin.string());
  } catch (toml::parse_error const& e) {
    diag.error(e.source(), "", "invalid TOML: " + std::string(e.description()),
               "valid TOML (https://toml.io)");
    return diag.to_error();
  }
  auto abs_dir = absolute_or_same(dir.empty() ? std::filesystem::path(".") : dir);
  TaskSpec spec = TaskLoader(diag, root, abs_dir).load();
  if (!diag.ok()) return diag.to_error();
  spec.dir = abs_dir;
  spec.spec_file = origin.is_absolute() ? origin.lexically_normal() : abs_dir / origin.filename();
  return spec;
}

Result<TaskSpec> load_task(std::filesystem::path const& dir_or_file) {
  std::error_code ec;
  std::filesystem::path file = dir_or_file;
  if (std::filesystem::is_directory(dir_or_file, ec)) file = dir_or_file / "task.toml";
  if (!std::filesystem::is_regular_file(file, ec)) {
    return make_error(ErrorCode::not_found, file.string() +
                                                ": task spec not found; expected a task folder holding "
                                                "task.toml (create one with `kopt init`)");
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) {
    return make_error(ErrorCode::io_error, file.string() + ": could not be read");
  }
  auto absolute = absolute_or_same(file);
  return parse_task(text.str(), absolute, absolute.parent_path());
}

}  // namespace kopt
