#include "compile/cache.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "compile/compile_json.hpp"
#include "kopt/sha256.hpp"

namespace kopt::detail {
namespace {

std::string env_or_empty(char const* name) {
  char const* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

// Length-prefixed fields so that ("ab","c") and ("a","bc") hash differently.
class KeyBuilder {
 public:
  void add(std::string_view tag, std::string_view value) {
    hash_.update(tag);
    hash_.update(fmt::format(":{}:", value.size()));
    hash_.update(value);
  }
  template <class Range>
  void add_list(std::string_view tag, Range const& values) {
    add(tag, std::to_string(values.size()));
    for (auto const& value : values) add(tag, std::string_view(value));
  }
  std::string finish() { return hash_.hex_digest().substr(0, 32); }

 private:
  Sha256 hash_;
};

std::filesystem::path metadata_path(std::filesystem::path const& cache_dir, std::string const& key) {
  return cache_dir / (key + ".json");
}

std::optional<CompileOutcome> outcome_from_metadata(std::istream& in, std::filesystem::path const& artifact,
                                                    std::string const& key, CandidateMode mode) {
  nlohmann::json const json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object() || json.value("format", 0) != kCompileFormatVersion ||
      json.value("mode", std::string()) != to_string(mode) || !json.contains("symbol")) {
    return std::nullopt;
  }
  CompileOutcome outcome;
  outcome.ok = true;
  outcome.cache_hit = true;
  outcome.artifact.mode = mode;
  outcome.artifact.path = artifact;
  outcome.artifact.key = key;
  outcome.artifact.symbol = json.value("symbol", std::string());
  outcome.artifact.arch = json.value("arch", std::string());
  if (json.contains("resources") && json["resources"].is_object()) {
    outcome.artifact.resources = resources_from_json(json["resources"]);
  }
  outcome.diagnostics = json.value("diagnostics", std::string());
  return outcome;
}

}  // namespace

std::filesystem::path default_cache_dir() {
  if (std::string dir = env_or_empty("KOPT_CACHE_DIR"); !dir.empty()) return dir;
  if (std::string dir = env_or_empty("XDG_CACHE_HOME"); !dir.empty())
    return std::filesystem::path(dir) / "kopt";
  if (std::string home = env_or_empty("HOME"); !home.empty()) {
    return std::filesystem::path(home) / ".cache" / "kopt";
  }
  return std::filesystem::temp_directory_path() / "kopt-cache";
}

bool cache_reads_enabled() {
  std::string const value = env_or_empty("KOPT_NO_CACHE");
  return value.empty() || value == "0";
}

std::string compute_cache_key(CompileRequest const& request, CompileOptions const& options,
                              std::string const& toolkit_version, std::string const& compiler_version) {
  KeyBuilder key;
  key.add("format", std::to_string(kCompileFormatVersion));
  key.add("mode", to_string(request.mode));
  key.add("source", request.source);
  key.add("entry", request.entry);
  key.add_list("flags", request.flags);
  key.add_list("extra_flags", options.extra_flags);
  std::vector<std::string> include_dirs;
  for (auto const& dir : request.include_dirs) include_dirs.push_back(dir.string());
  key.add_list("include_dirs", include_dirs);
  // The source's folder is on the include path too (quoted includes next to the candidate).
  key.add("origin_dir", request.origin.parent_path().string());
  key.add_list("libraries", request.libraries);
  key.add("arch", options.arch);
  key.add_list("gencode", options.gencode);
  key.add("toolkit", toolkit_version);
  key.add("compiler", compiler_version);
  key.add("cuda_home", options.cuda_home.string());
  return key.finish();
}

std::filesystem::path artifact_path(std::filesystem::path const& cache_dir, std::string const& key,
                                    CandidateMode mode) {
  return cache_dir / (key + (mode == CandidateMode::kernel ? ".cubin" : ".so"));
}

std::optional<CompileOutcome> read_cache(std::filesystem::path const& cache_dir, std::string const& key,
                                         CandidateMode mode) {
  std::error_code ec;
  auto const artifact = artifact_path(cache_dir, key, mode);
  if (!std::filesystem::is_regular_file(artifact, ec) || std::filesystem::file_size(artifact, ec) == 0) {
    return std::nullopt;
  }
  std::ifstream in(metadata_path(cache_dir, key));
  if (!in) return std::nullopt;
  try {
    return outcome_from_metadata(in, artifact, key, mode);
  } catch (nlohmann::json::exception const&) {
    return std::nullopt;  // a damaged entry is a miss; the rebuild overwrites it
  }
}

Status write_cache_metadata(std::filesystem::path const& cache_dir, Artifact const& artifact,
                            std::string const& diagnostics) {
  nlohmann::json const json = {{"format", kCompileFormatVersion},
                               {"mode", std::string(to_string(artifact.mode))},
                               {"symbol", artifact.symbol},
                               {"arch", artifact.arch},
                               {"resources", to_json(artifact.resources)},
                               {"diagnostics", diagnostics}};
  // Replace invalid UTF-8 (compiler logs may echo arbitrary source bytes) instead of throwing.
  return write_file_atomically(metadata_path(cache_dir, artifact.key),
                               json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::filesystem::path unique_temporary_path(std::filesystem::path const& path) {
  static std::atomic<std::uint64_t> counter{0};
  return path.string() + fmt::format(".tmp.{}.{}", static_cast<long>(getpid()), counter.fetch_add(1));
}

Status write_file_atomically(std::filesystem::path const& path, std::string const& bytes) {
  auto const temporary = unique_temporary_path(path);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return make_error(ErrorCode::io_error, fmt::format("cannot write {}", temporary.string()));
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return make_error(ErrorCode::io_error, fmt::format("cannot move {} to {}: {}", temporary.string(),
                                                       path.string(), ec.message()));
  }
  return Ok{};
}

}  // namespace kopt::detail
