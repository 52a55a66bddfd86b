// The on-disk cache of compiled candidates: <dir>/<key>.cubin or <key>.so plus <key>.json (symbol,
// resources, diagnostics). Artifacts are written to a temporary name and renamed into place, so
// concurrent compiles of the same key (threads or processes) never see a partial file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "kopt/compile.hpp"

namespace kopt::detail {

// Bumped whenever the artifact layout or the compile command changes meaning.
inline constexpr int kCompileFormatVersion = 1;

// $KOPT_CACHE_DIR, else $XDG_CACHE_HOME/kopt, else ~/.cache/kopt.
std::filesystem::path default_cache_dir();

// False when KOPT_NO_CACHE is set to anything but "" or "0" (writes still happen).
bool cache_reads_enabled();

// 128-bit hex key (SHA-256, truncated) over everything that goes into a build: mode, source, entry,
// flags, include dirs, libraries, arch, gencode, toolkit version, compiler version and format version.
std::string compute_cache_key(CompileRequest const& request, CompileOptions const& options,
                              std::string const& toolkit_version, std::string const& compiler_version);

std::filesystem::path artifact_path(std::filesystem::path const& cache_dir, std::string const& key,
                                    CandidateMode mode);

// A cached outcome when both the artifact and its metadata are present and readable.
std::optional<CompileOutcome> read_cache(std::filesystem::path const& cache_dir, std::string const& key,
                                         CandidateMode mode);

// Writes <key>.json for an artifact already in place (the metadata is written last: its presence
// means the entry is complete).
Status write_cache_metadata(std::filesystem::path const& cache_dir, Artifact const& artifact,
                            std::string const& diagnostics);

// Writes `bytes` to `path` through a uniquely named temporary file and rename(2).
Status write_file_atomically(std::filesystem::path const& path, std::string const& bytes);

// A fresh name next to `path` for a temporary file or folder (pid and a process-wide counter).
std::filesystem::path unique_temporary_path(std::filesystem::path const& path);

}  // namespace kopt::detail
