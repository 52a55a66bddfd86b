// Store rows (include/kopt/store.hpp, the decoders of src/store/records.cpp): a store file is written once
// with one run, candidate and evaluation; each input, split at NUL bytes, overwrites their text columns
// (JSON options, budget, knobs, flags, sizes; status and mode names; timestamps) through SQLite, as another
// tool or a damaged disk could, and the store reads them back (list_runs, load_run, best_candidate,
// list_sessions). No seeds: the fields start empty.
#include <sqlite3.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/store.hpp"

namespace {
struct FuzzStore {
  std::filesystem::path dir;
  kopt::RunId run{};
  FuzzStore()
      : dir(std::filesystem::temp_directory_path() / ("kopt-fuzz-store-" + std::to_string(getpid()))) {
    auto store = kopt::Store::open(dir / "kopt.db");
    if (!store) return;
    auto created = store->create_run(kopt::Run{.task_name = "fuzz", .task_dir = "/nonexistent"});
    if (!created) return;
    run = *created;
    auto candidate =
        store->add_candidate(run, kopt::Candidate{.key = kopt::CandidateKey{"k"}, .source = "x"});
    if (candidate) (void)store->add_evaluation(*candidate, kopt::EvaluationRecord{.geomean_speedup = 1.5});
  }
  ~FuzzStore() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  static FuzzStore const fixture;
  std::string_view input(reinterpret_cast<char const*>(data), size);
  std::vector<std::string> fields;
  while (fields.size() < 12) {
    std::size_t const nul = input.find('\0');
    fields.emplace_back(input.substr(0, nul));
    if (nul == std::string_view::npos) break;
    input.remove_prefix(nul + 1);
  }
  fields.resize(12);
  sqlite3* db = nullptr;
  if (sqlite3_open((fixture.dir / "kopt.db").c_str(), &db) == SQLITE_OK) {
    sqlite3_exec(db, "PRAGMA ignore_check_constraints = 1", nullptr, nullptr, nullptr);
    sqlite3_stmt* update = nullptr;
    char const* sql =
        "UPDATE runs SET options = ?1, budget = ?2, status = ?3, started_at = ?4, finished_at = ?5;"
        "UPDATE candidates SET knobs = ?6, flags = ?7, mode = ?8, action = ?9;"
        "UPDATE evaluations SET sizes = ?10, status = ?11, tier = ?12;";
    // One statement at a time: sqlite3_prepare_v2 compiles the first and returns the rest in `tail`.
    for (char const* tail = sql; tail != nullptr && *tail != '\0';) {
      if (sqlite3_prepare_v2(db, tail, -1, &update, &tail) != SQLITE_OK || update == nullptr) break;
      for (int i = 1; i <= sqlite3_bind_parameter_count(update); ++i) {
        std::string const& field = fields[static_cast<std::size_t>(i - 1)];
        sqlite3_bind_text(update, i, field.data(), static_cast<int>(field.size()), SQLITE_TRANSIENT);
      }
      sqlite3_step(update);
      sqlite3_finalize(update);
    }
  }
  sqlite3_close(db);
  auto store = kopt::Store::open(fixture.dir / "kopt.db", kopt::StoreAccess::read_only);
  if (!store) return 0;
  (void)store->list_runs();
  (void)store->load_run(fixture.run);
  (void)store->best_candidate(fixture.run);
  (void)store->best_verified_candidate(fixture.run);
  (void)store->list_sessions();
  return 0;
}
