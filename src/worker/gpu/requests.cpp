#include "worker/gpu/requests.hpp"

#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>

#include "kopt/elapsed.hpp"
#include "kopt/inputs.hpp"
#include "kopt/measure.hpp"
#include "kopt/verify.hpp"
#include "kopt/worker/masked_results.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/request_messages.hpp"
#include "kopt/worker/verdict_messages.hpp"
#include "worker/gpu/candidate_call.hpp"
#include "worker/gpu/cuda_errors.hpp"
#include "worker/gpu/device_verification.hpp"
#include "worker/gpu/evaluate_activity.hpp"
#include "worker/gpu/timing.hpp"

namespace kopt::worker {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Thrown inside a handler when kopt itself cannot go on (bad task, reference broken); becomes an
// {"error": ...} reply. Candidate failures are never exceptions.
struct HandlerError {
  ErrorCode code;
  std::string message;
};

template <class T>
T unwrap(Result<T> result, std::string const& context) {
  if (!result) throw HandlerError{result.error().code, context + result.error().message};
  return std::move(result).value();
}

void require(Status const& status, std::string const& context) {
  if (!status) throw HandlerError{status.error().code, context + status.error().message};
}

TaskSpec const& get_task(WorkerState& state, std::string const& dir) {
  auto it = state.tasks.find(dir);
  if (it == state.tasks.end()) {
    auto task = unwrap(load_task(dir), "");
    it = state.tasks.emplace(dir, std::move(task)).first;
  }
  return it->second;
}

Callable& get_trusted(WorkerState& state, ArtifactRef const& ref, char const* what) {
  std::string const key = ref.path + "#" + ref.symbol;
  auto it = state.trusted.find(key);
  if (it == state.trusted.end()) {
    auto callable = unwrap(load_callable(ref), std::string("the task's ") + what + " could not be loaded: ");
    it = state.trusted.emplace(key, std::move(callable)).first;
  }
  return *it->second;
}

std::vector<SizeCase const*> select_sizes(TaskSpec const& task, std::vector<std::string> const& names) {
  auto out = select_size_cases(task, names);
  if (out.empty())
    throw HandlerError{ErrorCode::invalid_argument, "no size case of the task matches the selection"};
  return out;
}

SizeBuffers& get_buffers(WorkerState& state, TaskSpec const& task, SizeCase const& size) {
  std::string const key = task.dir.string() + "#" + size.name;
  auto it = state.buffers.find(key);
  if (it == state.buffers.end()) {
    auto counts = unwrap(buffer_lengths(task, size), "size case '" + size.name + "': ");
    SizeBuffers b;
    b.reference = unwrap(BufferSet::allocate(task, counts, 0), "");
    b.candidate = unwrap(BufferSet::allocate(task, counts, std::size_t{64} * 1024), "");
    it = state.buffers.emplace(key, std::move(b)).first;
  }
  return it->second;
}

// Trial inputs are a pure function of (task, size, seed, trial): generated once per worker and
// shared by every candidate evaluated with the same seed.
TrialInputs const& trial_inputs(WorkerState& state, TaskSpec const& task, SizeCase const& size,
                                std::uint64_t seed, int trial) {
  std::string const key =
      task.dir.string() + "#" + size.name + "#" + std::to_string(seed) + "#" + std::to_string(trial);
  if (auto it = state.inputs.find(key); it != state.inputs.end()) return *it->second;
  auto generated = unwrap(generate_inputs(task, size, seed, trial), "inputs for size '" + size.name + "': ");
  std::size_t bytes = 0;
  for (auto const& b : generated.buffers) bytes += b.bytes.size();
  if (state.input_bytes + bytes > (std::size_t{8} << 30)) {
    state.inputs.clear();
    state.input_bytes = 0;
  }
  state.input_bytes += bytes;
  auto shared = std::make_shared<TrialInputs const>(std::move(generated));
  return *state.inputs.emplace(key, std::move(shared)).first->second;
}

// Runs the reference on `inputs` and returns its result buffers (outputs and inouts, in order),
// masked (masked_results.hpp). Afterwards no device or host memory holds them in clear: they come back
// through page-locked staging that is wiped, the reference's outputs are poisoned again and its inouts
// restored to the inputs (docs/verification.md, "Answers out of reach").
MaskedResults const& reference_outputs(WorkerState& state, TaskSpec const& task, SizeCase const& size,
                                       Callable& reference, TrialInputs const& inputs) {
  std::string const key = task.dir.string() + "#" + size.name + "#" + std::to_string(inputs.seed) + "#" +
                          std::to_string(inputs.trial);
  if (auto it = state.reference_outputs.find(key); it != state.reference_outputs.end()) return it->second;
  auto& set = get_buffers(state, task, size).reference;
  require(set.upload(inputs), "");
  require(set.poison_outputs(kPoisonA), "");
  require(set.poison_scratch(kPoisonA), "");
  auto args = unwrap(ArgPack::build(task, size, set), "");
  require(reference.prepare(task.env_for(size)), "reference launch geometry: ");
  auto t0 = Clock::now();
  {
    WatchdogScope guard(state.watchdog, 600000, "the task's reference");
    cudaError_t err = reference.call(args.data());
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
      throw HandlerError{ErrorCode::worker_error,
                         "the task's reference failed on size '" + size.name + "': " + cuda_error_text(err)};
    }
  }
  state.reference_call_us[task.dir.string() + "#" + size.name] = ms_since(t0) * 1000.0;
  std::vector<std::vector<std::byte>> clear;
  std::vector<ResultFacts> facts;
  for (std::size_t i = 0; i < set.buffers().size(); ++i) {
    auto const& b = set.buffers()[i];
    if (!is_compared(b.role)) continue;
    std::byte* staging = state.result_staging.reserve(b.bytes);
    if (staging == nullptr) {
      throw HandlerError{ErrorCode::worker_error, "no page-locked host memory for the reference's results (" +
                                                      std::to_string(b.bytes) + " bytes)"};
    }
    Status const copied = set.download_to(i, staging);
    std::vector<std::byte> bytes(staging, staging + (copied ? b.bytes : 0));
    state.result_staging.wipe(b.bytes);
    require(copied, "");
    facts.push_back(describe_result(b.dtype, bytes));
    clear.push_back(std::move(bytes));
  }
  MaskedResults sealed = MaskedResults::seal(std::move(clear), std::move(facts));
  require(set.poison_outputs(kPoisonA), "");
  require(set.poison_scratch(kPoisonA), "");
  require(set.upload(inputs, /*inouts_only=*/true), "");
  // Keep at most ~4 GiB of reference results; older entries go first (simple reset).
  if (state.reference_output_bytes + sealed.bytes() > (std::size_t{4} << 30)) {
    state.reference_outputs.clear();
    state.reference_output_bytes = 0;
  }
  state.reference_output_bytes += sealed.bytes();
  return state.reference_outputs.emplace(key, std::move(sealed)).first->second;
}

