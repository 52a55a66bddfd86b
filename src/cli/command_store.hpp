// The store a command uses (docs/store.md, "Opening a store"): --store when given, else .kopt/kopt.db under
// the current folder. Readers (`kopt runs`, `report`, `export`) open an existing store read-only and create
// nothing; writers (`optimize`, `bench`, `generate`) may create the default .kopt/ folder, but never the
// folder of a path the user typed. Every error names the file, made absolute.
#pragma once

#include <filesystem>
#include <string>

#include "kopt/result.hpp"
#include "kopt/store.hpp"

namespace kopt::cli {

// --store made absolute, or the default store path.
std::filesystem::path command_store_path(std::string const& given);

// not_found "no store at PATH: nothing has been recorded here yet; ..." when the file does not exist.
Result<Store> open_store_to_read(std::string const& given);
// Before a writer starts anything: the folder of a given --store must exist (the error names it).
Status check_store_to_write(std::string const& given);
// Creates the file (and, for the default path only, its .kopt/ folder); migrates an older schema.
Result<Store> open_store_to_write(std::string const& given);

}  // namespace kopt::cli
