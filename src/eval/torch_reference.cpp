#include "eval/torch_reference.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <variant>

#include "kopt/inputs.hpp"
#include "kopt/worker/masked_results.hpp"

namespace kopt {

using nlohmann::json;

namespace {

constexpr std::chrono::minutes kStartTimeout{3};     // import torch, CUDA initialisation
constexpr std::chrono::minutes kForwardTimeout{10};  // one forward (the first one autotunes cuDNN)
constexpr std::chrono::minutes kEagerTimeout{10};    // eager timing of one size case
constexpr std::chrono::minutes kCompileTimeout{30};  // torch.compile of one size case, then its timing

Result<std::filesystem::path> make_private_folder(std::filesystem::path const& parent) {
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) return make_error(ErrorCode::io_error, "cannot create " + parent.string() + ": " + ec.message());
  std::string pattern = (parent / "run-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    return make_error(ErrorCode::io_error, "cannot create a folder under " + parent.string());
  return std::filesystem::path(pattern);
}

Status write_file(std::filesystem::path const& path,
                  std::vector<std::vector<std::byte> const*> const& parts) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (auto const* part : parts)
    out.write(reinterpret_cast<char const*>(part->data()), static_cast<std::streamsize>(part->size()));
  out.close();
  if (!out) return make_error(ErrorCode::io_error, "cannot write " + path.string());
  return Ok{};
}

// The whole file in one read into a buffer of its size (outputs of a large problem run to gigabytes).
Result<std::vector<std::byte>> read_file(std::filesystem::path const& path) {
  std::error_code ec;
  auto const size = std::filesystem::file_size(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) return make_error(ErrorCode::io_error, "cannot read " + path.string());
  std::vector<std::byte> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (static_cast<std::size_t>(in.gcount()) != bytes.size())
    return make_error(ErrorCode::io_error, "cannot read " + path.string() + ": it changed while being read");
  return bytes;
}

// The size case's integer values (launcher scalars and variables), as the reference process takes them.
json size_values(SizeCase const& size) {
  json values = json::object();
  for (auto const& [name, value] : size.values) {
    if (auto const* integer = std::get_if<std::int64_t>(&value)) values[name] = *integer;
  }
  for (auto const& [name, value] : size.variables) values[name] = value;
  return values;
}

json tier_json(TimingTier tier, std::int64_t flush_bytes) {
  TimingPolicy const p = policy_for(tier);
  return json{{"warmup_ms", p.warmup_ms},     {"warmup_calls", p.min_warmup_calls},
              {"min_samples", p.min_samples}, {"min_sample_ms", p.min_total_ms},
              {"budget_ms", p.max_wall_ms},   {"flush_bytes", p.flush_l2 ? flush_bytes : 0}};
}

Result<worker::TimingFields> timing_from(json const& reply, std::string const& what) {
  auto const it = reply.find("samples_us");
  if (it == reply.end() || !it->is_array() || it->empty())
    return make_error(ErrorCode::worker_error,
                      "the PyTorch reference process timed " + what + " with no samples");
  std::vector<double> samples;
  for (auto const& s : *it) {
    if (!s.is_number())
      return make_error(ErrorCode::worker_error, "samples_us of " + what + " is not numbers");
    samples.push_back(s.get<double>());
  }
  worker::TimingFields t;
  t.us = summarize(samples);
  t.warmup_ms = reply.value("warmup_ms", 0.0);
  return t;
}

}  // namespace

Result<std::unique_ptr<TorchReference>> TorchReference::start(TaskSpec const& task, int device,
                                                              std::filesystem::path const& work_dir) {
  auto python = find_torch_python();
  if (!python) return python.error();
  std::unique_ptr<TorchReference> ref(new TorchReference());
  ref->python_ = *python;
  auto root = make_private_folder(work_dir / "torch");
  if (!root) return root.error();
  ref->root_ = *root;
  ref->private_dir_ = ref->root_ / "private";
  ref->results_dir_ = ref->root_ / "results";
  std::error_code ec;
  std::filesystem::create_directory(ref->private_dir_, ec);
  std::filesystem::create_directory(ref->results_dir_, ec);
  if (ec) return make_error(ErrorCode::io_error, "cannot create folders under " + ref->root_.string());
  ::chmod(ref->private_dir_.c_str(), 0700);
  std::string const device_name = device < 0 ? std::string("cpu") : fmt::format("cuda:{}", device);
  auto spec = ref->python_.command({"serve", task.dir.string(), "--device", device_name});
  auto process = ChildProcess::spawn(spec);
  if (!process) return process.error();
  ref->process_ = std::move(*process);
  auto hello = ref->call(json{{"op", "hello"}}, kStartTimeout);
  if (!hello) {
    return make_error(hello.error().code,
                      "the PyTorch reference process (" + ref->python_.python.string() + " from " +
                          ref->python_.origin + ") did not start: " + hello.error().message +
                          " (scripts/setup.sh installs torch into .venv; KOPT_PYTHON names another Python)");
  }
  ref->hello_ = *hello;
  return ref;
}

