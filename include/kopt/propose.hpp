// The built-in proposer: the strategy library (strategies/*/strategies.toml and their templates), which
// strategies apply to a task, their instantiation as tunable candidates, and the screen → deepen → confirm
// driver that tunes them with kopt optimize's search. docs/strategies.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kopt/dtype.hpp"
#include "kopt/optimize.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

// One entry of a strategies.toml.
struct LibraryStrategy {
  std::string name;                   // unique in the library
  std::vector<std::string> families;  // task families it serves
  std::filesystem::path template_path;
  std::string template_text;
  std::string signature;  // "void (T* out, const T* in, int n)": its parameter names are the contract's roles
  // Elements each pointer role reads or writes, as integer expressions over the scalar roles
  // ({"out": "n", "in": "n"}); a role left out is not checked when bindings are enumerated.
  std::map<std::string, std::string, std::less<>> lengths;
  std::vector<std::string> params;  // [strategy_params] keys it needs
  // Scalar roles a task need not pass, with the value they take then ({"eps": "1e-6"}: a norm whose
  // launcher has no eps gets the usual one; a task that passes its eps binds it instead).
  std::map<std::string, std::string, std::less<>> defaults;
  // Output roles that may share a task's inout buffer with an input role ({"out": "in"}): an in-place
  // `relu_(float* x, int n)` binds out = in = x. Declared only where the kernel reads every element of the
  // input before, and in the same thread as, it writes that element of the output.
  std::map<std::string, std::vector<std::string>, std::less<>> in_place;
  // Non-const pointer roles the strategy reads before it writes them (a batch norm's running statistics,
  // moved towards the batch's): each takes only a buffer the task declares `inout`, and is never added into.
  std::vector<std::string> updates;
  // Integer roles the template never reads (`(void)K;`): they exist for `lengths`. Besides the launcher's
  // integers they may take a size case's own variable (`nnz`, `K` of a task whose launcher passes neither),
  // which the length checks use and the kernel is given as 0.
  std::vector<std::string> unread;
  // Macros defined before the template's text ({"ARGMIN": "1"}): two strategies that differ in one
  // constant share one template (col_argmax_strip and col_argmin_strip).
  std::map<std::string, std::string, std::less<>> defines;
  std::vector<DType> dtypes;  // the element types it supports (f32, bf16)
  int min_arch = 80;          // lowest sm
  std::string arch;  // the exact architecture it is built for ("sm_90a": wgmma); empty = the target's
  std::vector<std::string> addresses;  // bottleneck classes / finding names it answers
  std::string description;
  std::string applies_when;
  std::filesystem::path manifest;  // the strategies.toml it came from
};

struct StrategyLibrary {
  std::filesystem::path root;  // the strategies/ folder
  std::string common_header;   // strategies/common/strategy.cuh, put before every instantiation
  std::vector<LibraryStrategy> strategies;

  LibraryStrategy const* find(std::string_view name) const;
};

// Loads every <root>/*/strategies.toml. Errors name the manifest, the entry and the field.
Result<StrategyLibrary> load_strategy_library(std::filesystem::path const& root);

// Where the library is: `explicit_root` when given, else $KOPT_STRATEGIES, else a `strategies` folder
// holding common/strategy.cuh next to or above the running executable (up to three levels) or in the
// current directory. Error not_found names the places tried.
Result<std::filesystem::path> find_strategy_library(
    std::optional<std::filesystem::path> const& explicit_root);

// ---- binding: a strategy's contract roles filled with a task's parameters ------------------------------

