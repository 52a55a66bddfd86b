#include <algorithm>
#include <numeric>

#include "kopt/profile.hpp"

namespace kopt {
namespace {

int sum(std::map<int, int> const& counts) {
  return std::accumulate(counts.begin(), counts.end(), 0,
                         [](int total, auto const& entry) { return total + entry.second; });
}

int at(std::map<int, int> const& counts, int key) {
  auto const found = counts.find(key);
  return found == counts.end() ? 0 : found->second;
}

template <class Map>
void add_counts(Map& into, Map const& from) {
  for (auto const& [key, value] : from) into[key] += value;
}

void add_memory(SassMemoryCounts& into, SassMemoryCounts const& from) {
  add_counts(into.loads_by_width, from.loads_by_width);
  add_counts(into.stores_by_width, from.stores_by_width);
}

}  // namespace

int SassMemoryCounts::loads() const noexcept {
  return sum(loads_by_width);
}
int SassMemoryCounts::stores() const noexcept {
  return sum(stores_by_width);
}
int SassMemoryCounts::loads_of_width(int bits) const noexcept {
  return at(loads_by_width, bits);
}
int SassMemoryCounts::stores_of_width(int bits) const noexcept {
  return at(stores_by_width, bits);
}

bool SassFunction::has_128bit_global_loads() const noexcept {
  return std::any_of(global.loads_by_width.begin(), global.loads_by_width.end(),
                     [](auto const& entry) { return entry.first >= 128 && entry.second > 0; });
}

bool SassFunction::uses_tensor_cores() const noexcept {
  return tensor_instructions > 0;
}

int SassFunction::local_memory_instructions() const noexcept {
  return local.loads() + local.stores();
}

int SassFunction::count(std::string_view base_opcode) const {
  auto const found = opcodes.find(base_opcode);
  return found == opcodes.end() ? 0 : found->second;
}

SassFunction const* SassSummary::find(std::string_view name, std::string_view arch) const {
  auto const found = std::find_if(functions.begin(), functions.end(), [&](SassFunction const& function) {
    return function.name == name && (arch.empty() || function.arch == arch);
  });
  return found == functions.end() ? nullptr : &*found;
}

SassFunction SassSummary::total() const {
  SassFunction total;
  total.name = "(all)";
  if (!functions.empty() && std::all_of(functions.begin(), functions.end(), [&](SassFunction const& f) {
        return f.arch == functions.front().arch;
      })) {
    total.arch = functions.front().arch;
  }
  for (SassFunction const& f : functions) {
    total.instructions += f.instructions;
    total.never_executed += f.never_executed;
    add_counts(total.opcodes, f.opcodes);
    add_counts(total.mnemonics, f.mnemonics);
    add_memory(total.global, f.global);
    add_memory(total.shared, f.shared);
    add_memory(total.local, f.local);
    total.generic_loads += f.generic_loads;
    total.generic_stores += f.generic_stores;
    total.async_copies += f.async_copies;
    total.bulk_copies += f.bulk_copies;
    total.tensor_instructions += f.tensor_instructions;
    total.warpgroup_instructions += f.warpgroup_instructions;
    total.atomics += f.atomics;
    total.barriers += f.barriers;
    total.memory_fences += f.memory_fences;
    total.mbarrier_instructions += f.mbarrier_instructions;
  }
  return total;
}

bool SassSummary::has_128bit_global_loads() const noexcept {
  return std::any_of(functions.begin(), functions.end(),
                     [](SassFunction const& f) { return f.has_128bit_global_loads(); });
}

bool SassSummary::uses_tensor_cores() const noexcept {
  return std::any_of(functions.begin(), functions.end(),
                     [](SassFunction const& f) { return f.uses_tensor_cores(); });
}

int SassSummary::local_memory_instructions() const noexcept {
  return std::accumulate(functions.begin(), functions.end(), 0, [](int sum_so_far, SassFunction const& f) {
    return sum_so_far + f.local_memory_instructions();
  });
}

}  // namespace kopt