TorchReference::~TorchReference() {
  if (process_.running()) {
    (void)process_.write_line(json{{"id", 0}, {"op", "bye"}}.dump());
    (void)process_.close_and_wait(std::chrono::seconds(10));
  }
  std::error_code ec;
  if (!root_.empty()) std::filesystem::remove_all(root_, ec);
}

std::vector<std::filesystem::path> TorchReference::runtime_dirs() const {
  std::vector<std::filesystem::path> dirs;
  if (auto const it = hello_.find("runtime_dirs"); it != hello_.end() && it->is_array()) {
    for (auto const& dir : *it) {
      if (dir.is_string() && !dir.get<std::string>().empty()) dirs.emplace_back(dir.get<std::string>());
    }
  }
  return dirs;
}

Result<json> TorchReference::call(json request, std::chrono::milliseconds timeout) {
  std::int64_t const id = next_id_++;
  request["id"] = id;
  std::string const op = request.value("op", "");
  auto failed = [&](std::string const& what) {
    std::string tail = process_.stderr_tail(1500);
    return make_error(ErrorCode::worker_error, "PyTorch reference process, " + op + ": " + what +
                                                   (tail.empty() ? "" : "; its stderr ends:\n" + tail));
  };
  if (auto st = process_.write_line(request.dump()); !st) return failed(st.error().message);
  auto const deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto const left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      (void)process_.kill_and_wait();
      return failed("no reply within " + std::to_string(timeout.count() / 1000) + " s (killed)");
    }
    auto line = process_.read_line(left);
    if (!line) return failed(line.error().message);
    if (!*line) continue;
    json reply = json::parse(**line, nullptr, false);
    if (reply.is_discarded() || !reply.is_object())
      return failed("a reply that is not a JSON object: " + **line);
    if (reply.value("id", std::int64_t{-1}) != id) continue;  // a stale reply of a request that timed out
    if (!reply.value("ok", false))
      return failed(reply.value("error", std::string("failed, without a message")));
    return reply;
  }
}

Result<TorchReference::ClearOutputs> TorchReference::forward(TaskSpec const& task, SizeCase const& size,
                                                             std::uint64_t seed, int trial) {
  auto inputs = generate_inputs(task, size, seed, trial);
  if (!inputs) return inputs.error();
  std::vector<std::vector<std::byte> const*> parts;
  ClearOutputs out;
  std::vector<std::size_t> result_bytes;
  for (auto const& b : inputs->buffers) {
    if (b.role == Role::output) {
      result_bytes.push_back(b.count * size_of(b.dtype));
      out.types.push_back(b.dtype);
    } else if (has_initial_contents(b.role)) {
      parts.push_back(&b.bytes);
    }
  }
  std::string const stem = fmt::format("{}-{}-{}", size.name, seed, trial);
  auto const in_path = private_dir_ / (stem + ".in");
  auto const out_path = private_dir_ / (stem + ".out");
  if (auto st = write_file(in_path, parts); !st) return st.error();
  auto reply = call(json{{"op", "forward"},
                         {"size", size_values(size)},
                         {"inputs", in_path.string()},
                         {"outputs", out_path.string()}},
                    kForwardTimeout);
  std::error_code ec;
  std::filesystem::remove(in_path, ec);
  if (!reply) {
    return make_error(reply.error().code, "the PyTorch reference failed on size '" + size.name + "', trial " +
                                              std::to_string(trial) + ": " + reply.error().message);
  }
  auto clear = read_file(out_path);
  std::filesystem::remove(out_path, ec);
  if (!clear) return clear.error();
  std::size_t total = 0;
  for (auto n : result_bytes) total += n;
  if (clear->size() != total) {
    return make_error(
        ErrorCode::worker_error,
        fmt::format("the PyTorch reference wrote {} bytes of outputs for size '{}', the task's outputs "
                    "take {}",
                    clear->size(), size.name, total));
  }
  if (result_bytes.size() == 1) {
    out.buffers.push_back(std::move(*clear));  // one output (the common case): the file's bytes are it
  } else {
    std::size_t offset = 0;
    for (auto n : result_bytes) {
      out.buffers.emplace_back(clear->begin() + static_cast<std::ptrdiff_t>(offset),
                               clear->begin() + static_cast<std::ptrdiff_t>(offset + n));
      offset += n;
    }
    worker::wipe(clear->data(), clear->size());
  }
  out.call_ms = reply->value("forward_ms", 0.0);
  return out;
}