// One role of a strategy's contract (a parameter name of its `signature`) filled for a task.
struct RoleBinding {
  Param role;             // the role as the contract declares it, with T spelled as the task's element type
  std::string parameter;  // the task parameter it is bound to; empty when it is a value
  std::string value;      // otherwise an integer expression over the task's integer scalars, or a number
  bool derived = false;   // the value was read off a buffer's length (docs/strategies.md, "Binding")
  // An input role given a copy of the task's inout buffer, which an output role of the same call writes:
  // the launcher adapter copies the buffer before the call (an in-place sort bound to an out-of-place one).
  bool copied = false;
  // An output role whose task buffer the task adds into rather than overwrites (a dot product or SpMV that
  // does `out += ...`): the strategy writes a buffer of the adapter's, which the adapter then adds into the
  // task's inout buffer. Enumerated beside the plain binding of the same assignment, one rank below it, and
  // chosen by verification.
  bool accumulated = false;
  // An input role given a slice of the task's buffer `parameter` that starts `offset` elements in (an
  // integer expression over the launcher's integer scalars): "x + start" in [binding], or read off a buffer
  // whose length is the role's plus one of the launcher's integers. Empty: the whole buffer.
  std::string offset;
  // A role the strategy reads before it writes (`updates`) bound to the task's output buffer `parameter`,
  // which the adapter first fills from the task's input buffer `seeded_from` of the same length: an
  // in-place C = alpha A B + beta C serving torch.baddbmm(input, ...) or cuBLASLt's D = alpha A B + beta C.
  // Empty: the buffer is the task's own inout buffer, or not read first.
  std::string seeded_from;
};

// A complete binding of a contract to a task: every role filled, every buffer of the task taken by a role.
struct StrategyBinding {
  DType element = DType::f32;      // the contract's T
  std::optional<DType> index;      // the contract's index type I (i32 or i64), where it has one
  std::vector<RoleBinding> roles;  // in the contract's order
  int score = 0;                   // higher is more plausible (names, order, nothing left unused)
  // Whether the task's entry is the contract itself: same parameters in the same order with the same
  // types, so the template is used as it is, with no adapter.
  bool identity = false;

  RoleBinding const* find(std::string_view role) const;
  std::string describe() const;  // "out=y, in=x, n=n" (roles whose parameter has the role's name too)
};

// The plausible bindings of a strategy's contract to a task, most plausible first, and why there are
// none when there are none. Roles bind to parameters by type (pointer element, const-ness: a const role
// reads an input, a non-const role writes an output), every pointer parameter of the task exactly once;
// scalars may be shared or left unused; an integer role takes an integer scalar, an expression read off a
// bound buffer's length, or the task's [binding] entry; the strategy's `lengths` must agree with the
// task's buffer lengths on every size case. At most `limit` bindings are returned.
struct BindingSearch {
  std::vector<StrategyBinding> bindings;
  std::size_t considered = 0;  // complete assignments looked at before the length check
  std::string reason;          // when `bindings` is empty
};
BindingSearch enumerate_bindings(LibraryStrategy const& strategy, TaskSpec const& task,
                                 std::size_t limit = 8);

// What the store keys a verified binding by (docs/strategies.md, "Binding"): the task's name and a hash of
// everything verification depends on (signature, buffers and their lengths, scalars, size cases, family and
// [strategy_params]), so that an edited task verifies again. Not [binding]: it only narrows the plausible
// bindings, and a stored binding is used only while it is still one of them.
std::string binding_task_key(TaskSpec const& task);
// A binding as a task's [binding] table would pin it: role -> the task's parameter, or the role's value.
std::map<std::string, std::string, std::less<>> binding_roles(StrategyBinding const& binding);

struct VerifiedBinding;  // kopt/store.hpp

// Whether a strategy applies to a task, and if not why (docs/strategies.md, "Applicability").
struct Applicability {
  bool applies = false;
  std::string reason;                     // why not, in plain language (empty when it applies)
  DType element = DType::f32;             // the T that matched
  std::vector<StrategyBinding> bindings;  // when it applies: the plausible bindings, most plausible first
  bool family_inferred = false;           // the task names no family; the contract's binding decided
};
// `arch_sm`: the target architecture as a number (90 for sm_90); 0 = do not check.
Applicability check_applicability(LibraryStrategy const& strategy, TaskSpec const& task, int arch_sm);
// Whether verification must pick the binding before the strategy is tuned: several plausible bindings
// (none the identity, or one that adds into an output the task also reads), or a family only inferred.
bool needs_verification(Applicability const& applicability);
// Of the store's verified bindings for the task, the strategy's that is still one of its plausible
// bindings (nullptr when none is); `plausible` is set to that binding.
VerifiedBinding const* find_verified_binding(std::vector<VerifiedBinding> const& verified,
                                             LibraryStrategy const& strategy,
                                             Applicability const& applicability,
                                             StrategyBinding const** plausible = nullptr);