// Reference results computed outside the worker (a PyTorch reference, docs/pytorch.md): the trial's
// file, masked by kopt, read into the cache the worker's own reference results use. Its length must be
// exactly what the size case's result buffers take.
MaskedResults const& external_results(WorkerState& state, TaskSpec const& task, SizeCase const& size,
                                      TrialInputs const& inputs,
                                      std::vector<ReferenceResultsFile> const& files) {
  std::string const key = task.dir.string() + "#" + size.name + "#" + std::to_string(inputs.seed) + "#" +
                          std::to_string(inputs.trial);
  if (auto it = state.reference_outputs.find(key); it != state.reference_outputs.end()) return it->second;
  auto const file = std::find_if(files.begin(), files.end(), [&](ReferenceResultsFile const& f) {
    return f.size == size.name && f.seed == inputs.seed && f.trial == inputs.trial;
  });
  std::string const which = "size '" + size.name + "', trial " + std::to_string(inputs.trial);
  if (file == files.end())
    throw HandlerError{ErrorCode::invalid_argument, "the request has no reference results for " + which};
  auto counts = unwrap(buffer_lengths(task, size), "size case '" + size.name + "': ");
  std::vector<std::size_t> expected_bytes;
  for (std::size_t i = 0; i < task.buffers.size(); ++i) {
    if (is_compared(task.buffers[i].role))
      expected_bytes.push_back(counts[i] * size_of(task.buffers[i].dtype));
  }
  if (file->buffers.size() != expected_bytes.size())
    throw HandlerError{ErrorCode::invalid_argument,
                       fmt::format("reference results for {}: {} buffers, the task has {} outputs", which,
                                   file->buffers.size(), expected_bytes.size())};
  std::ifstream in(file->path, std::ios::binary);
  std::vector<std::vector<std::byte>> masked;
  std::vector<ResultFacts> facts;
  for (std::size_t k = 0; k < expected_bytes.size(); ++k) {
    if (file->buffers[k].bytes != expected_bytes[k])
      throw HandlerError{ErrorCode::invalid_argument,
                         fmt::format("reference results for {}: output {} has {} bytes, expected {}", which,
                                     k, file->buffers[k].bytes, expected_bytes[k])};
    std::vector<std::byte> bytes(expected_bytes[k]);
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!in)
      throw HandlerError{ErrorCode::io_error,
                         "cannot read the reference results " + file->path + " for " + which};
    masked.push_back(std::move(bytes));
    facts.push_back(ResultFacts{file->buffers[k].scale, file->buffers[k].varies});
  }
  if (in.peek() != std::char_traits<char>::eof())
    throw HandlerError{ErrorCode::invalid_argument,
                       "the reference results " + file->path + " are longer than the size case's outputs"};
  state.reference_call_us[task.dir.string() + "#" + size.name] = file->call_ms * 1000.0;
  auto sealed = MaskedResults::from_masked(file->key, std::move(masked), std::move(facts));
  if (state.reference_output_bytes + sealed.bytes() > (std::size_t{4} << 30)) {
    state.reference_outputs.clear();
    state.reference_output_bytes = 0;
  }
  state.reference_output_bytes += sealed.bytes();
  return state.reference_outputs.emplace(key, std::move(sealed)).first->second;
}