Result<worker::ReferenceResultsFile> TorchReference::compute(TaskSpec const& task, SizeCase const& size,
                                                             std::uint64_t seed, int trial) {
  auto outputs = forward(task, size, seed, trial);
  if (!outputs) return outputs.error();
  worker::ReferenceResultsFile file;
  file.size = size.name;
  file.seed = seed;
  file.trial = trial;
  file.key = worker::fresh_mask_key();
  file.call_ms = outputs->call_ms;
  file.path = (results_dir_ / fmt::format("{}-{}-{}.res", size.name, seed, trial)).string();
  std::vector<std::vector<std::byte> const*> masked_parts;
  masked_parts.reserve(outputs->buffers.size());
  for (std::size_t k = 0; k < outputs->buffers.size(); ++k) {
    auto& bytes = outputs->buffers[k];
    worker::ResultFacts const facts = worker::describe_result(outputs->types[k], bytes);
    file.buffers.push_back(worker::ResultBufferFacts{bytes.size(), facts.scale, facts.varies});
    worker::apply_mask(bytes.data(), bytes.size(), file.key);
    masked_parts.push_back(&bytes);
  }
  if (auto st = write_file(file.path, masked_parts); !st) return st.error();
  return file;
}

Result<TorchReference::SelfCheck> TorchReference::self_check(TaskSpec const& task, SizeCase const& size,
                                                             std::uint64_t seed) {
  std::uint64_t const s = trial_seed(seed, 0, 0);
  auto first = forward(task, size, s, 0);
  if (!first) return first.error();
  auto second = forward(task, size, s, 0);
  if (!second) return second.error();
  SelfCheck check;
  check.call_ms = first->call_ms;
  check.constant = true;
  for (std::size_t k = 0; k < first->buffers.size(); ++k) {
    check.deterministic = check.deterministic && first->buffers[k] == second->buffers[k];
    check.constant = check.constant && !worker::describe_result(first->types[k], first->buffers[k]).varies;
    worker::wipe(first->buffers[k].data(), first->buffers[k].size());
    worker::wipe(second->buffers[k].data(), second->buffers[k].size());
  }
  return check;
}

Result<std::vector<worker::ReferenceResultsFile>> TorchReference::results_for(
    TaskSpec const& task, std::vector<SizeCase const*> const& sizes, std::uint64_t seed) {
  std::vector<worker::ReferenceResultsFile> files;
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    int const last = sizes[si]->verify_only ? task.trials - 1 : task.trials;  // + the check after timing
    for (int trial = 0; trial <= last; ++trial) {
      std::uint64_t const s = trial_seed(seed, si, trial);
      std::string const key = fmt::format("{}#{}#{}", sizes[si]->name, s, trial);
      auto it = results_.find(key);
      if (it == results_.end()) {
        auto computed = compute(task, *sizes[si], s, trial);
        if (!computed) return computed.error();
        it = results_.emplace(key, std::move(*computed)).first;
      }
      files.push_back(it->second);
    }
  }
  return files;
}

Result<TorchTimings> TorchReference::timings(SizeCase const& size, TimingTier tier, std::int64_t flush_bytes,
                                             bool compiled) {
  std::string const key = size.name + "#" + std::string(to_string(tier)) + (compiled ? "#compiled" : "");
  if (auto it = timings_.find(key); it != timings_.end()) return it->second;
  TorchTimings t;
  json request{{"op", "time"},
               {"size", size_values(size)},
               {"mode", "eager"},
               {"compile_mode", "default"},
               {"tier", tier_json(tier, flush_bytes)}};
  auto eager = call(request, kEagerTimeout);
  if (!eager)
    return make_error(eager.error().code,
                      "timing PyTorch eager on size '" + size.name + "': " + eager.error().message);
  auto eager_timing = timing_from(*eager, "eager");
  if (!eager_timing) return eager_timing.error();
  t.eager = *eager_timing;
  if (!compiled) {
    timings_.emplace(key, t);
    return t;
  }
  request["mode"] = "compile";
  if (auto reply = call(request, kCompileTimeout)) {
    if (auto timing = timing_from(*reply, "torch.compile")) {
      t.compiled = *timing;
      t.compile_note =
          fmt::format("torch.compile (mode default): first call {:.1f} s", reply->value("first_call_s", 0.0));
    } else {
      t.compile_note = timing.error().message;
    }
  } else {
    t.compile_note = "torch.compile failed: " + reply.error().message;
  }
  timings_.emplace(key, t);
  return t;
}

}  // namespace kopt
