// Tuning spaces: the knobs a kernel-mode candidate declares in its own source, the constraints between
// them, and how one configuration becomes a concrete compile request and launch geometry.
//
//   // kopt:knob BLOCK = [64, 128, 256, 512]
//   // kopt:knob UNROLL = range(1, 8)            (inclusive; range(lo, hi, step) also works)
//   // kopt:flag FAST_MATH = ["", "--use_fast_math"]
//   // kopt:constraint BLOCK * UNROLL <= 2048
//   // kopt:launch grid=(ceil_div(N, BLOCK*UNROLL)) block=(BLOCK)
//
// Integer knobs become -DNAME=value macros, flag knobs append their compiler arguments, and knob names in
// the launch geometry are replaced by their values. docs/tuning.md is the reference.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/candidate_status.hpp"
#include "kopt/compile.hpp"
#include "kopt/expr.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

enum class KnobKind { integer, flag };

// How a knob's resource use (registers, shared memory, threads) grows with its value; used to
// generalise resource failures (InvalidConfigs). Flag knobs are always `none`.
enum class ResourceTrend { increasing, decreasing, none };
std::string_view to_string(ResourceTrend trend) noexcept;

struct Knob {
  std::string name;
  KnobKind kind = KnobKind::integer;
  std::vector<std::int64_t> values;  // integer knobs, in the order written
  std::vector<std::string> flags;    // flag knobs: one entry per value, "" = no flag
  ResourceTrend trend = ResourceTrend::increasing;
  std::size_t line = 0;  // 1-based line of the declaration

  std::size_t size() const noexcept { return kind == KnobKind::integer ? values.size() : flags.size(); }
  // "128" for an integer knob, the flag text (possibly "") for a flag knob.
  std::string value_text(std::size_t index) const;
};

struct KnobConstraint {
  Expr expr;  // holds when it evaluates to a non-zero value
  std::size_t line = 0;
};

// One point of a space: a value index per knob, in declaration order.
struct Configuration {
  std::vector<std::size_t> indices;
  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads the defaulted <=>'s comparison with 0
  friend auto operator<=>(Configuration const&, Configuration const&) = default;
};

// What prunes a space besides its own constraints; tuning_rules_for() derives it from a task.
struct TuningRules {
  std::vector<ScalarEnv> sizes;  // constraints and launch geometry must hold for every size case
  // The smallest rtol over the task's output (and inout) buffers; flags that relax floating-point
  // precision are allowed only when it is at least kMinRtolForRelaxedPrecision.
  double output_rtol = 0.0;
  std::optional<LaunchSpec> launch;  // when set, geometry that cannot launch (for any size) is pruned
  std::uint64_t max_configurations = 1'000'000;  // enumerate() refuses larger spaces
};

inline constexpr double kMinRtolForRelaxedPrecision = 1e-5;

// Sizes from every size case, output_rtol from the task's tolerances, launch as given.
TuningRules tuning_rules_for(TaskSpec const& task, std::optional<LaunchSpec> launch = std::nullopt);

// --use_fast_math, -ftz=true, -prec-div=false, -prec-sqrt=false (one or two leading dashes).
bool relaxes_precision(std::string_view flag) noexcept;

struct PrunedValue {
  std::string knob;
  std::string value;
  std::string reason;
};

struct Enumeration {
  std::vector<Configuration> valid;    // in lexicographic index order
  std::uint64_t raw_count = 0;         // product of every knob's number of values
  std::uint64_t pruned_by_values = 0;  // configurations holding a pruned knob value
  std::uint64_t pruned_by_constraints = 0;
  std::uint64_t pruned_by_launch = 0;
  std::vector<PrunedValue> pruned_values;  // knob values removed before enumeration, with the reason
};

struct AppliedConfiguration {
  // The base request with -DNAME=value per integer knob and the flag knobs' arguments appended to
  // flags; knob names in `entry` and in the source's `// kopt:launch` line replaced by their values.
  CompileRequest request;
  LaunchSpec launch;  // knob names replaced by their values: expressions over size scalars only
};