double candidate_deadline_ms(WorkerState& state, TaskSpec const& task, SizeCase const& size,
                             DeadlineScaling const& t) {
  double ref_us = 1000.0;
  if (auto it = state.reference_call_us.find(task.dir.string() + "#" + size.name);
      it != state.reference_call_us.end()) {
    ref_us = it->second;
  }
  return watchdog_deadline_ms(ref_us, t.factor, t.floor_ms, t.ceiling_ms);
}

// Runs the candidate on `inputs` and applies every check (docs/verification.md). With runs = 2 it
// runs twice, on poison A then poison B, and compares the runs (races); runs = 1 is poison A only.
// Scratch buffers are poisoned before the first run, except with `keep_scratch`: the verification after
// timing sees what the candidate left there, so that a cache kept in them serves stale answers.
Verdict verify_once(WorkerState& state, TaskSpec const& task, SizeCase const& size, Callable& candidate,
                    TrialInputs const& inputs, MaskedResults const& expected, double deadline_ms,
                    int runs = 2, bool keep_scratch = false) {
  auto& size_buffers = get_buffers(state, task, size);
  // Fast path: both runs checked on the device. It only ever accepts; any doubt (or a failure to
  // explain) goes to the host path below, which decides and writes the message.
  if (DeviceTrial const* trial = device_trial(state, task, size, inputs, expected)) {
    if (auto verdict = verify_on_device(state, task, size, size_buffers, candidate, *trial, deadline_ms, runs,
                                        keep_scratch)) {
      return *verdict;
    }
  }
  auto& set = size_buffers.candidate;
  auto args = unwrap(ArgPack::build(task, size, set), "");
  std::vector<std::vector<std::byte>> outs[2];
  std::byte const poisons[2] = {kPoisonA, kPoisonB};
  for (int run = 0; run < runs; ++run) {
    // Run 2 restores only the inout buffers: inputs were checked unchanged after run 1.
    require(set.upload(inputs, /*inouts_only=*/run == 1), "");
    require(set.poison_outputs(poisons[run]), "");
    if (run == 0 && !keep_scratch) require(set.poison_scratch(kPoisonA), "");
    require(set.write_guards(), "");
    if (auto failure = call_candidate(state, candidate, args, deadline_ms)) return *failure;
    auto damage = unwrap(set.check_guards(), "");
    if (damage) return Verdict{CandidateStatus::out_of_bounds_write, *damage};
    for (std::size_t i = 0; i < set.buffers().size(); ++i) {
      auto const& b = set.buffers()[i];
      if (b.role == Role::input) {
        if (run == 1) continue;
        auto now = unwrap(set.download(i), "");
        if (auto diff = first_difference(inputs.buffers[i].bytes, now)) {
          return Verdict{CandidateStatus::input_mutated,
                         "input buffer '" + b.name + "' was modified (first change at byte " +
                             std::to_string(*diff) + " of " + std::to_string(b.bytes) + ")"};
        }
      } else if (is_compared(b.role)) {
        outs[run].push_back(unwrap(set.download(i), ""));
      }
    }
  }
  Verdict verdict;
  std::size_t k = 0;
  std::vector<CompareResult> results;
  for (auto const& b : set.buffers()) {
    if (!is_compared(b.role)) continue;
    auto tol = task.tolerance_for(b.dtype);
    std::optional<std::byte> poison;
    if (b.role == Role::output) poison = kPoisonA;
    ClearBytes const reference = expected.open(k);  // the candidate has finished: opened, then wiped
    results.push_back(compare_outputs(b.dtype, reference.bytes(), outs[0][k], tol, poison));
    auto const& r = results.back();
    verdict.max_abs_err = std::max(verdict.max_abs_err, r.max_abs_err);
    verdict.max_rel_err = std::max(verdict.max_rel_err, r.max_rel_err);
    verdict.mismatches += r.mismatches;
    if (r.unwritten > 0) {
      verdict.status = CandidateStatus::wrong_output;
      verdict.message = "buffer '" + b.name + "': " + r.summary;
      return verdict;
    }
    // The second run had the other poison: an element left unwritten whose reference value happens
    // to equal the first poison's bytes shows up here.
    if (runs > 1 && b.role == Role::output && outs[0][k] != outs[1][k]) {
      auto second = compare_outputs(b.dtype, reference.bytes(), outs[1][k], tol, kPoisonB);
      if (second.unwritten > 0) {
        verdict.status = CandidateStatus::wrong_output;
        verdict.message = "buffer '" + b.name + "': " + second.summary;
        return verdict;
      }
    }
    ++k;
  }
  k = 0;
  for (auto const& b : set.buffers()) {
    if (!is_compared(b.role) || runs < 2) continue;
    if (outs[0][k] == outs[1][k]) {  // bitwise identical: deterministic, no need for a tolerance
      ++k;
      continue;
    }
    auto tol = task.tolerance_for(b.dtype);
    auto again = compare_outputs(b.dtype, outs[0][k], outs[1][k], tol);
    if (!again.passed) {
      verdict.status = CandidateStatus::nondeterministic;
      verdict.message = "buffer '" + b.name + "': two runs on identical inputs differ: " + again.summary;
      return verdict;
    }
    ++k;
  }
  k = 0;
  for (auto const& b : set.buffers()) {
    if (!is_compared(b.role)) continue;
    if (!results[k].passed) {
      verdict.status = CandidateStatus::wrong_output;
      verdict.message = "buffer '" + b.name + "': " + results[k].summary;
      return verdict;
    }
    ++k;
  }
  return verdict;
}

