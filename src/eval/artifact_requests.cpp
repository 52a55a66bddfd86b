#include "eval/artifact_requests.hpp"

#include <fstream>
#include <sstream>

#include "eval/trampoline.hpp"

namespace kopt {
namespace {

Result<std::string> read_file(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::io_error, "cannot read " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CompileRequest launcher_request(TaskSpec const& task, std::string source, std::filesystem::path const& origin,
                                std::vector<std::string> libraries) {
  CompileRequest req;
  req.mode = CandidateMode::launcher;
  req.source = std::move(source) + "\n" + trampoline_source(task.signature);
  req.origin = origin;
  req.entry = trampoline_symbol(task.signature);
  req.include_dirs = {task.dir};
  req.libraries = std::move(libraries);
  return req;
}

worker::ArtifactRef launcher_ref(Artifact const& artifact) {
  worker::ArtifactRef ref;
  ref.mode = "launcher";
  ref.path = artifact.path.string();
  ref.symbol = artifact.symbol;
  return ref;
}

Result<worker::ArtifactRef> build_launcher(Compiler const& compiler, TaskSpec const& task,
                                           SourceSpec const& spec, char const* what) {
  auto text = read_file(spec.path);
  if (!text) return text.error();
  auto out = compiler.compile(launcher_request(task, *text, spec.path, spec.libraries));
  if (!out) return out.error();
  if (!out->ok) {
    return make_error(ErrorCode::invalid_spec, std::string("the task's ") + what + " (" + spec.path.string() +
                                                   ") does not compile:\n" + out->diagnostics);
  }
  return launcher_ref(out->artifact);
}

}  // namespace

Result<TrustedArtifacts> build_trusted(Compiler const& compiler, TaskSpec const& task) {
  TrustedArtifacts t;
  auto ref = build_launcher(compiler, task, task.reference, "reference");
  if (!ref) return ref.error();
  t.reference = *ref;
  if (task.baseline) {
    auto base = build_launcher(compiler, task, *task.baseline, "baseline");
    if (!base) return base.error();
    t.baseline = *base;
  }
  return t;
}

CandidatePlan plan_candidate(TaskSpec const& task, CandidateSource const& source,
                             std::optional<CandidateMode> mode) {
  CandidatePlan plan;
  plan.name = source.name.empty() ? source.path.filename().string() : source.name;
  plan.path = source.path;
  std::string text = source.source;
  if (text.empty()) {
    auto read = read_file(source.path);
    if (!read) {
      plan.failure = read.error().message;
      return plan;
    }
    text = *read;
  }
  std::string const kernel_name = task.launch ? task.launch->kernel : task.signature.function;
  if (!mode) {
    mode = detect_mode(text, task.signature.function);
    if (!mode && kernel_name != task.signature.function) mode = detect_mode(text, kernel_name);
  }
  if (!mode) {
    plan.failure = "found neither an extern \"C\" launcher nor a __global__ kernel named '" +
                   task.signature.function + "'" +
                   (kernel_name != task.signature.function ? " or '" + kernel_name + "'" : std::string());
    return plan;
  }
  plan.mode = *mode;
  if (plan.mode == CandidateMode::launcher) {
    plan.request = launcher_request(task, std::move(text), source.path,
                                    task.baseline ? task.baseline->libraries : task.reference.libraries);
    plan.request->flags = source.flags;
    return plan;
  }
  auto launch = candidate_launch(text, task.launch, task.signature.function);
  if (!launch) {
    if (launch.error().code == ErrorCode::not_found) plan.failure_status = CandidateStatus::load_error;
    plan.failure = launch.error().message;
    return plan;
  }
  plan.launch = *launch;
  CompileRequest req;
  req.mode = CandidateMode::kernel;
  req.source = std::move(text);
  req.origin = source.path;
  req.entry = launch->kernel;
  req.include_dirs = {task.dir};
  req.flags = source.flags;
  plan.request = std::move(req);
  return plan;
}

worker::ArtifactRef artifact_ref(TaskSpec const& task, CandidatePlan const& plan, Artifact const& artifact) {
  if (plan.mode == CandidateMode::launcher) return launcher_ref(artifact);
  worker::ArtifactRef ref;
  ref.mode = "kernel";
  ref.path = artifact.path.string();
  ref.symbol = artifact.symbol;
  for (auto const& e : plan.launch->grid) ref.grid.push_back(e.text());
  for (auto const& e : plan.launch->block) ref.block.push_back(e.text());
  ref.shared_bytes = plan.launch->shared_bytes.text().empty() ? "0" : plan.launch->shared_bytes.text();
  for (auto const& p : task.signature.params) {
    ref.param_sizes.push_back(p.is_pointer ? static_cast<int>(sizeof(void*))
                                           : static_cast<int>(size_of(p.dtype)));
  }
  return ref;
}

}  // namespace kopt
