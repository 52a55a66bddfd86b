// Reads lines such as
//   ptxas info    : Compiling entry function '_Z6kernelPf' for 'sm_90'
//   ptxas info    : Function properties for _Z6kernelPf
//   ptxas         .     8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
//   ptxas info    : Used 32 registers, used 1 barriers, 4096 bytes smem, 360 bytes cmem[0]
#include "compile/ptxas_resources.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <sstream>

namespace kopt::detail {
namespace {

int int_match(std::string const& line, RE2 const& pattern, int fallback) {
  int value = 0;
  // RE2 refuses a number that does not fit an int (absurdly large numbers): leave the field unknown.
  return RE2::PartialMatch(line, pattern, &value) ? value : fallback;
}

}  // namespace

std::map<std::string, ResourceUsage> parse_ptxas_resources(std::string const& log, std::string const& arch) {
  static RE2 const entry_re(R"(Compiling entry function '([^']+)'(?: for '([^']+)')?)", RE2::Latin1);
  static RE2 const properties_re(R"(Function properties for (\S+))", RE2::Latin1);
  static RE2 const registers_re(R"(Used (\d+) registers)", RE2::Latin1);
  static RE2 const smem_re(R"((\d+) bytes smem)", RE2::Latin1);
  static RE2 const stack_re(R"((\d+) bytes stack frame)", RE2::Latin1);
  static RE2 const spill_stores_re(R"((\d+) bytes spill stores)", RE2::Latin1);
  static RE2 const spill_loads_re(R"((\d+) bytes spill loads)", RE2::Latin1);

  std::map<std::string, ResourceUsage> entries;
  std::map<std::string, ResourceUsage> frames;  // stack/spills per function, entry or not
  std::string current_entry;
  std::string current_function;
  bool skipping = false;  // inside the output for an architecture that was not asked for
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    re2::StringPiece entry;
    re2::StringPiece entry_arch;  // no data() when the line names no architecture
    if (RE2::PartialMatch(line, entry_re, &entry, &entry_arch)) {
      bool const wanted = arch.empty() || entry_arch.data() == nullptr || entry_arch == arch;
      skipping = !wanted;
      current_entry = wanted ? std::string(entry) : std::string();
      if (wanted) entries.try_emplace(current_entry);
      current_function.clear();
      continue;
    }
    if (skipping) continue;
    if (RE2::PartialMatch(line, properties_re, &current_function)) continue;
    if (line.find("bytes stack frame") != std::string::npos && !current_function.empty()) {
      ResourceUsage& frame = frames[current_function];
      frame.stack_bytes = int_match(line, stack_re, frame.stack_bytes);
      frame.spill_stores_bytes = int_match(line, spill_stores_re, frame.spill_stores_bytes);
      frame.spill_loads_bytes = int_match(line, spill_loads_re, frame.spill_loads_bytes);
      continue;
    }
    if (line.find("ptxas") != std::string::npos && line.find("Used ") != std::string::npos &&
        !current_entry.empty()) {
      ResourceUsage& usage = entries[current_entry];
      usage.registers = int_match(line, registers_re, usage.registers);
      usage.static_shared_bytes = int_match(line, smem_re, 0);  // ptxas omits "0 bytes smem"
    }
  }
  for (auto& [name, usage] : entries) {
    auto const frame = frames.find(name);
    if (frame == frames.end()) continue;
    usage.stack_bytes = frame->second.stack_bytes;
    usage.spill_stores_bytes = frame->second.spill_stores_bytes;
    usage.spill_loads_bytes = frame->second.spill_loads_bytes;
  }
  return entries;
}

ResourceUsage max_resources(std::map<std::string, ResourceUsage> const& per_entry) {
  ResourceUsage result;
  for (auto const& [name, usage] : per_entry) {
    result.registers = std::max(result.registers, usage.registers);
    result.spill_stores_bytes = std::max(result.spill_stores_bytes, usage.spill_stores_bytes);
    result.spill_loads_bytes = std::max(result.spill_loads_bytes, usage.spill_loads_bytes);
    result.static_shared_bytes = std::max(result.static_shared_bytes, usage.static_shared_bytes);
    result.stack_bytes = std::max(result.stack_bytes, usage.stack_bytes);
  }
  return result;
}

}  // namespace kopt::detail