// The output and scratch buffers of `set`, which a timed reference (or baseline) call fills with the answer
// and its intermediate values.
std::vector<DeviceRange> output_ranges(BufferSet const& set) {
  std::vector<DeviceRange> ranges;
  for (auto const& b : set.buffers()) {
    if ((b.role == Role::output || b.role == Role::scratch) && b.bytes > 0)
      ranges.push_back(DeviceRange{b.data(), b.bytes});
  }
  return ranges;
}

TimingFields timing_fields(TimingSubject const& s, bool device_wide) {
  TimingFields t;
  t.us = summarize(s.samples_us);
  if (!s.graph_us.empty()) t.graph_us = summarize(s.graph_us);
  t.device_wide = device_wide;
  t.warmup_ms = s.warmup_ms;
  return t;
}

VerdictFields verdict_fields(Verdict const& v) {
  return VerdictFields{v.status, v.message, v.max_abs_err, v.max_rel_err, v.mismatches};
}

// Reads the request with `parse` and runs a handler body on it; a malformed request and kopt-side
// failures (HandlerError) become an {"error": ...} reply instead of ending the worker.
template <class Request, class Body>
json guarded(char const* op, json const& request, Result<Request> (*parse)(json const&), Body&& body) {
  ErrorReply error{op, request.value("id", std::int64_t{0}), ErrorCode::internal_error, {}};
  auto parsed = parse(request);
  if (!parsed) {
    error.message = parsed.error().message;
    return to_json(error);
  }
  try {
    return body(*parsed);
  } catch (HandlerError const& e) {
    error.code = e.code;
    error.message = e.message;
    return to_json(error);
  }
}

Callable* get_baseline(WorkerState& state, std::optional<ArtifactRef> const& baseline) {
  if (!baseline) return nullptr;
  return &get_trusted(state, *baseline, "baseline");
}

// Trial-0 inputs of `seed` uploaded into the size case's candidate (guarded) or reference buffers,
// outputs poisoned: the arguments of a call outside verification (single_trial, energy).
ArgPack staged_arguments(WorkerState& state, TaskSpec const& task, SizeCase const& size, std::uint64_t seed,
                         bool reference_buffers) {
  auto const& inputs = trial_inputs(state, task, size, seed, 0);
  auto& buffers = get_buffers(state, task, size);
  auto& set = reference_buffers ? buffers.reference : buffers.candidate;
  require(set.upload(inputs), "");
  require(set.poison_outputs(kPoisonA), "");
  require(set.poison_scratch(kPoisonA), "");
  return unwrap(ArgPack::build(task, size, set), "");
}

// An evaluate request runs in phases: verify every selected size case, time the timed ones, verify them
// again, then assemble the verdict. This is what the phases share.
struct Evaluation {
  WorkerState& state;
  EvaluateRequest const& request;
  TaskSpec const& task;
  std::vector<SizeCase const*> sizes;
  Callable* reference =
      nullptr;                   // nullptr: the reference runs outside the worker (request.reference_results)
  Callable* baseline = nullptr;  // nullptr: the task has none
  Callable& candidate;
  bool screen = false;               // the screen tier: fewer repeat runs, cached reference timings
  EvaluateReply reply;               // phase times filled as the phases end
  std::vector<SizeVerdict> entries;  // one per selected size case; the reply keeps those evaluated
};

// The reference's results for `inputs`: its launcher run in the worker, or the file kopt wrote.
MaskedResults const& expected_outputs(Evaluation& e, SizeCase const& size, TrialInputs const& inputs) {
  if (e.reference != nullptr) return reference_outputs(e.state, e.task, size, *e.reference, inputs);
  return external_results(e.state, e.task, size, inputs, e.request.reference_results);
}

// A failure that decides the candidate's verdict: it, and how many size cases the reply reports.
struct Decision {
  Verdict verdict;
  std::size_t evaluated = 0;
};