// The strategy as a self-contained tunable candidate for the task: the library's common header, then the
// template with {{T}}, {{ENTRY}}, {{ARGi}} and the task's [strategy_params] substituted, under the binding
// `chosen` (default: the most plausible one). A binding that is not the identity gets an adapter: in kernel
// mode `args=(...)` on the template's `// kopt:launch` line, in launcher mode a launcher with the task's
// signature that calls the template's under another name. Fails (naming the template and line) on an
// unknown or unclosed placeholder, or when the strategy does not apply.
Result<std::string> instantiate_strategy(StrategyLibrary const& library, LibraryStrategy const& strategy,
                                         TaskSpec const& task, int arch_sm = 0,
                                         StrategyBinding const* chosen = nullptr);

// The applicable strategies for a task in the order the proposer screens them: those whose `addresses`
// meet `signals` (the reference's bottleneck class and finding names, when a profile is available) first,
// then library order; for a task without a family (each strategy verified before it is tuned), the
// cheapest to verify first: the fewest plausible bindings, then the smallest template.
std::vector<LibraryStrategy const*> choose_strategies(StrategyLibrary const& library, TaskSpec const& task,
                                                      int arch_sm,
                                                      std::vector<std::string> const& signals = {});

// ---- chains (docs/strategies.md, "Chains") -------------------------------------------------------------

// Stage `index` of a chain task (TaskSpec::stages) as a one-family task of its own, which the library binds
// and instantiates like any task: its signature the stage's reads (const pointers), then its writes, then the
// launcher's scalars and stream; its buffers the launcher's and the chain's intermediates it names; the
// stage's family, [strategy_params] and [binding]; the task's size cases, tolerances and folder.
Result<TaskSpec> chain_stage_task(TaskSpec const& task, std::size_t index);

// A strategy instantiated for one stage (instantiate_strategy on chain_stage_task).
struct ChainStage {
  std::string strategy;
  TaskSpec task;
  std::string source;
};

// The chain as one launcher-mode tunable candidate with the task's signature: each stage's text in a
// namespace of its own with its knobs renamed S<i>_<knob> (declared at the top, with its constraints, so that
// one search tunes every stage), the chain's intermediates (device buffers of the candidate's own, kept for
// later calls and grown when a call needs more), and the entry, which runs the stages in order on the
// launcher's stream. Errors (invalid_argument) name the stage: a source the stage cannot be built from, knobs
// that cannot be read.
Result<std::string> chain_candidate_source(TaskSpec const& task, std::vector<ChainStage> const& stages);

// The combinations of the stages' applicable strategies (choose_strategies on each stage's task; only those
// in `only` when it is not empty), each one tunable candidate, by the sum of their stages' ranks (every
// stage's first choice, then each stage's second with the others' first, ...); at most `limit`. `skipped`
// says why a stage has no strategy ("stage 1 (row_softmax): ..."); no proposals then.
struct ChainProposal {
  std::string name;                     // "linear_register_tiled + softmax_block_per_row"
  std::filesystem::path template_path;  // the first stage's template
  std::string source;
};
struct ChainProposals {
  std::vector<ChainProposal> proposals;
  std::vector<std::string> skipped;
};
Result<ChainProposals> propose_chain(StrategyLibrary const& library, TaskSpec const& task, int arch_sm,
                                     std::vector<std::string> const& only = {}, std::size_t limit = 8);

// Whether the built-in proposer has anything to tune for the task: an applicable strategy
// (choose_strategies), or for a chain a combination of its stages' (propose_chain).
bool library_applies(StrategyLibrary const& library, TaskSpec const& task, int arch_sm);

// ---- kernels without a tuning space -------------------------------------------------------------------

// kopt's generic tuning space for a candidate that declares none (docs/strategies.md, "Kernels without a
// family"): compiler flags for every candidate (MAXRREG: a register cap; FAST_MATH: --use_fast_math, pruned
// when the task's tolerance is too tight), and for a kernel-mode candidate launched with a literal 1-D
// block: the block size (BLOCK, put into the launch geometry where the literal divided the grid),
// __launch_bounds__(BLOCK), and __restrict__ on its pointer parameters (RESTRICT; kopt's buffers never
// alias). `added` names what was added, for the user.
struct GenericSpace {
  std::string source;
  std::vector<std::string> added;
};
// Errors: the source already declares knobs (invalid_argument), or is neither a launcher nor a kernel.
Result<GenericSpace> generic_tuning_space(std::string const& source, TaskSpec const& task);

