#include <algorithm>
#include <map>
#include <set>

#include "inputs/generator_catalog.hpp"
#include "inputs/generator_params.hpp"
#include "kopt/inputs.hpp"

namespace kopt {
namespace {

class GeneratorChecker {
 public:
  explicit GeneratorChecker(TaskSpec const& task) : task_(task), label_(spec_label(task)) {
    for (auto const& scalar : task.scalars) {
      if (!is_floating(scalar.dtype)) integer_scalars_.insert(scalar.name);
    }
    // A size case's variables read like integer scalars (docs/task-format.md, "Per-size variables").
    for (auto const& size : task.sizes) {
      for (auto const& [name, value] : size.variables) integer_scalars_.insert(name);
    }
  }

  Status check() {
    for (auto const& buffer : task_.buffers) {
      if (!has_initial_contents(buffer.role) && !buffer.generators.empty()) {
        return fail(buffer_generator_field(buffer, 0),
                    "buffer '" + buffer.name + "' is an " + std::string(to_string(buffer.role)) +
                        " buffer, which is never generated; expected no generator, or role \"inout\"");
      }
      for (std::size_t k = 0; k < buffer.generators.size(); ++k) {
        auto ok = check_buffer_generator(buffer, buffer.generators[k], buffer_generator_field(buffer, k));
        if (!ok) return ok;
      }
    }
    std::map<std::string, std::string> claimed;  // buffer -> structured generator
    for (auto const& [name, spec] : task_.structured_generators) {
      auto ok = check_structured(name, spec, claimed);
      if (!ok) return ok;
    }
    return Ok{};
  }

 private:
  Error fail(std::string const& field, std::string const& message) const {
    return make_error(ErrorCode::invalid_spec, label_ + ": " + field + ": " + message);
  }

  Status check_buffer_generator(BufferSpec const& buffer, GeneratorSpec const& spec,
                                std::string const& field) {
    auto const* kind = find_generator_kind(spec.kind);
    if (kind == nullptr) {
      return fail(field, "unknown kind '" + spec.kind + "'; expected one of " + kind_list(false));
    }
    if (kind->structured) {
      return fail(field, "kind '" + spec.kind +
                             "' fills several buffers; declare it as [generators.<name>] with "
                             "targets, or use one of " +
                             kind_list(false));
    }
    if (!spec.targets.empty()) return fail(field, "targets are only allowed in structured generators");
    if (kind->floating_only && !is_floating(buffer.dtype)) {
      return fail(field, "kind '" + spec.kind + "' needs a floating-point buffer, but '" + buffer.name +
                             "' is " + std::string(to_string(buffer.dtype)));
    }
    return check_params(*kind, spec, field);
  }

  Status check_structured(std::string const& name, GeneratorSpec const& spec,
                          std::map<std::string, std::string>& claimed) {
    std::string const field = "generators." + name;
    auto const* kind = find_generator_kind(spec.kind);
    if (kind == nullptr || !kind->structured) {
      std::string const what = kind == nullptr ? "unknown kind '" + spec.kind + "'"
                                               : "kind '" + spec.kind +
                                                     "' fills a single buffer (give it in "
                                                     "[buffers.<name>] as generator)";
      return fail(field, what + "; expected one of " + kind_list(true));
    }
    if (auto ok = check_params(*kind, spec, field); !ok) return ok;
    std::string const targets_field = field + ".targets";
    for (auto const& [role, buffer_name] : spec.targets) {
      if (std::find(kind->targets.begin(), kind->targets.end(), role) == kind->targets.end()) {
        return fail(targets_field, "unknown target '" + role + "' for kind '" + spec.kind + "'; expected " +
                                       join_names(kind->targets));
      }
      auto const* buffer = task_.find_buffer(buffer_name);
      if (buffer == nullptr) return fail(targets_field + "." + role, "'" + buffer_name + "' is not a buffer");
      if (!has_initial_contents(buffer->role)) {
        return fail(targets_field + "." + role, "'" + buffer_name + "' is an " +
                                                    std::string(to_string(buffer->role)) +
                                                    " buffer; expected an input or inout buffer");
      }
      if (!buffer->generators.empty()) {
        return fail(targets_field + "." + role, "'" + buffer_name +
                                                    "' also has its own generator; expected each "
                                                    "buffer filled by exactly one generator");
      }
      auto const [it, inserted] = claimed.emplace(buffer_name, name);
      if (!inserted) {
        return fail(targets_field + "." + role,
                    "'" + buffer_name + "' is already filled by [generators." + it->second + "]");
      }
    }
    for (auto role : kind->targets) {
      if (!spec.targets.contains(std::string(role))) {
        return fail(targets_field, "missing target '" + std::string(role) + "' for kind '" + spec.kind +
                                       "'; expected targets " + join_names(kind->targets));
      }
    }
    return Ok{};
  }

  Status check_params(GeneratorKind const& kind, GeneratorSpec const& spec, std::string const& field) {
    for (auto const& [name, value] : spec.params) {
      bool const known = std::find(kind.required.begin(), kind.required.end(), name) != kind.required.end() ||
                         std::find(kind.optional.begin(), kind.optional.end(), name) != kind.optional.end();
      if (!known) {
        std::vector<std::string_view> names = kind.required;
        names.insert(names.end(), kind.optional.begin(), kind.optional.end());
        return fail(field, "unknown parameter '" + name + "' for kind '" + spec.kind + "'; expected " +
                               (names.empty() ? std::string("no parameters") : join_names(names)));
      }
      if (name == "row_lengths") {
        auto const* text = std::get_if<std::string>(&value);
        if (text == nullptr || (*text != "uniform" && *text != "power_law")) {
          return fail(field + "." + name, "expected \"uniform\" or \"power_law\"");
        }
        continue;
      }
      auto const* text = std::get_if<std::string>(&value);
      if (text == nullptr || parse_number(*text)) continue;
      auto expr = Expr::parse(*text);
      if (!expr) return fail(field + "." + name, expr.error().message);
      for (auto const& identifier : expr->identifiers()) {
        if (!integer_scalars_.contains(identifier)) {
          std::vector<std::string_view> names(integer_scalars_.begin(), integer_scalars_.end());
          return fail(field + "." + name,
                      "unknown scalar '" + identifier + "' in \"" + *text + "\"; expected " +
                          (names.empty() ? std::string("a number (the task has no integer "
                                                       "scalars)")
                                         : "one of " + join_names(names)));
        }
      }
    }
    for (auto required : kind.required) {
      if (!spec.params.contains(std::string(required))) {
        return fail(field, "missing parameter '" + std::string(required) + "' for kind '" + spec.kind + "'");
      }
    }
    return Ok{};
  }

  TaskSpec const& task_;
  std::string label_;
  std::set<std::string> integer_scalars_;
};

}  // namespace

Status validate_generators(TaskSpec const& task) {
  return GeneratorChecker(task).check();
}

}  // namespace kopt