// Phase 1 on one size case: every trial on fresh inputs, checked against the reference. The screen tier
// runs trial 0 twice (races) and later trials once; the confirm tier runs every trial twice.
std::optional<Verdict> verify_trials(Evaluation& e, std::size_t si) {
  SizeCase const& size = *e.sizes[si];
  SizeVerdict& entry = e.entries[si];
  Verdict worst;
  for (int trial = 0; trial < e.task.trials; ++trial) {
    std::uint64_t const s = trial_seed(e.request.selection.seed, si, trial);
    entry.seeds.push_back(s);
    auto const& inputs = trial_inputs(e.state, e.task, size, s, trial);
    auto const& expected = expected_outputs(e, size, inputs);
    Verdict v = verify_once(e.state, e.task, size, e.candidate, inputs, expected,
                            candidate_deadline_ms(e.state, e.task, size, e.request.timeout),
                            e.screen && trial > 0 ? 1 : 2);
    worst.max_abs_err = std::max(worst.max_abs_err, v.max_abs_err);
    worst.max_rel_err = std::max(worst.max_rel_err, v.max_rel_err);
    worst.mismatches = std::max(worst.mismatches, v.mismatches);
    if (v.failed()) {
      v.message = "size '" + size.name + "', trial " + std::to_string(trial) + " (seed " + std::to_string(s) +
                  "): " + v.message;
      entry.verdict = verdict_fields(v);
      return v;
    }
  }
  entry.verdict = verdict_fields(worst);
  return std::nullopt;
}

std::optional<Decision> verify_sizes(Evaluation& e) {
  auto const start = Clock::now();
  for (std::size_t si = 0; si < e.sizes.size(); ++si) {
    SizeCase const& size = *e.sizes[si];
    e.state.emitter.progress("verify " + size.name);
    SizeVerdict& entry = e.entries[si];
    entry.size = size.name;
    entry.verify_only = size.verify_only;
    if (auto st = e.candidate.prepare(e.task.env_for(size)); !st) {  // not verified: no verification time
      entry.verdict = verdict_fields(Verdict{CandidateStatus::launch_error, st.error().message});
      return Decision{
          Verdict{CandidateStatus::launch_error, "size '" + size.name + "': " + st.error().message}, si + 1};
    }
    if (auto failure = verify_trials(e, si)) {
      e.reply.verify_ms = ms_since(start);
      return Decision{*failure, si + 1};
    }
  }
  e.reply.verify_ms = ms_since(start);
  return std::nullopt;
}

// The timed calls of one size case: reference (unless the screen tier has its samples), candidate and,
// when asked, baseline, each with its arguments.
struct TimedSize {
  ArgPack reference_args;
  ArgPack candidate_args;
  double candidate_deadline_ms = 0.0;
  std::string cache_key;  // task and size case: the screen tier's caches
  bool reference_cached = false;
  TimingSubject reference;
  TimingSubject candidate;
  TimingSubject baseline;
  std::vector<TimingSubject*> subjects;  // those timed now
};

void set_up_timing(Evaluation& e, SizeCase const& size, TimedSize& t) {
  auto& buffers = get_buffers(e.state, e.task, size);
  t.reference_args = unwrap(ArgPack::build(e.task, size, buffers.reference), "");
  t.candidate_args = unwrap(ArgPack::build(e.task, size, buffers.candidate), "");
  if (e.reference != nullptr) require(e.reference->prepare(e.task.env_for(size)), "");
  t.candidate_deadline_ms = candidate_deadline_ms(e.state, e.task, size, e.request.timeout);
  t.reference = make_subject("reference", e.reference, t.reference_args.data(), 600000);
  t.candidate = make_subject("candidate", &e.candidate, t.candidate_args.data(), t.candidate_deadline_ms);
  t.cache_key = e.task.dir.string() + "#" + size.name;
  if (e.screen) t.candidate.race_best_us = e.state.screen_best_us[t.cache_key];
  t.baseline = make_subject("baseline", e.baseline, t.reference_args.data(), 600000);
  t.reference.scrub_after = output_ranges(buffers.reference);
  t.baseline.scrub_after = t.reference.scrub_after;
  t.reference_cached = e.screen && e.state.screen_reference_us.contains(t.cache_key);
  if (e.reference != nullptr && !t.reference_cached) t.subjects.push_back(&t.reference);
  t.subjects.push_back(&t.candidate);
  if (e.baseline != nullptr && e.request.time_baseline) {
    (void)e.baseline->prepare(e.task.env_for(size));
    t.subjects.push_back(&t.baseline);
  }
}

