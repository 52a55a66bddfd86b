#include "eval/artifact_requests.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <set>
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
  if (!task.reference.is_torch()) {
    auto ref = build_launcher(compiler, task, task.reference, "reference");
    if (!ref) return ref.error();
    t.reference = *ref;
  }
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
  std::string kernel_name = task.launch ? task.launch->kernel : task.signature.function;
  // A `// kopt:launch ... kernel=NAME` line names the candidate's own kernel.
  if (auto const annotated = apply_launch_annotation(text, LaunchSpec{});
      annotated && !annotated->kernel.empty()) {
    kernel_name = annotated->kernel;
  }
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
  if (auto arguments = kernel_arguments(task, *launch); !arguments) {
    plan.failure = arguments.error().message;
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
  auto arguments = kernel_arguments(task, *plan.launch);  // checked by plan_candidate
  if (arguments) ref.arguments = std::move(*arguments);
  // Without args=, a kernel takes the launcher's parameters but its stream: mapped when there is one.
  if (auto const taken = task.signature.kernel_parameters();
      ref.arguments.empty() && taken.size() != task.signature.params.size()) {
    for (std::size_t i : taken) ref.arguments.push_back({static_cast<int>(i), {}, {}});
  }
  auto const size_of_param = [](Param const& p) {
    return p.is_pointer ? static_cast<int>(sizeof(void*)) : static_cast<int>(size_of(p.dtype));
  };
  if (ref.arguments.empty()) {
    for (auto const& p : task.signature.params) ref.param_sizes.push_back(size_of_param(p));
  }
  for (worker::KernelArgumentRef const& a : ref.arguments) {
    ref.param_sizes.push_back(
        a.parameter >= 0 && a.type.empty()
            ? size_of_param(task.signature.params[static_cast<std::size_t>(a.parameter)])
            : static_cast<int>(size_of(*dtype_from_string(a.type))));
  }
  return ref;
}

Result<std::vector<worker::KernelArgumentRef>> kernel_arguments(TaskSpec const& task,
                                                                LaunchSpec const& launch) {
  std::vector<worker::KernelArgumentRef> out;
  std::set<std::string, std::less<>> integer_scalars;
  for (ScalarSpec const& s : task.scalars) {
    if (!is_floating(s.dtype)) integer_scalars.insert(s.name);
  }
  for (KernelArgument const& a : launch.args) {
    worker::KernelArgumentRef ref;
    if (!a.parameter.empty()) {
      auto const& params = task.signature.params;
      auto const it =
          std::find_if(params.begin(), params.end(), [&](Param const& p) { return p.name == a.parameter; });
      if (it == params.end()) {
        std::vector<std::string> names;
        names.reserve(params.size());
        for (Param const& p : params) names.push_back(p.name);
        return make_error(ErrorCode::invalid_spec,
                          fmt::format("kopt:launch args: '{}' is not a parameter of {} (its parameters: {})",
                                      a.parameter, task.signature.function, fmt::join(names, ", ")));
      }
      ref.parameter = static_cast<int>(it - params.begin());
      if (it->is_stream) {
        return make_error(ErrorCode::invalid_spec,
                          fmt::format("kopt:launch args: '{}' is {}'s stream, not a kernel argument (kopt "
                                      "launches the kernel on it)",
                                      a.parameter, task.signature.function));
      }
      if (a.converted) {
        if (it->is_pointer || it->dtype != DType::f64) {
          return make_error(ErrorCode::invalid_spec,
                            fmt::format("kopt:launch args: '{}': '{}' is not a double scalar of {}", a.text,
                                        a.parameter, task.signature.function));
        }
        ref.type = std::string(to_string(a.type));
      }
    } else if (is_floating(a.type)) {
      ref.type = std::string(to_string(a.type));
      ref.value = fmt::format("{}", a.number);
    } else {
      for (std::string const& name : a.expression.identifiers()) {
        if (!integer_scalars.contains(name)) {
          return make_error(
              ErrorCode::invalid_spec,
              fmt::format("kopt:launch args: '{}' names '{}', which is not an integer scalar of {}", a.text,
                          name, task.signature.function));
        }
      }
      ref.type = std::string(to_string(a.type));
      ref.value = a.expression.text();
    }
    out.push_back(std::move(ref));
  }
  return out;
}

}  // namespace kopt