// ---- one kernel per size case (docs/strategies.md, "Dispatch by size") ----------------------------------

// A verified candidate of a proposer session with its screen-tier speedup on each timed size case.
struct ScreenedCandidate {
  std::string strategy;
  CandidateInput input;                                 // as evaluated (materialised text, flags)
  std::map<std::string, double, std::less<>> speedups;  // timed size case -> speedup over the reference
  bool any_flags = false;  // built with whichever flags the other variants share (the task's reference)
};

// The task's own reference as a candidate of a dispatch (speedup 1 on every timed size case, strategy
// "reference"), so that a size case where no verified kernel beats it keeps it: its text with each local
// `#include "file"` inlined (relative to the including file, each file once). Errors say why it cannot be
// one (invalid_argument): a PyTorch reference, one that links libraries, a file that cannot be read, a text
// that is neither a launcher nor a kernel the task's [launch] can start.
Result<ScreenedCandidate> reference_variant(TaskSpec const& task);

// Which verified kernel runs each timed size case, when not one kernel is fastest at every size.
struct SizeDispatchPlan {
  struct Variant {
    std::string strategy;
    CandidateInput input;
    std::vector<std::string> sizes;  // the timed size cases it was chosen for
  };
  // A timed size case: the launcher's integer scalars there, and the variant chosen for it.
  struct Case {
    std::string size;
    std::vector<std::int64_t> point;  // in the order of `scalars`
    std::size_t variant = 0;
  };
  std::vector<Variant> variants;     // two or more, in the order of the cases they serve
  std::vector<std::string> scalars;  // the launcher's integer scalars a call is placed by
  std::vector<Case> cases;
  std::vector<std::string> flags;  // the compiler flags every variant shares
  double predicted_speedup = 1.0;  // geomean over timed cases of the chosen variants' screen speedups
  double single_speedup = 1.0;     // the best single candidate's geomean over the same cases
  std::string single_strategy;
};

struct SizeDispatchChoice {
  std::optional<SizeDispatchPlan> plan;
  std::string reason;  // why there is no plan
};

// Groups the task's timed size cases by the launcher's integer scalars (cases a call cannot tell apart share
// a kernel), picks for each group the candidate with the best geomean over it (among candidates with the
// same compiler flags, or any_flags), and keeps the plan when it uses two kernels or more and its predicted
// geomean beats the best single candidate's by `min_gain`. Candidates without a speedup on every timed case
// are left out.
SizeDispatchChoice plan_size_dispatch(TaskSpec const& task, std::vector<ScreenedCandidate> const& screened,
                                      double min_gain = 1.03);

// The plan as one launcher-mode candidate with the task's signature: each variant's text in a namespace of
// its own (its #include lines hoisted, its macros restored after it, `extern "C"`, the entry's name and kopt
// annotations taken off; a kernel-mode variant gets a launcher that evaluates its launch geometry in C++),
// and an `extern "C"` entry that runs the variant of the timed size case nearest to the call (the smallest
// sum of squared differences of log2 of the integer scalars). Errors (invalid_argument) name the variant: an
// `extern "C" {` block, a launch that reads a value the launcher does not take, variants built for
// different architectures.
Result<CandidateInput> size_dispatch_candidate(TaskSpec const& task, SizeDispatchPlan const& plan);

// ---- the driver ------------------------------------------------------------------------------------