// The size case's timings and notes; the screen tier's caches of reference samples and best candidate.
void record_timings(Evaluation& e, TimingPolicy const& policy, TimingOutcome const& outcome, TimedSize& t,
                    SizeVerdict& entry) {
  if (e.reference != nullptr) {  // an outside reference is timed by kopt, not here
    if (t.reference_cached) {
      t.reference.samples_us = e.state.screen_reference_us[t.cache_key];
    } else if (e.screen) {
      e.state.screen_reference_us[t.cache_key] = t.reference.samples_us;
    }
    entry.reference = timing_fields(t.reference, outcome.device_wide);
  }
  entry.candidate = timing_fields(t.candidate, outcome.device_wide);
  if (std::find(t.subjects.begin(), t.subjects.end(), &t.baseline) != t.subjects.end()) {
    entry.baseline = timing_fields(t.baseline, outcome.device_wide);
  }
  if (!outcome.note.empty()) entry.timing_note = outcome.note;
  if (t.candidate.stopped_early) {
    std::string note = fmt::format(
        "screen sampling stopped after {} samples: more than {:g}x slower than the fastest candidate "
        "screened on this size ({:.1f} us)",
        t.candidate.samples_us.size(), policy.race_ratio, t.candidate.race_best_us);
    if (!outcome.note.empty()) note = outcome.note + "; " + note;
    entry.timing_note = note;
  } else if (e.screen) {
    double const median = summarize(t.candidate.samples_us).median;
    double& best = e.state.screen_best_us[t.cache_key];
    if (median > 0 && (best <= 0 || median < best)) best = median;
  }
}

// One more call of launchers with CUPTI activity records on (never while timing). A launcher reference
// recorded here leaves the answer in its outputs: poisoned right after. Returns the milliseconds it took.
double record_activity(Evaluation& e, SizeCase const& size, TimedSize& t, SizeVerdict& entry) {
  Callable* const activity_reference =
      !t.reference_cached && e.request.reference && e.request.reference->mode == "launcher" ? e.reference
                                                                                            : nullptr;
  auto const start = Clock::now();
  add_kernel_activity(
      ActivitySubjects{&e.state.watchdog, e.state.flush_buffer.get(), e.state.flush_bytes,
                       e.request.candidate.mode == "launcher", &e.candidate, t.candidate_args.data(),
                       t.candidate_deadline_ms, activity_reference, t.reference_args.data()},
      entry);
  double const activity_ms = ms_since(start);
  if (activity_reference != nullptr)
    require(get_buffers(e.state, e.task, size).reference.poison_outputs(kPoisonA), "");
  return activity_ms;
}

// Phase 2 on one timed size case: reference and candidate (and baseline) interleaved, then kernel
// activity (its milliseconds added to `activity_ms`). A failing reference or baseline is kopt's problem
// (HandlerError); a failing candidate decides.
std::optional<Verdict> time_size(Evaluation& e, std::size_t si, TimingPolicy const& policy,
                                 double& activity_ms) {
  SizeCase const& size = *e.sizes[si];
  e.state.emitter.progress("time " + size.name);
  (void)e.candidate.prepare(e.task.env_for(size));
  TimedSize t;
  set_up_timing(e, size, t);
  Timer timer(policy, e.state.watchdog, e.state.flush_buffer.get(), e.state.flush_bytes,
              e.state.idle_sync_us);
  TimingOutcome outcome = timer.run(t.subjects);
  if (!outcome.ok) {
    if (outcome.failed_subject != "candidate") {
      throw HandlerError{ErrorCode::worker_error, "the task's " + outcome.failed_subject +
                                                      " failed while timed: " + outcome.failure.message};
    }
    Verdict v = from_cuda(outcome.failure, "size '" + size.name + "', while timed: ");
    e.entries[si].verdict = verdict_fields(v);
    return v;
  }
  record_timings(e, policy, outcome, t, e.entries[si]);
  activity_ms += record_activity(e, size, t, e.entries[si]);
  return std::nullopt;
}

std::optional<Decision> time_sizes(Evaluation& e) {
  auto const start = Clock::now();
  TimingPolicy const policy = policy_for(e.request.tier);
  double activity_ms = 0.0;  // inside time_ms: the kernel-activity calls after timing; reported on success
  for (std::size_t si = 0; si < e.sizes.size(); ++si) {
    if (e.sizes[si]->verify_only) continue;
    if (auto failure = time_size(e, si, policy, activity_ms)) {
      e.reply.time_ms = ms_since(start);
      return Decision{*failure, si + 1};
    }
  }
  e.reply.time_ms = ms_since(start);
  e.reply.activity_ms = activity_ms;
  return std::nullopt;
}

// Phase 3: verify the timed size cases again, on fresh inputs in the same buffers (caching by pointer,
// state drift).
std::optional<Decision> verify_after_timing(Evaluation& e) {
  auto const start = Clock::now();
  for (std::size_t si = 0; si < e.sizes.size(); ++si) {
    SizeCase const& size = *e.sizes[si];
    if (size.verify_only) continue;
    std::uint64_t const s = trial_seed(e.request.selection.seed, si, e.task.trials);
    e.entries[si].seeds.push_back(s);
    auto const& inputs = trial_inputs(e.state, e.task, size, s, e.task.trials);
    auto const& expected = expected_outputs(e, size, inputs);
    (void)e.candidate.prepare(e.task.env_for(size));
    Verdict v = verify_once(e.state, e.task, size, e.candidate, inputs, expected,
                            candidate_deadline_ms(e.state, e.task, size, e.request.timeout), e.screen ? 1 : 2,
                            /*keep_scratch=*/true);
    if (v.failed()) {
      v.message = "size '" + size.name + "', verification after timing (seed " + std::to_string(s) +
                  "): " + v.message;
      e.entries[si].verdict = verdict_fields(v);
      e.reply.verify_ms += ms_since(start);
      return Decision{v, e.sizes.size()};
    }
  }
  e.reply.verify_ms += ms_since(start);
  return std::nullopt;
}