class TuningSpace {
 public:
  // Reads the kopt:knob / kopt:flag / kopt:constraint lines of a candidate source. Every problem is
  // reported at once, one line each: "<origin>:<line>: kopt:knob: <what>; expected <what>".
  static Result<TuningSpace> parse(std::string const& source, std::string const& origin = "candidate");

  std::vector<Knob> const& knobs() const noexcept { return knobs_; }
  std::vector<KnobConstraint> const& constraints() const noexcept { return constraints_; }
  bool empty() const noexcept { return knobs_.empty(); }
  std::vector<std::size_t> dimensions() const;  // number of values per knob
  std::uint64_t raw_size() const noexcept;      // product of dimensions (saturates at UINT64_MAX)
  Knob const* find_knob(std::string_view name) const noexcept;

  // A configuration from knob name -> value text ("128", "--use_fast_math", "" for no flag).
  Result<Configuration> configuration(std::map<std::string, std::string, std::less<>> const& values) const;
  // Knob name -> value text.
  std::map<std::string, std::string, std::less<>> values(Configuration const& config) const;
  // Integer knobs as their values, flag knobs as their value index (0 = first listed).
  ScalarEnv env(Configuration const& config) const;
  // Stable text for dedupe: knobs sorted by name, `BLOCK=128;FAST_MATH="--use_fast_math";VEC=4`.
  std::string config_key(Configuration const& config) const;
  // -DNAME=value per integer knob, then each flag knob's arguments (split at spaces), in declaration order.
  std::vector<std::string> flags(Configuration const& config) const;
  // Configurations that differ in one knob by one position in its value list (unpruned).
  std::vector<Configuration> neighbours(Configuration const& config) const;

  // Knob names must not clash with size scalars; constraints and launch expressions may use only
  // knobs and size scalars.
  Status check_rules(TuningRules const& rules) const;
  // Why a configuration is excluded (a pruned value, a constraint, launch geometry), or nullopt.
  std::optional<std::string> why_invalid(Configuration const& config, TuningRules const& rules) const;
  // Every valid configuration, with counts of what was pruned and why.
  Result<Enumeration> enumerate(TuningRules const& rules) const;

  Result<AppliedConfiguration> apply(Configuration const& config, CompileRequest const& base,
                                     LaunchSpec const& base_launch) const;

 private:
  Status check_configuration(Configuration const& config) const;
  std::optional<std::string> pruned_value_reason(std::size_t knob, std::size_t index,
                                                 TuningRules const& rules) const;

  std::vector<Knob> knobs_;
  std::vector<KnobConstraint> constraints_;
  std::string origin_;
};

// Why a candidate failed for lack of resources, when it did.
enum class ResourceKind { shared_memory, registers, local_memory, launch_limits };
std::string_view to_string(ResourceKind kind) noexcept;

// compile_error with a ptxas resource message (too much shared/local data, too many registers) or
// launch_error with "too many resources requested" / an invalid launch configuration; else nullopt.
std::optional<ResourceKind> classify_resource_failure(CandidateStatus status, std::string_view message);

// Learns configurations that fail for resource reasons so that they are not tried again. A recorded
// failure F prunes C when C == F, or when C differs from F in exactly one integer knob whose trend is
// `increasing` and C's value is larger (or `decreasing` and smaller): at least as resource-hungry.
class InvalidConfigs {
 public:
  struct Entry {
    Configuration config;
    ResourceKind kind = ResourceKind::shared_memory;
    std::string reason;
  };

  explicit InvalidConfigs(TuningSpace space);

  // Records the failure when classify_resource_failure() says it is one; returns whether it did.
  bool record(Configuration const& config, CandidateStatus status, std::string_view message);
  void record(Configuration const& config, ResourceKind kind, std::string reason);
  // The reason naming the recorded failure that prunes `config`, or nullopt.
  std::optional<std::string> why_pruned(Configuration const& config) const;
  std::vector<Entry> const& entries() const noexcept { return entries_; }

 private:
  bool dominates(Entry const& failure, Configuration const& config) const;

  TuningSpace space_;
  std::vector<Entry> entries_;
};

}  // namespace kopt
