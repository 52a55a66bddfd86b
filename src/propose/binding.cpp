// Binding a strategy's contract to a task (docs/strategies.md, "Binding"): the roles of the contract (the
// parameter names of the strategy's `signature`) are filled with the task's parameters by type, and the
// assignments that the buffers' lengths allow are ranked by how plausible they are.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "kopt/propose.hpp"
#include "kopt/text.hpp"
#include "propose/contract.hpp"

namespace kopt {
namespace {

constexpr int kIdentityBonus = 100;            // the task's entry is the contract itself
constexpr std::size_t kMaxAssignments = 4096;  // complete assignments looked at per element type
// Partial assignments (nodes of the search) per element type. A contract with many sizes whose buffers'
// lengths name most of them (conv2d_nchw_strided: thirteen, y's length twelve) is pruned by those lengths
// only when the last of them is assigned: its tree has millions of nodes short of the first complete
// assignment, and `kopt strategies` spun for minutes. The roles' own names are tried first, so the binding a
// task names is among the first found; the cap ends the rest.
constexpr std::size_t kMaxNodes = std::size_t{1} << 15;

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Whether the parameter's name contains the role's, ignoring case and underscores, for roles of three
// letters or more: `epsilon` holds eps, `resultRunningMean` holds running_mean (cuDNN's names).
bool contains_name(std::string_view parameter, std::string_view role) {
  auto const squeezed = [](std::string_view text) {
    std::string out;
    for (char c : text) {
      if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
  };
  std::string const r = squeezed(role);
  return r.size() >= 3 && squeezed(parameter).find(r) != std::string::npos;
}

// Whether role `second` is the next-axis twin of role `first`: the same name with its last axis letter moved
// one axis on, depth to height or height to width (KW of KH, SW of SH, OPW of OPH, W of H; KH of KD, SH of
// SD, H of D).
bool axis_twin(std::string_view first, std::string_view second) {
  if (first.size() != second.size() || first.empty()) return false;
  auto const moved = [&](char from, char to) {
    std::size_t const at = first.rfind(from);
    return at != std::string_view::npos && second.substr(0, at) == first.substr(0, at) && second[at] == to &&
           second.substr(at + 1) == first.substr(at + 1);
  };
  return moved('H', 'W') || moved('D', 'H');
}

// A role's name with its last axis letter (D, H or W) made a '*': the roles of one kind across the axes share
// it (KD, KH, KW: K*; DD, DH, DW: D*; OPH, OPW: OP*), roles of different kinds do not (PH: P* and DH: D*).
std::string axis_stem(std::string_view role) {
  std::string stem(role);
  std::size_t const at = stem.find_last_of("DHW");
  if (at != std::string::npos) stem[at] = '*';
  return stem;
}

// The names a launcher would give the next-axis twin of its parameter `name` (kernel_h: kernel_w; kh: kw;
// height: width; in_rows: in_cols; kernel_d: kernel_h; depth: height; and ATen's time axis, kT: kH,
// itime: iheight, dilationT: dilationH); none for a name without an axis marker (kernel_size, stride).
std::vector<std::string> twin_names(std::string_view name) {
  std::string const lower = ascii_lower(name);
  std::vector<std::string> out;
  auto const swap_suffix = [&](std::string_view from, std::string_view to) {
    if (lower.size() > from.size() && lower.ends_with(from))
      out.push_back(lower.substr(0, lower.size() - from.size()) + std::string(to));
  };
  swap_suffix("h", "w");
  swap_suffix("height", "width");
  swap_suffix("rows", "cols");
  swap_suffix("_y", "_x");
  swap_suffix("d", "h");
  swap_suffix("depth", "height");
  swap_suffix("t", "h");
  swap_suffix("time", "height");
  swap_suffix("_z", "_y");
  if (lower == "h") out.emplace_back("w");
  if (lower == "d") out.emplace_back("h");
  return out;
}

// Names people give the two extents of a matrix: a role and a parameter of the same group are likely the
// same size (M and rows, N and width), which ranks sizes passed in another order right.
int extent_group(std::string_view name) {
  std::string const lower = ascii_lower(name);
  static std::set<std::string, std::less<>> const kRows{"m",        "rows",   "row", "nrows", "n_rows",
                                                        "num_rows", "height", "h",   "ny"};
  static std::set<std::string, std::less<>> const kCols{"n",        "cols",  "col", "ncols", "n_cols",
                                                        "num_cols", "width", "w",   "nx"};
  if (kRows.contains(lower)) return 1;
  if (kCols.contains(lower)) return 2;
  return 0;
}

std::string role_text(Param const& p) {
  return fmt::format("'{}' ({})", p.name, p.c_type);
}

// Enumerates the assignments for one element type.
class BindingEnumerator {
 public:
  BindingEnumerator(LibraryStrategy const& strategy, TaskSpec const& task, Signature contract, DType element,
                    std::optional<DType> index)
      : strategy_(strategy), task_(task), contract_(std::move(contract)), element_(element), index_(index) {
    for (SizeCase const& size : task_.sizes) envs_.push_back(task_.env_for(size));
    // Pointers first: an integer role may be read off the length of the buffer a pointer role took.
    for (std::size_t i = 0; i < contract_.params.size(); ++i) {
      if (contract_.params[i].is_pointer) order_.push_back(i);
    }
    for (std::size_t i = 0; i < contract_.params.size(); ++i) {
      if (!contract_.params[i].is_pointer) order_.push_back(i);
    }
    task_updates_ = std::any_of(task_.buffers.begin(), task_.buffers.end(),
                                [](BufferSpec const& b) { return b.role == Role::inout; });
    current_.resize(contract_.params.size());
    assigned_.assign(contract_.params.size(), false);
    offset_inferred_.assign(contract_.params.size(), false);
    // The integer roles each pointer role's length names (`M*N` names M and N).
    length_roles_.resize(contract_.params.size());
    for (std::size_t i = 0; i < contract_.params.size(); ++i) {
      auto const length = strategy_.lengths.find(contract_.params[i].name);
      if (!contract_.params[i].is_pointer || length == strategy_.lengths.end()) continue;
      if (auto expr = Expr::parse(length->second)) length_roles_[i] = expr->identifiers();
    }
  }

  void run(std::vector<StrategyBinding>& out) {
    for (std::size_t i = 0; i < contract_.params.size(); ++i) {
      if (contract_.params[i].is_pointer || task_.binding.contains(contract_.params[i].name)) {
        if (candidates(i).empty()) {
          if (reason_.empty()) reason_ = no_candidate_reason(i);
          return;
        }
      }
    }
    if (std::string const short_of_scalars = float_scalars_short(); !short_of_scalars.empty()) {
      reason_ = short_of_scalars;
      return;
    }
    descend(0, out);
    if (out.empty() && reason_.empty()) {
      // Lengths checked early may have dropped every assignment before one was complete.
      reason_ =
          considered_ == 0 && first_rejection_.empty()
              ? unfilled_reason()
              : fmt::format("{} assignment(s) of its roles considered; {}", considered_, first_rejection_);
    }
  }

  std::size_t considered() const { return considered_; }
  std::string const& reason() const { return reason_; }

 private:
  Param const* task_param(std::string_view name) const {
    for (Param const& p : task_.signature.params) {
      if (p.name == name) return &p;
    }
    return nullptr;
  }

  // How the task uses a pointer parameter: its buffer's role, or from its const-ness when it has no
  // [buffers] entry.
  Role direction_of(Param const& param) const {
    BufferSpec const* buffer = task_.find_buffer(param.name);
    return buffer != nullptr ? buffer->role : (param.is_const ? Role::input : Role::inout);
  }

  // A buffer no role needs to take: the task's scratch (the strategy keeps its own workspace) and an input
  // no output depends on (BufferSpec::affects_outputs: a training BatchNorm's running statistics).
  bool left_alone(Param const& param) const {
    BufferSpec const* buffer = task_.find_buffer(param.name);
    return buffer != nullptr && (buffer->role == Role::scratch || !buffer->affects_outputs);
  }

  // Whether the task reads and writes its buffer `parameter` (an in-place update).
  bool updated_in_place(std::string const& parameter) const {
    Param const* param = task_param(parameter);
    return param != nullptr && param->is_pointer && !param->is_const && direction_of(*param) == Role::inout;
  }

  // Whether the strategy reads role `role` before it writes it (LibraryStrategy::updates).
  bool updated_role(Param const& role) const {
    return std::find(strategy_.updates.begin(), strategy_.updates.end(), role.name) !=
           strategy_.updates.end();
  }

  // Why the contract's floating-point roles cannot each take a scalar of their own: more of them need one
  // (no `[binding]` entry, no default) than the task has floating-point scalars. Empty when they can.
  std::string float_scalars_short() const {
    std::vector<std::string> roles;
    for (Param const& role : contract_.params) {
      if (!role.is_pointer && is_floating(role.dtype) && !task_.binding.contains(role.name) &&
          !strategy_.defaults.contains(role.name))
        roles.push_back(role.name);
    }
    std::vector<std::string> scalars;
    for (Param const& param : task_.signature.params) {
      if (!param.is_pointer && is_floating(param.dtype)) scalars.push_back(param.name);
    }
    if (roles.size() <= scalars.size() || scalars.empty()) return {};  // none: "no parameter fits" says it
    return fmt::format("its floating-point roles {} need {} scalars of the task, which has {} ({})",
                       fmt::join(roles, ", "), roles.size(), scalars.size(), fmt::join(scalars, ", "));
  }

  // Whether another floating-point role already takes the task's scalar `parameter`: one coefficient is
  // not two (a heat step's r as both weights of a weighted stencil), while sizes may repeat (square M = N).
  bool float_scalar_taken(Param const& role, std::string const& parameter) const {
    if (role.is_pointer || !is_floating(role.dtype) || parameter.empty()) return false;
    for (std::size_t i = 0; i < contract_.params.size(); ++i) {
      Param const& other = contract_.params[i];
      if (assigned_[i] && !other.is_pointer && is_floating(other.dtype) && current_[i].parameter == parameter)
        return true;
    }
    return false;
  }

  // Whether `param` can fill `role` by type alone.
  bool fits(Param const& role, Param const& param) const {
    if (param.is_stream) return false;  // the launcher's stream: the adapter launches on it, no role takes it
    // A bool buffer is bytes of 0 and 1: a role that reads uint8_t takes it (a PyTorch bool mask).
    bool const bytes_of_bool = role.is_pointer && param.is_pointer && role.is_const &&
                               role.dtype == DType::u8 && param.dtype == DType::boolean && param.lanes <= 1;
    if (!bytes_of_bool && (role.is_pointer != param.is_pointer || role.dtype != param.dtype)) {
      // An integer role takes any integer scalar, and a float role a double one (the adapter converts it:
      // static_cast in a launcher, `f32(alpha)` in a kernel's arguments).
      if (role.is_pointer || param.is_pointer) return false;
      if (role.dtype == DType::f32 && param.dtype == DType::f64) return true;
      return !is_floating(role.dtype) && !is_floating(param.dtype);
    }
    if (!role.is_pointer) return true;
    if (left_alone(param)) return false;  // the task's own workspace, or an input no output depends on
    Role const direction = direction_of(param);
    if (role.is_const) return direction != Role::output;  // it reads the buffer
    // It reads the buffer, then writes it: the task's inout buffer, or, for a task that updates nothing in
    // place, an output the adapter first fills from an input of the same length (finish() finds it).
    if (updated_role(role)) return direction == Role::inout || (direction == Role::output && !task_updates_);
    return !param.is_const && direction != Role::input;  // it writes the buffer
  }

  std::vector<RoleBinding> candidates(std::size_t index) const {
    Param const& role = contract_.params[index];
    std::vector<RoleBinding> out;
    if (auto const it = task_.binding.find(role.name); it != task_.binding.end()) {
      if (Param const* param = task_param(it->second)) {
        if (fits(role, *param)) out.push_back(RoleBinding{role, param->name, {}, false});
      } else if (auto const slice = parse_pointer_slice(task_.signature, it->second)) {
        // A slice is read, never written: the rest of an output would stay as the evaluator poisoned it.
        Param const* buffer = task_param(slice->pointer);
        if (role.is_pointer && role.is_const && fits(role, *buffer)) {
          RoleBinding r{role, buffer->name, {}, false};
          r.offset = slice->offset;
          out.push_back(std::move(r));
        }
      } else if (!role.is_pointer &&
                 (is_floating(role.dtype) ? is_decimal_number(it->second) : Expr::parse(it->second).ok())) {
        out.push_back(RoleBinding{role, {}, it->second, false});
      }
      return out;
    }
    // A floating-point scalar of the task named as the role is the role's (`eps2`, `alpha`, `G`): no other
    // scalar takes the role then. Sizes are not held to their names (torch.bmm's n, m, p mislead).
    if (!role.is_pointer && is_floating(role.dtype)) {
      for (Param const& param : task_.signature.params) {
        if (same_name(role.name, param.name) && fits(role, param))
          return {RoleBinding{role, param.name, {}, false}};
      }
    }
    for (Param const& param : task_.signature.params) {
      if (fits(role, param)) out.push_back(RoleBinding{role, param.name, {}, false});
    }
    // A role with a default may take it; a task's own scalar ranks above it (the scalar is used).
    if (auto const it = strategy_.defaults.find(role.name); it != strategy_.defaults.end())
      out.push_back(RoleBinding{role, {}, it->second, false});
    return out;
  }

  // Why no complete assignment exists although every role has a candidate: a buffer of the task that no
  // role takes, or roles that would need the same buffer.
  std::string unfilled_reason() const {
    for (Param const& param : task_.signature.params) {
      if (!param.is_pointer || left_alone(param)) continue;
      bool const fits_some = std::any_of(contract_.params.begin(), contract_.params.end(),
                                         [&](Param const& role) { return fits(role, param); });
      if (!fits_some)
        return fmt::format("the task's '{}' ({}) fits no role of the contract", param.name, param.c_type);
    }
    for (Param const& param : task_.signature.params) {
      BufferSpec const* buffer = param.is_pointer ? task_.find_buffer(param.name) : nullptr;
      if (buffer != nullptr && buffer->role == Role::inout && strategy_.in_place.empty()) {
        return fmt::format(
            "the task updates '{}' in place, the strategy does not declare that its output may be its input "
            "(in_place), and the adapter cannot copy the buffer (its length is not over the launcher's "
            "integer parameters)",
            param.name);
      }
    }
    return "its pointer roles would need the same buffer of the task twice";
  }

  std::string no_candidate_reason(std::size_t index) const {
    Param const& role = contract_.params[index];
    if (auto const it = task_.binding.find(role.name); it != task_.binding.end()) {
      return fmt::format("[binding] {} = \"{}\" does not fit the role {}", role.name, it->second,
                         role_text(role));
    }
    if (role.is_pointer) {
      return fmt::format("no parameter of the task fits the role {} ({} {} buffer)", role_text(role),
                         role.is_const ? "an input" : "an output", to_string(role.dtype));
    }
    return fmt::format("no parameter of the task fits the role {}; give it in [binding]", role_text(role));
  }

  void descend(std::size_t depth, std::vector<StrategyBinding>& out) {
    if (considered_ >= kMaxAssignments || visited_ >= kMaxNodes) return;
    ++visited_;
    if (depth == order_.size()) {
      ++considered_;
      finish(out);
      return;
    }
    std::size_t const index = order_[depth];
    Param const& role = contract_.params[index];
    std::vector<RoleBinding> options = candidates(index);
    if (!role.is_pointer && !is_floating(role.dtype) && !task_.binding.contains(role.name)) {
      add_derived(role, options);
      add_size_variables(role, options);
    }
    if (options.empty() && reason_.empty()) reason_ = no_candidate_reason(index);
    // A parameter with the role's name is tried first, then, for a size, the launcher's next integer after
    // the one the previous size took (launchers list a geometry in the contract's order under names of
    // their own: kernel_h, stride_h, pad_h for KH, SH, PH): when a cap is reached, the likely ones have been
    // seen.
    if (auto const after = previous_size_position(depth); !role.is_pointer && after) {
      std::stable_partition(options.begin(), options.end(),
                            [&](RoleBinding const& o) { return position_of(o.parameter) == *after + 1; });
      // An axis's role after its twin of the axis before (KW after KH, KH after KD) takes the same parameter
      // first when the launcher has no twin of it: one kernel_size, stride or padding for every axis, as
      // square and cubic launchers have (trying the next integer first would spend the search's cap on a
      // wrong subtree).
      RoleBinding const& previous = current_[order_[depth - 1]];
      if (axis_twin(previous.role.name, role.name) && !has_axis_twin(previous.parameter)) {
        std::stable_partition(options.begin(), options.end(),
                              [&](RoleBinding const& o) { return o.parameter == previous.parameter; });
      }
    }
    std::stable_partition(options.begin(), options.end(),
                          [&](RoleBinding const& o) { return same_name(role.name, o.parameter); });
    for (RoleBinding const& option : options) {
      // A buffer fills one role, or an output role and the input role it may be updated in place from:
      // the same pointer where the strategy declares it, otherwise a copy a launcher adapter makes.
      std::optional<std::size_t> copied;  // the input role that reads a copy
      if (float_scalar_taken(role, option.parameter)) continue;
      if (role.is_pointer && used_.contains(option.parameter) && !shares_in_place(index, option.parameter)) {
        copied = copy_reader(index, option.parameter);
        if (!copied) continue;
      }
      current_[index] = option;
      offset_inferred_[index] = false;
      assigned_[index] = true;
      if (copied) current_[*copied].copied = true;
      if (role.is_pointer) used_[option.parameter].push_back(index);
      if (decided_lengths_agree(index)) descend(depth + 1, out);
      if (role.is_pointer) {
        auto const holder = used_.find(option.parameter);
        holder->second.pop_back();
        if (holder->second.empty()) used_.erase(holder);
      }
      if (copied) current_[*copied].copied = false;
      assigned_[index] = false;
    }
  }

  // Whether the launcher has a parameter named as the next-axis twin of its parameter `name`.
  bool has_axis_twin(std::string const& name) const {
    auto const names = twin_names(name);
    return std::any_of(task_.signature.params.begin(), task_.signature.params.end(), [&](Param const& p) {
      return std::find(names.begin(), names.end(), ascii_lower(p.name)) != names.end();
    });
  }

  // The position in the launcher of a task parameter (npos for a value that is not one).
  std::size_t position_of(std::string const& parameter) const {
    auto const& params = task_.signature.params;
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (params[i].name == parameter) return i;
    }
    return std::string::npos;
  }

  // The launcher position of the parameter the integer role before `depth` took (none when there is no such
  // role, or it took a value): the next position is the next size's likely one.
  std::optional<std::size_t> previous_size_position(std::size_t depth) const {
    if (depth == 0 || contract_.params[order_[depth - 1]].is_pointer) return std::nullopt;
    std::size_t const at = position_of(current_[order_[depth - 1]].parameter);
    return at == std::string::npos ? std::nullopt : std::optional<std::size_t>(at);
  }

  // Whether role `index` may take the task's buffer `parameter`, which one other role holds already: the
  // two are an output and an input role the strategy declares `in_place`, and the task updates the buffer
  // in place (an inout buffer).
  bool shares_in_place(std::size_t index, std::string const& parameter) const {
    auto const holder = used_.find(parameter);
    if (holder == used_.end() || holder->second.size() != 1) return false;
    if (!updated_in_place(parameter)) return false;
    std::string const& a = contract_.params[index].name;
    std::string const& b = contract_.params[holder->second.front()].name;
    auto const pair = [&](std::string const& written, std::string const& read) {
      auto const it = strategy_.in_place.find(written);
      return it != strategy_.in_place.end() &&
             std::find(it->second.begin(), it->second.end(), read) != it->second.end();
    };
    return pair(a, b) || pair(b, a);
  }

  // When role `index` and the one role holding the task's inout buffer `parameter` are an output and an
  // input role, the input role that will read a copy of the buffer (the adapter copies it before the call;
  // a kernel-mode strategy gets a generated launcher for it); nothing otherwise. The adapter computes the
  // copy's size from the buffer's length, so that length must be an expression over the launcher's integer
  // parameters.
  std::optional<std::size_t> copy_reader(std::size_t index, std::string const& parameter) const {
    auto const holder = used_.find(parameter);
    if (holder == used_.end() || holder->second.size() != 1) return std::nullopt;
    // The copy's size is the buffer's length.
    if (!updated_in_place(parameter) || !length_from_parameters(parameter)) return std::nullopt;
    std::size_t const other = holder->second.front();
    Param const& a = contract_.params[index];
    Param const& b = contract_.params[other];
    if (a.is_const == b.is_const) return std::nullopt;  // one writes the buffer, the other reads it
    return a.is_const ? index : other;
  }

  bool is_assigned(std::string_view role) const {
    for (std::size_t i = 0; i < contract_.params.size(); ++i) {
      if (contract_.params[i].name == role) return assigned_[i];
    }
    return false;
  }

  // Whether the lengths that the roles assigned so far decide agree with the task's: a pointer role's
  // length is checked as soon as the role and every integer role its length names are assigned, once
  // (when the last of them, `newest`, is), so that a wrong choice is dropped before the roles after it
  // are enumerated. Without it a contract of six buffers and four sizes (batch norm) has more complete
  // assignments than the cap, and the right one may never be reached.
  bool decided_lengths_agree(std::size_t newest) {
    std::string const& newest_name = contract_.params[newest].name;
    for (std::size_t i = 0; i < contract_.params.size(); ++i) {
      if (!contract_.params[i].is_pointer || !assigned_[i]) continue;
      if (!strategy_.lengths.contains(contract_.params[i].name)) continue;
      std::vector<std::string> const& needs = length_roles_[i];
      if (!std::all_of(needs.begin(), needs.end(), [&](std::string const& n) { return is_assigned(n); }))
        continue;
      if (i != newest && std::find(needs.begin(), needs.end(), newest_name) == needs.end()) continue;
      if (offset_inferred_[i]) {  // read off the lengths the integer roles gave before: read it again
        current_[i].offset.clear();
        offset_inferred_[i] = false;
      }
      for (std::size_t s = 0; s < envs_.size(); ++s) {
        if (auto mismatch = length_mismatch(i, s)) {
          if (infer_offset(i)) break;
          note_rejection(std::move(*mismatch));
          return false;
        }
      }
    }
    return true;
  }

  // A slice for input role i whose buffer is longer than the role covers: an integer scalar of the
  // launcher that is exactly the difference on every size case (`sum(x, start, n)` over a buffer of
  // start + n) is the slice's offset. The role must not have been given in [binding] (a slice there is the
  // user's) nor read a copy.
  bool infer_offset(std::size_t i) {
    Param const& role = contract_.params[i];
    RoleBinding& r = current_[i];
    if (!role.is_pointer || !role.is_const || r.copied || !r.offset.empty() ||
        task_.binding.contains(role.name))
      return false;
    for (Param const& p : task_.signature.params) {
      if (!p.is_scalar() || is_floating(p.dtype)) continue;
      bool fits_every_case = true;
      for (std::size_t s = 0; s < envs_.size() && fits_every_case; ++s) {
        auto const start = envs_[s].find(p.name);
        auto const span = role_span(i, s);
        fits_every_case = start != envs_[s].end() && span && start->second > 0 && span->first > 0 &&
                          start->second * lanes_of(r.parameter) + span->first == span->second;
      }
      if (!fits_every_case) continue;
      r.offset = p.name;
      offset_inferred_[i] = true;
      return true;
    }
    return false;
  }

  // A role the template never reads (LibraryStrategy::unread) may take a size case's own variable: the
  // lengths check it, and the kernel is given 0 for it (instantiate.cpp).
  void add_size_variables(Param const& role, std::vector<RoleBinding>& options) const {
    if (task_.sizes.empty() ||
        std::find(strategy_.unread.begin(), strategy_.unread.end(), role.name) == strategy_.unread.end())
      return;
    for (auto const& entry : task_.sizes.front().variables) {
      std::string const& variable = entry.first;
      bool const known = std::any_of(options.begin(), options.end(),
                                     [&](RoleBinding const& o) { return o.value == variable; });
      if (!known) options.push_back(RoleBinding{role, {}, variable, true});
    }
  }

  std::int64_t lanes_of(std::string const& parameter) const {
    BufferSpec const* buffer = task_.find_buffer(parameter);
    return buffer != nullptr ? buffer->lanes : 1;
  }

  // An integer role that is exactly the length of a pointer role: the bound buffer's length expression,
  // when it names only the launcher's integer parameters (the adapter passes it as an argument; a size
  // case's own variable, `nnz`, exists only in the task file, and a kernel given it would not compile).
  void add_derived(Param const& role, std::vector<RoleBinding>& options) const {
    for (std::size_t i = 0; i < contract_.params.size(); ++i) {
      auto const length = strategy_.lengths.find(contract_.params[i].name);
      if (length == strategy_.lengths.end() || trim(length->second) != role.name) continue;
      BufferSpec const* buffer = task_.find_buffer(current_[i].parameter);
      if (buffer == nullptr) continue;
      auto const names = buffer->length.identifiers();
      bool const from_parameters = std::all_of(names.begin(), names.end(), [&](std::string const& name) {
        Param const* size = task_param(name);
        return size != nullptr && size->is_scalar() && !is_floating(size->dtype);
      });
      if (!from_parameters) continue;
      std::string const text = buffer->lanes > 1
                                   ? fmt::format("{}*({})", buffer->lanes, buffer->length.text())
                                   : buffer->length.text();
      bool const known = std::any_of(options.begin(), options.end(), [&](RoleBinding const& o) {
        return o.parameter == text || o.value == text;
      });
      if (!known && !text.empty()) options.push_back(RoleBinding{role, {}, text, true});
    }
  }

  // A complete assignment: the roles that read a task's output before writing it are given an input to
  // start from (RoleBinding::seeded_from), each way there is, then the assignment is checked and scored.
  void finish(std::vector<StrategyBinding>& out) {
    std::vector<std::size_t> seeded;
    for (std::size_t i = 0; i < contract_.params.size(); ++i) {
      Param const& role = contract_.params[i];
      if (!role.is_pointer || !updated_role(role)) continue;
      Param const* param = task_param(current_[i].parameter);
      if (param != nullptr && direction_of(*param) == Role::output) seeded.push_back(i);
    }
    seed(seeded, 0, out);
  }

  void seed(std::vector<std::size_t> const& seeded, std::size_t k, std::vector<StrategyBinding>& out) {
    if (k == seeded.size()) {
      finish_assignment(out);
      return;
    }
    std::size_t const index = seeded[k];
    std::string const& output = current_[index].parameter;
    DType const dtype = task_param(output)->dtype;
    bool any = false;
    // The adapter copies as many elements as the output has: its length must be over the launcher's integers.
    bool const copyable = length_from_parameters(output);
    for (Param const& p : task_.signature.params) {
      if (!copyable || !p.is_pointer || used_.contains(p.name) || direction_of(p) != Role::input ||
          p.dtype != dtype || !same_lengths(p.name, output))
        continue;
      any = true;
      current_[index].seeded_from = p.name;
      used_[p.name].push_back(index);
      seed(seeded, k + 1, out);
      used_.erase(p.name);
      current_[index].seeded_from.clear();
    }
    if (!any) {
      note_rejection(
          fmt::format("role '{}' reads the task's output '{}' before writing it, and no input of the "
                      "task that no role takes has its length to start it from",
                      contract_.params[index].name, output));
    }
  }

  // Whether the task's buffers `a` and `b` have the same length on every size case.
  bool same_lengths(std::string const& a, std::string const& b) const {
    BufferSpec const* first = task_.find_buffer(a);
    BufferSpec const* second = task_.find_buffer(b);
    if (first == nullptr || second == nullptr || first->lanes != second->lanes) return false;
    return std::all_of(envs_.begin(), envs_.end(), [&](ScalarEnv const& env) {
      auto const x = first->length.evaluate(env);
      auto const y = second->length.evaluate(env);
      return x && y && *x == *y;
    });
  }

  void finish_assignment(std::vector<StrategyBinding>& out) {
    // Every buffer of the task is read or written by some role: a computation that ignores an input is
    // not the task's, and an output nobody writes stays poisoned. A scratch buffer is the task's own
    // workspace, which the strategy does not need (it keeps its own), and an input the task declares
    // `affects_outputs = false` is one no output depends on: both are passed and left alone.
    for (Param const& p : task_.signature.params) {
      if (p.is_pointer && !used_.contains(p.name) && !left_alone(p)) {
        note_rejection(fmt::format("no role takes the task's buffer '{}'", p.name));
        return;
      }
    }
    // A floating-point scalar of the task is a coefficient of its computation (a softmax scale, an alpha).
    // A strategy that takes no role for it has a value of its own built in: that can be the task's only
    // when the task gives the scalar one value (cuSPARSE's alpha = 1 on every size case), never when its
    // size cases give it several. Integer scalars may be sizes the strategy does not need.
    for (Param const& p : task_.signature.params) {
      if (!p.is_scalar() || !is_floating(p.dtype) || !varies_between_sizes(p.name)) continue;
      if (std::none_of(current_.begin(), current_.end(),
                       [&](RoleBinding const& r) { return r.parameter == p.name; })) {
        note_rejection(
            fmt::format("no role takes the task's '{}' ({}), which its size cases set to several values",
                        p.name, p.c_type));
        return;
      }
    }
    if (!lengths_agree() || !ops_see_their_scalars()) return;
    StrategyBinding binding;
    binding.element = element_;
    binding.index = index_;
    binding.roles = current_;
    score(binding);
    // The same assignment with the task's inout outputs added into rather than overwritten, ranked just
    // below it: which of the two the task means, verification decides.
    StrategyBinding accumulating = binding;
    accumulating.identity = false;
    accumulating.score -= 1 + (binding.identity ? kIdentityBonus : 0);
    for (RoleBinding& r : accumulating.roles) r.accumulated = accumulates(r);
    bool const any = std::any_of(accumulating.roles.begin(), accumulating.roles.end(),
                                 [](RoleBinding const& r) { return r.accumulated; });
    out.push_back(std::move(binding));
    if (any) out.push_back(std::move(accumulating));
  }

  // Whether the size cases give the task's scalar `name` more than one value.
  bool varies_between_sizes(std::string const& name) const {
    std::optional<ScalarValue> first;
    for (SizeCase const& size : task_.sizes) {
      auto const value = size.values.find(name);
      if (value == size.values.end()) continue;
      if (first && *first != value->second) return true;
      first = value->second;
    }
    return false;
  }

  // Whether an output role may be added into the task's buffer it holds: a floating-point inout buffer that
  // no other role holds, whose length the adapter can compute from the launcher's integer parameters (its
  // buffer is that long).
  bool accumulates(RoleBinding const& r) const {
    if (!r.role.is_pointer || r.role.is_const || r.copied || !is_floating(r.role.dtype) ||
        updated_role(r.role))
      return false;
    auto const holder = used_.find(r.parameter);
    if (holder == used_.end() || holder->second.size() != 1 || !updated_in_place(r.parameter)) return false;
    return length_from_parameters(r.parameter);
  }

  // Whether the task's buffer `parameter` has a length over the launcher's integer parameters only (not a
  // size case's variable), which an adapter can compute.
  bool length_from_parameters(std::string const& parameter) const {
    BufferSpec const* buffer = task_.find_buffer(parameter);
    if (buffer == nullptr) return false;
    auto const names = buffer->length.identifiers();
    return std::all_of(names.begin(), names.end(), [&](std::string const& name) {
      Param const* size = task_param(name);
      return size != nullptr && size->is_scalar() && !is_floating(size->dtype);
    });
  }

  // A [strategy_params] value the strategy uses may name a scalar of the task only when a role takes it
  // (ELU's alpha as map1s's s): the template has no other name for it.
  bool ops_see_their_scalars() {
    for (std::string const& key : strategy_.params) {
      auto const op = task_.strategy_params.find(key);
      if (op == task_.strategy_params.end()) continue;
      for (Param const& p : task_.signature.params) {
        if (p.is_pointer) continue;
        RE2 const word("\\b" + RE2::QuoteMeta(p.name) + "\\b", RE2::Latin1);
        if (!RE2::PartialMatch(op->second, word)) continue;
        bool const taken = std::any_of(current_.begin(), current_.end(),
                                       [&](RoleBinding const& r) { return r.parameter == p.name; });
        if (!taken) {
          note_rejection(
              fmt::format("[strategy_params] {} names the task's '{}', which no role takes", key, p.name));
          return false;
        }
      }
    }
    return true;
  }

  // An expression of the search (a length, a role's value, an offset), parsed once per enumeration: the
  // search evaluates the same few texts at every one of its nodes.
  Expr const* parsed(std::string const& text) const {
    auto it = parsed_.find(text);
    if (it == parsed_.end()) {
      auto expr = Expr::parse(text);
      it = parsed_.emplace(text, expr ? std::optional<Expr>(std::move(*expr)) : std::nullopt).first;
    }
    return it->second ? &*it->second : nullptr;
  }

  std::optional<std::int64_t> role_value(RoleBinding const& r, ScalarEnv const& env) const {
    std::string const& text = r.parameter.empty() ? r.value : r.parameter;
    Expr const* expr = parsed(text);
    if (expr == nullptr) return std::nullopt;
    auto value = expr->evaluate(env);
    if (!value) return std::nullopt;
    return *value;
  }

  bool lengths_agree() {
    for (std::size_t s = 0; s < envs_.size(); ++s) {
      for (std::size_t i = 0; i < contract_.params.size(); ++i) {
        if (auto mismatch = length_mismatch(i, s)) {
          note_rejection(std::move(*mismatch));
          return false;
        }
      }
    }
    return true;
  }

  // On size case s, the number of elements pointer role i covers under the integer roles assigned so far,
  // and the number its buffer holds (scalars: a float2 buffer of n holds 2n floats); nothing when either
  // cannot be evaluated.
  std::optional<std::pair<std::int64_t, std::int64_t>> role_span(std::size_t i, std::size_t s) const {
    auto const length = strategy_.lengths.find(contract_.params[i].name);
    BufferSpec const* buffer = task_.find_buffer(current_[i].parameter);
    if (length == strategy_.lengths.end() || buffer == nullptr) return std::nullopt;
    ScalarEnv roles;
    for (std::size_t k = 0; k < current_.size(); ++k) {
      Param const& role = contract_.params[k];
      if (!assigned_[k] || role.is_pointer || is_floating(role.dtype)) continue;
      auto const value = role_value(current_[k], envs_[s]);
      if (!value) return std::nullopt;
      roles[role.name] = *value;
    }
    Expr const* length_expr = parsed(length->second);
    if (length_expr == nullptr) return std::nullopt;
    auto const want = length_expr->evaluate(roles);
    auto const have = buffer->length.evaluate(envs_[s]);
    if (!want || !have) return std::nullopt;
    return std::pair{*want, *have * buffer->lanes};
  }

  // Why role i (a pointer role with a length, bound to a buffer of the task) does not cover that buffer's
  // length on size case s under the integer roles assigned so far (a slice: does not lie within it);
  // nothing when it does (or has no length to check).
  std::optional<std::string> length_mismatch(std::size_t i, std::size_t s) const {
    RoleBinding const& r = current_[i];
    BufferSpec const* buffer = contract_.params[i].is_pointer ? task_.find_buffer(r.parameter) : nullptr;
    if (!strategy_.lengths.contains(contract_.params[i].name) || buffer == nullptr) return std::nullopt;
    auto const span = role_span(i, s);
    std::int64_t start = 0;
    if (!r.offset.empty()) {
      Expr const* offset = parsed(r.offset);
      auto value = offset != nullptr ? offset->evaluate(envs_[s]) : Result<std::int64_t>(std::int64_t{-1});
      start = value ? *value : -1;
    }
    if (span && r.offset.empty() && span->first == span->second) return std::nullopt;
    // The offset counts the buffer's elements (C's `x + start`), the span its scalars.
    if (span && !r.offset.empty() && start >= 0 && start * buffer->lanes + span->first <= span->second)
      return std::nullopt;
    if (!first_rejection_.empty()) return std::string();  // only the first rejection's text is kept
    return fmt::format(
        "with {}, role '{}' covers {} elements{} where the task's '{}' has {} (size case '{}')",
        describe_current(), r.role.name, span ? std::to_string(span->first) : "?",
        r.offset.empty() ? "" : fmt::format(" from {}", start), buffer->name,
        span ? std::to_string(span->second) : "?", task_.sizes[s].name);
  }

  std::string describe_current() const {
    StrategyBinding b;
    for (std::size_t i = 0; i < current_.size(); ++i) {
      if (assigned_[i]) b.roles.push_back(current_[i]);
    }
    return b.describe();
  }

  void note_rejection(std::string text) {
    if (first_rejection_.empty()) first_rejection_ = std::move(text);
  }

  // Names that agree, parameters in the contract's relative order, and nothing of the task left unused
  // rank first; the task's entry being the contract itself ranks above everything.
  void score(StrategyBinding& binding) const {
    auto const& params = task_.signature.params;
    std::set<std::string, std::less<>> bound;
    bool identity = binding.roles.size() == params.size();
    for (std::size_t i = 0; i < binding.roles.size(); ++i) {
      RoleBinding const& r = binding.roles[i];
      if (r.parameter.empty()) {
        binding.score -= r.derived ? 1 : 0;
        identity = false;
        continue;
      }
      bound.insert(r.parameter);
      if (!r.seeded_from.empty()) {
        bound.insert(r.seeded_from);  // read: the strategy starts from it
        identity = false;
      }
      if (!r.offset.empty()) {
        // A slice is less likely than the whole buffer; the launcher's integers it starts at are used.
        binding.score -= 2;
        identity = false;
        if (Expr const* offset = parsed(r.offset)) {
          for (std::string const& name : offset->identifiers()) bound.insert(name);
        }
      }
      if (same_name(r.role.name, r.parameter)) {
        binding.score += 4;
      } else if (contains_name(r.parameter, r.role.name)) {
        binding.score += 1;
      } else if (!r.role.is_pointer && extent_group(r.role.name) != 0 &&
                 extent_group(r.role.name) == extent_group(r.parameter)) {
        binding.score += 2;
      }
      // A pair of roles of one kind (buffers, integer sizes, floating scalars) bound against the task's
      // order (x, y filling b, a) costs one. Sizes and a float eps are not compared: a launcher that passes
      // eps after its sizes where the contract has it before them is not reordered.
      for (std::size_t j = i + 1; j < binding.roles.size(); ++j) {
        RoleBinding const& later = binding.roles[j];
        if (later.parameter.empty() || later.role.is_pointer != r.role.is_pointer ||
            is_floating(later.role.dtype) != is_floating(r.role.dtype))
          continue;
        if (position_of(later.parameter) < position_of(r.parameter)) binding.score -= 1;
      }
      identity = identity && params[i].name == r.parameter && params[i].dtype == r.role.dtype;
    }
    for (Param const& p : params) {
      if (!bound.contains(p.name)) binding.score -= p.is_pointer ? 3 : 1;
    }
    // A role with a default that takes a launcher integer already bound to a role of another kind (a dilation
    // from the padding, both passed once for every axis) is less likely than its default.
    for (RoleBinding const& r : binding.roles) {
      if (r.parameter.empty() || r.role.is_pointer || !strategy_.defaults.contains(r.role.name)) continue;
      bool const shared =
          std::any_of(binding.roles.begin(), binding.roles.end(), [&](RoleBinding const& other) {
            return other.parameter == r.parameter && axis_stem(other.role.name) != axis_stem(r.role.name);
          });
      if (shared) binding.score -= 1;
    }
    // A launcher that returns cudaError_t is never the template's own (void) entry, nor is one whose
    // buffers hold vector or complex elements (float2* where the template takes float*): both get an
    // adapter.
    identity = identity && !task_.signature.returns_error &&
               std::none_of(params.begin(), params.end(), [](Param const& p) { return p.lanes > 1; });
    binding.identity = identity;
    if (identity) binding.score += kIdentityBonus;
  }

  LibraryStrategy const& strategy_;
  TaskSpec const& task_;
  Signature contract_;
  DType element_;
  std::optional<DType> index_;
  std::vector<ScalarEnv> envs_;
  std::vector<std::size_t> order_;
  std::vector<RoleBinding> current_;
  std::vector<bool> assigned_;         // which roles of current_ the enumeration has filled at this point
  std::vector<bool> offset_inferred_;  // whose current_ offset infer_offset read off the lengths
  std::vector<std::vector<std::string>> length_roles_;  // per pointer role: the roles its length names
  std::map<std::string, std::vector<std::size_t>, std::less<>> used_;  // task buffer -> the roles holding it
  std::size_t considered_ = 0;
  std::size_t visited_ = 0;  // nodes of the search, against kMaxNodes
  mutable std::map<std::string, std::optional<Expr>, std::less<>> parsed_;  // parsed()'s expressions
  std::string reason_;
  bool task_updates_ = false;  // the task has an inout buffer: updated roles take only those
  std::string first_rejection_;
};

}  // namespace

std::string with_element_type(std::string signature, std::string const& type) {
  static RE2 const element(R"(\bT\b)", RE2::Latin1);
  RE2::GlobalReplace(&signature, element, type);  // a rewrite reads '\' (\1: a group); no type holds one
  return signature;
}

namespace {

RE2 const& index_word() {
  static RE2 const index(R"(\bI\b)", RE2::Latin1);
  return index;
}

}  // namespace

bool has_index_type(std::string const& signature) {
  return RE2::PartialMatch(signature, index_word());
}

std::string with_index_type(std::string signature, std::string const& type) {
  RE2::GlobalReplace(&signature, index_word(), type);
  return signature;
}

std::string_view index_type_spelling(DType index) {
  return index == DType::i64 ? "long long" : "int";
}

Result<Signature> strategy_contract(LibraryStrategy const& strategy, DType element, DType index) {
  std::string text = with_index_type(
      with_element_type(strategy.signature, element == DType::bf16 ? "__nv_bfloat16" : "float"),
      std::string(index_type_spelling(index)));
  auto const open = text.find('(');
  if (open == std::string::npos) {
    return make_error(ErrorCode::invalid_spec, strategy.manifest.string() + ": strategy '" + strategy.name +
                                                   "': signature has no parameter list");
  }
  text = text.substr(0, open) + " kopt_contract" + text.substr(open);
  return parse_signature(text);
}

RoleBinding const* StrategyBinding::find(std::string_view role) const {
  auto const it =
      std::find_if(roles.begin(), roles.end(), [&](RoleBinding const& r) { return r.role.name == role; });
  return it == roles.end() ? nullptr : &*it;
}

std::string StrategyBinding::describe() const {
  std::vector<std::string> parts;
  for (RoleBinding const& r : roles) {
    parts.push_back(r.role.name + "=" + (r.parameter.empty() ? "(" + r.value + ")" : r.parameter) +
                    (r.offset.empty() ? "" : " + " + r.offset) + (r.copied ? " (a copy)" : "") +
                    (r.accumulated ? " (added into)" : "") +
                    (r.seeded_from.empty() ? "" : " (from " + r.seeded_from + ")"));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

BindingSearch enumerate_bindings(LibraryStrategy const& strategy, TaskSpec const& task, std::size_t limit) {
  BindingSearch search;
  // The reason given when nothing binds is the one for the task's own element type.
  auto const& params = task.signature.params;
  auto const first_float = std::find_if(params.begin(), params.end(), [](Param const& p) {
    return p.is_pointer && (p.dtype == DType::f32 || p.dtype == DType::bf16);
  });
  DType const task_element = first_float == params.end() ? DType::f32 : first_float->dtype;
  // A contract with an index type I is enumerated for int32 and int64 indices; the reason given is the
  // first index type's, unless the other binds.
  bool const indexed = has_index_type(strategy.signature);
  std::vector<std::optional<DType>> indices{std::nullopt};
  if (indexed) indices = {DType::i32, DType::i64};
  for (DType element : {DType::f32, DType::bf16}) {
    for (std::optional<DType> const& index : indices) {
      auto contract = strategy_contract(strategy, element, index.value_or(DType::i32));
      if (!contract) {
        search.reason = "its signature does not parse: " + contract.error().message;
        return search;
      }
      BindingEnumerator enumerator(strategy, task, std::move(*contract), element, index);
      std::vector<StrategyBinding> found;
      enumerator.run(found);
      search.considered += enumerator.considered();
      if (!found.empty()) {
        search.bindings.insert(search.bindings.end(), found.begin(), found.end());
      } else if (element == task_element && search.reason.empty()) {
        search.reason = enumerator.reason();
      }
    }
  }
  // The identity outranks everything only where the names do not say otherwise: a launcher whose types
  // line up with the contract but whose names contradict it (fft(out, a, batch, n) against (out, in, N,
  // B)) is not the contract itself, and is then ranked by its names like any other binding (and probed).
  int best_other = std::numeric_limits<int>::min();
  for (StrategyBinding const& b : search.bindings) {
    if (!b.identity) best_other = std::max(best_other, b.score);
  }
  for (StrategyBinding& b : search.bindings) {
    if (b.identity && b.score - kIdentityBonus < best_other) b.score -= kIdentityBonus;
  }
  std::stable_sort(search.bindings.begin(), search.bindings.end(),
                   [](StrategyBinding const& a, StrategyBinding const& b) { return a.score > b.score; });
  if (search.bindings.size() > limit) search.bindings.resize(limit);
  if (!search.bindings.empty()) search.reason.clear();
  return search;
}

}  // namespace kopt