// Phase 4: the verdict, with the size cases evaluated up to and including the one that decided it.
json assemble_verdict(Evaluation& e, Decision const& decision) {
  e.reply.candidate = verdict_fields(decision.verdict);
  e.reply.sizes.assign(e.entries.begin(),
                       e.entries.begin() + static_cast<std::ptrdiff_t>(decision.evaluated));
  e.reply.restart = decision.verdict.sticky;
  return to_json(e.reply);
}

json evaluate(WorkerState& state, EvaluateRequest const& request) {
  EvaluateReply reply;
  reply.id = request.id;
  auto const& task = get_task(state, request.selection.task_dir);
  auto sizes = select_sizes(task, request.selection.sizes);
  Callable* reference = request.reference ? &get_trusted(state, *request.reference, "reference") : nullptr;
  Callable* baseline = get_baseline(state, request.baseline);
  auto const t_load = Clock::now();
  auto loaded = load_callable(request.candidate);
  reply.load_ms = ms_since(t_load);
  if (!loaded) {
    reply.candidate = verdict_fields(Verdict{CandidateStatus::load_error, loaded.error().message});
    return to_json(reply);
  }
  std::size_t const count = sizes.size();
  Evaluation e{state,     request,
               task,      std::move(sizes),
               reference, baseline,
               **loaded,  request.tier == TimingTier::screen,
               reply,     std::vector<SizeVerdict>(count)};
  for (auto phase : {verify_sizes, time_sizes, verify_after_timing}) {
    if (auto decided = phase(e)) return assemble_verdict(e, *decided);
  }
  return assemble_verdict(e, Decision{Verdict{}, count});
}

// What check_task's steps share: the task, its trusted code and the timing policy.
struct TaskCheck {
  WorkerState& state;
  TaskSpec const& task;
  Callable& reference;
  Callable* baseline = nullptr;  // nullptr: the task has none
  TimingPolicy policy;
};

// The reference against itself on the same inputs: deterministic, and not a constant a kernel could
// write without computing anything. A result of a single element (a dot product, a reduction) is
// trivially "constant"; fresh inputs in every trial change it, so only results of two or more elements
// can be degenerate.
void check_reference_itself(TaskSpec const& task, MaskedResults const& first, MaskedResults const& second,
                            CheckTaskSize& entry) {
  bool deterministic = true;
  bool constant = true;
  std::size_t result_elements = 0;
  std::size_t k = 0;
  for (auto const& b : task.buffers) {
    if (!is_compared(b.role)) continue;
    ClearBytes const first_k = first.open(k);
    auto again =
        compare_outputs(b.dtype, first_k.bytes(), second.open(k).bytes(), task.tolerance_for(b.dtype));
    deterministic = deterministic && again.passed;
    if (!again.passed)
      entry.note += "reference is not deterministic on '" + b.name + "': " + again.summary + ". ";
    auto const width = size_of(b.dtype);
    auto const& clear = first_k.bytes();
    result_elements += clear.size() / width;
    for (std::size_t e = 1; e * width < clear.size() && constant; ++e) {
      constant = std::equal(clear.begin(), clear.begin() + static_cast<std::ptrdiff_t>(width),
                            clear.begin() + static_cast<std::ptrdiff_t>(e * width));
    }
    ++k;
  }
  entry.deterministic = deterministic;
  entry.reference_constant = constant && result_elements >= 2;
}

// The vendor baseline must compute the same function as the reference.
void check_baseline(TaskCheck& c, SizeCase const& size, TrialInputs const& inputs,
                    MaskedResults const& expected, CheckTaskSize& entry) {
  (void)c.baseline->prepare(c.task.env_for(size));
  Verdict v = verify_once(c.state, c.task, size, *c.baseline, inputs, expected, 600000);
  if (v.failed()) {
    entry.note += "baseline does not match the reference: " + v.message + ". ";
    entry.baseline_status = std::string(to_string(v.status));
  } else {
    entry.baseline_status = "ok";
  }
}