struct ProposeOptions {
  std::size_t budget = 64;        // unique configurations over all strategies
  double max_wall_seconds = 0.0;  // 0: no limit; split like the budget
  std::string search = "mcts";    // the search strategy of each run
  std::uint64_t seed = 1;
  std::vector<std::string> only;     // strategy names to use (empty: every applicable one)
  std::vector<std::string> flags;    // extra compiler flags
  int arch_sm = 0;                   // for min_arch; 0 = do not check
  bool confirm = true;               // re-time the overall best on the confirm tier
  std::vector<std::string> signals;  // profiler signals that reorder strategies (choose_strategies)
  OptimizeObjective objective = OptimizeObjective::runtime;  // what each run maximises and ranks by
  bool search_memory = true;  // MCTS search memory across runs (OptimizeOptions::search_memory)
  // Plausible bindings verified per strategy when several remain or the family is inferred (0: none; the
  // most plausible is used unverified).
  std::size_t binding_probes = 4;
  // After tuning, one kernel per size case when the session's verified kernels disagree on which is fastest
  // and choosing per size promises `dispatch_min_gain` over the best single kernel: the dispatching launcher
  // is one more run of the session, screened and confirmed like any candidate (plan_size_dispatch). Runtime
  // objective only.
  bool size_dispatch = true;
  double dispatch_min_gain = 1.03;
};

// One strategy's part of a proposer run.
struct StrategyRun {
  std::string strategy;
  std::string phase;  // screen, deepen
  OptimizeResult result;
};

struct ProposeResult {
  SessionId session;                  // the store's session that groups the runs (docs/store.md, "sessions")
  std::vector<StrategyRun> runs;      // in order
  std::vector<std::string> skipped;   // "name: reason" for library strategies that did not apply
  std::vector<std::string> bindings;  // "name: c=out, a=x, ..." for strategies used through an adapter
  std::optional<std::string> best_strategy;
  std::optional<RunId> best_run;  // the optimize run holding the best candidate
  std::optional<double> best_screen_speedup;
  std::optional<double> best_screen_score;   // the objective's score (unset for the runtime objective)
  std::optional<CandidateReport> confirmed;  // the best on the confirm tier
  std::optional<double> confirmed_score;
  // The size dispatch: which kernel serves which size case and how it did, or why none was built; empty when
  // it was not considered (turned off, another objective, no verified kernel).
  std::string dispatch;
  double elapsed_seconds = 0.0;
};

// What the dispatch by size did with a set of runs: a line for people ("size dispatch: ...; 2.3x on the
// screen tier", or "no size dispatch: why"), and the run that evaluated the dispatch when one was built
// (phase "dispatch").
struct SizeDispatchOutcome {
  std::string summary;
  std::optional<StrategyRun> run;
};
// Plans a dispatch from the runs' verified screen evaluations (plan_size_dispatch, at `min_gain`), builds it
// (size_dispatch_candidate) and evaluates it as a run with `options` (its session part, confirm, seed, flags;
// evaluate_as_run). A plan that cannot be built is a summary, not an error; errors are the store's and the
// evaluator's.
Result<SizeDispatchOutcome> dispatch_by_size(TaskSpec const& task, std::vector<StrategyRun> const& runs,
                                             OptimizeOptions const& options, double min_gain,
                                             CandidateEvaluator& evaluator, Store& store);
// Whether the dispatch replaces the best: with the confirm tier, it verified there and its confirmed speedup
// beats the incumbent's (or the incumbent's did not verify); without it, its screen speedup is higher.
bool size_dispatch_wins(OptimizeResult const& dispatch,
                        std::optional<CandidateReport> const& incumbent_confirmed,
                        std::optional<double> incumbent_screen, bool confirm);

struct ProposeProgress {
  std::string strategy;
  std::string phase;               // screen, deepen, confirm
  std::size_t strategy_index = 0;  // 1-based
  std::size_t strategy_count = 0;
  OptimizeProgress search;  // the current run's progress
};
using ProposeProgressCallback = std::function<void(ProposeProgress const&)>;

// Screens every applicable strategy with an equal share of half the budget, gives the other half to the
// best one, and confirms the overall best (docs/strategies.md, "Choosing and tuning"). Every run is part of
// one session of the store, created once the strategies are chosen (nothing is recorded when none applies)
// and finished when the last run ends (interrupted when a run fails). Error when no strategy applies (the
// message lists why each did not) or when nothing could be evaluated.
Result<ProposeResult> propose_and_tune(StrategyLibrary const& library, TaskSpec const& task,
                                       ProposeOptions const& options, CandidateEvaluator& evaluator,
                                       Store& store, ProposeProgressCallback const& progress = {});

}  // namespace kopt
