// From sources to compile requests and from artifacts to what the worker loads: the task's trusted
// launchers (reference, baseline) and each candidate, in kernel or launcher mode.
#pragma once

#include <optional>
#include <string>

#include "kopt/candidate_status.hpp"
#include "kopt/compile.hpp"
#include "kopt/eval.hpp"
#include "kopt/task.hpp"
#include "kopt/worker/protocol.hpp"

namespace kopt {

struct TrustedArtifacts {
  std::optional<worker::ArtifactRef> reference;  // none for a PyTorch reference (it runs outside the worker)
  std::optional<worker::ArtifactRef> baseline;
};

// Builds the reference and the baseline (launcher mode). A failure is the task's problem, reported
// as invalid_spec with the compiler's message.
Result<TrustedArtifacts> build_trusted(Compiler const& compiler, TaskSpec const& task);

struct CandidatePlan {
  std::string name;
  std::filesystem::path path;
  CandidateMode mode = CandidateMode::kernel;
  std::optional<CompileRequest> request;  // unset: the candidate failed before compiling
  CandidateStatus failure_status = CandidateStatus::compile_error;
  std::string failure;
  std::optional<LaunchSpec> launch;  // kernel mode: task geometry with the annotation applied
};

CandidatePlan plan_candidate(TaskSpec const& task, CandidateSource const& source,
                             std::optional<CandidateMode> mode);

worker::ArtifactRef artifact_ref(TaskSpec const& task, CandidatePlan const& plan, Artifact const& artifact);

// A kernel-mode launch's `args` as the worker takes them (empty when the kernel takes the task's parameters
// in order). Errors (invalid_spec): an argument that names no parameter of the task, or a computed value
// over names that are not the task's integer scalars.
Result<std::vector<worker::KernelArgumentRef>> kernel_arguments(TaskSpec const& task,
                                                                LaunchSpec const& launch);

}  // namespace kopt