// The reference's timings, and the baseline's when it matches the reference.
void time_trusted_code(TaskCheck& c, SizeCase const& size, CheckTaskSize& entry) {
  auto& bufs = get_buffers(c.state, c.task, size);
  auto ref_args = unwrap(ArgPack::build(c.task, size, bufs.reference), "");
  auto base_args = unwrap(ArgPack::build(c.task, size, bufs.candidate), "");
  require(c.reference.prepare(c.task.env_for(size)), "");
  TimingSubject ref_subject = make_subject("reference", &c.reference, ref_args.data(), 600000);
  TimingSubject base_subject = make_subject("baseline", c.baseline, base_args.data(), 600000);
  std::vector<TimingSubject*> subjects{&ref_subject};
  if (c.baseline != nullptr && entry.baseline_status == "ok") subjects.push_back(&base_subject);
  Timer timer(c.policy, c.state.watchdog, c.state.flush_buffer.get(), c.state.flush_bytes,
              c.state.idle_sync_us);
  auto outcome = timer.run(subjects);
  if (!outcome.ok) {
    throw HandlerError{ErrorCode::worker_error, "the task's " + outcome.failed_subject +
                                                    " failed while timed: " + outcome.failure.message};
  }
  entry.reference = timing_fields(ref_subject, outcome.device_wide);
  if (subjects.size() > 1) entry.baseline = timing_fields(base_subject, outcome.device_wide);
}

// check_task on one size case, on the trial-0 inputs of `seed`.
CheckTaskSize check_size(TaskCheck& c, SizeCase const& size, std::uint64_t seed) {
  c.state.emitter.progress("check " + size.name);
  CheckTaskSize entry;
  entry.size = size.name;
  entry.verify_only = size.verify_only;
  auto const& inputs = trial_inputs(c.state, c.task, size, seed, 0);
  auto first = reference_outputs(c.state, c.task, size, c.reference, inputs);  // copy: the cache may be reset
  c.state.reference_outputs.clear();
  c.state.reference_output_bytes = 0;
  auto const& second = reference_outputs(c.state, c.task, size, c.reference, inputs);
  check_reference_itself(c.task, first, second, entry);
  if (c.baseline != nullptr) check_baseline(c, size, inputs, first, entry);
  if (!size.verify_only) time_trusted_code(c, size, entry);
  return entry;
}

}  // namespace

json handle_evaluate(WorkerState& state, json const& body) {
  return guarded("evaluate", body, parse_evaluate_request,
                 [&](EvaluateRequest const& request) { return evaluate(state, request); });
}

json handle_check_task(WorkerState& state, json const& body) {
  return guarded("check_task", body, parse_check_task_request, [&](CheckTaskRequest const& request) -> json {
    auto const& task = get_task(state, request.selection.task_dir);
    auto const sizes = select_sizes(task, request.selection.sizes);
    TaskCheck check{state, task, get_trusted(state, request.reference, "reference"),
                    get_baseline(state, request.baseline), policy_for(request.tier)};
    CheckTaskReply reply;
    reply.id = request.id;
    for (std::size_t si = 0; si < sizes.size(); ++si) {
      reply.sizes.push_back(check_size(check, *sizes[si], trial_seed(request.selection.seed, si, 0)));
    }
    return to_json(reply);
  });
}

json handle_single_trial(WorkerState& state, json const& body) {
  return guarded(
      "single_trial", body, parse_single_trial_request, [&](SingleTrialRequest const& request) -> json {
        SingleTrialReply reply;
        reply.id = request.id;
        auto const& task = get_task(state, request.selection.task_dir);
        auto sizes = select_sizes(task, request.selection.sizes);
        SizeCase const& size = *sizes.front();
        auto loaded = load_callable(request.candidate);
        if (!loaded) {
          reply.candidate = verdict_fields(Verdict{CandidateStatus::load_error, loaded.error().message});
          return to_json(reply);
        }
        Callable& candidate = **loaded;
        if (auto st = candidate.prepare(task.env_for(size)); !st) {
          reply.candidate = verdict_fields(Verdict{CandidateStatus::launch_error, st.error().message});
          return to_json(reply);
        }
        auto args = staged_arguments(state, task, size, request.selection.seed, false);
        Verdict v;
        // Under a profiler, the candidate's call is the one NVTX push/pop range it is told to select
        // (ncu --nvtx --nvtx-include "<name>/"): nothing else the worker launches gets profiled.
        std::string const range = request.nvtx_range.value_or(std::string());
        if (!range.empty()) nvtxRangePushA(range.c_str());
        auto failure = call_candidate(state, candidate, args, request.timeout.ceiling_ms);
        if (!range.empty()) nvtxRangePop();
        if (failure) v = *failure;
        reply.candidate = verdict_fields(v);
        reply.size = size.name;
        reply.restart = v.sticky;
        return to_json(reply);
      });
}

Result<StagedCall> stage_call(WorkerState& state, TaskSelection const& selection, bool reference_buffers) {
  try {
    auto const& task = get_task(state, selection.task_dir);
    SizeCase const& size = *select_sizes(task, selection.sizes).front();
    return StagedCall{&task, &size, staged_arguments(state, task, size, selection.seed, reference_buffers)};
  } catch (HandlerError const& e) {
    return make_error(e.code, e.message);
  }
}

Result<Callable*> trusted_callable(WorkerState& state, ArtifactRef const& artifact, char const* what) {
  try {
    return &get_trusted(state, artifact, what);
  } catch (HandlerError const& e) {
    return make_error(e.code, e.message);
  }
}

}  // namespace kopt::worker
