// Reads cuobjdump -sass and nvdisasm text into per-function instruction counts. Formats:
//   cuobjdump:  "code for sm_90" / "Function : _Z4copyPKfPfi" / "/*0080*/  @P0 LDG.E.128 R4, desc[UR4][R2.64]
//   ;
//               /* 0x... */" followed by lines holding only the second half of the encoding;
//   nvdisasm:   ".headerflags @"... EF_CUDA_SM90 ..."", ".section .text._Z4copyPKfPfi,"ax",@progbits",
//               "_Z4copyPKfPfi:", ".text._Z4copyPKfPfi:", instructions with or without /*addr*/.
#include <algorithm>
#include <array>

#include "kopt/profile.hpp"
#include "kopt/text.hpp"
#include "profile/sass_instruction.hpp"

namespace kopt {
namespace {

using detail::SassInstruction;

bool one_of(std::string_view value, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), value) != names.end();
}

// "sm_90" from "code for sm_90", "arch = sm_90" or "EF_CUDA_SM90"; empty when the line names none.
std::string arch_on_line(std::string_view line) {
  for (std::string_view const marker : {std::string_view("code for "), std::string_view("arch = ")}) {
    if (auto const at = line.find(marker); at != std::string_view::npos) {
      std::string_view rest = trim(line.substr(at + marker.size()));
      if (rest.starts_with("sm_")) return std::string(rest.substr(0, rest.find_first_of(" \t")));
    }
  }
  if (auto const at = line.find("EF_CUDA_SM"); at != std::string_view::npos) {
    std::string_view const rest = line.substr(at + 10);
    std::size_t end = 0;
    while (end < rest.size() && ((rest[end] >= '0' && rest[end] <= '9') || rest[end] == 'a')) ++end;
    if (end > 0) return "sm_" + std::string(rest.substr(0, end));
  }
  return {};
}

void count(SassFunction& function, SassInstruction const& instruction) {
  if (instruction.never_executes()) {
    ++function.never_executed;
    return;
  }
  ++function.instructions;
  ++function.opcodes[instruction.base];
  ++function.mnemonics[instruction.mnemonic];
  std::string const& base = instruction.base;
  int const width = detail::sass_access_width(instruction);
  if (base == "LDG") {
    ++function.global.loads_by_width[width];
  } else if (base == "STG") {
    ++function.global.stores_by_width[width];
  } else if (base == "LDGSTS") {
    ++function.global.loads_by_width[width];
    ++function.async_copies;
  } else if (base == "LDS" || base == "LDSM") {
    ++function.shared.loads_by_width[width];
  } else if (base == "STS" || base == "STSM") {
    ++function.shared.stores_by_width[width];
  } else if (base == "LDL") {
    ++function.local.loads_by_width[width];
  } else if (base == "STL") {
    ++function.local.stores_by_width[width];
  } else if (base == "LD") {
    ++function.generic_loads;
  } else if (base == "ST") {
    ++function.generic_stores;
  } else if (one_of(base, {"UTMALDG", "UTMASTG", "UTMAPF", "UTMAREDG", "UBLKCP", "UBLKRED", "UBLKPF"})) {
    ++function.bulk_copies;
  } else if (base.ends_with("MMA")) {  // HMMA, IMMA, DMMA, BMMA, HGMMA, IGMMA, QGMMA, BGMMA, UTC*MMA
    ++function.tensor_instructions;
  } else if (base == "WARPGROUP") {
    ++function.warpgroup_instructions;
  } else if (one_of(base, {"ATOM", "ATOMG", "ATOMS", "RED", "REDG"})) {
    ++function.atomics;
  } else if (base == "BAR") {
    ++function.barriers;
  } else if (base == "MEMBAR" || base == "FENCE") {
    ++function.memory_fences;
  } else if (base == "SYNCS") {
    ++function.mbarrier_instructions;
  }
}

class SassReader {
 public:
  void line(std::string_view raw) {
    std::string_view const text = trim(raw);
    if (text.empty()) return;
    if (text.starts_with("Function :") || text.starts_with("Function:")) {
      start(trim(text.substr(text.find(':') + 1)));
      return;
    }
    if (text.starts_with(".section")) {
      std::string_view name = trim(text.substr(8));
      name = name.substr(0, name.find_first_of(", \t"));
      if (name.starts_with(".text.")) {
        start(name.substr(6));
      } else {
        current_.reset();  // a data section (.nv.info, .nv.constant0...): no instructions
      }
      return;
    }
    if (text.starts_with(".text.") && text.ends_with(':')) {
      std::string_view const name = text.substr(6, text.size() - 7);
      if (!current_ || summary_.functions[*current_].name != name) start(name);
      return;
    }
    if (std::string arch = arch_on_line(text); !arch.empty()) {
      arch_ = std::move(arch);
      if (current_ && summary_.functions[*current_].instructions == 0)
        summary_.functions[*current_].arch = arch_;
      return;
    }
    auto const instruction = detail::parse_sass_instruction(text);
    if (!instruction) return;
    if (!current_) start("");
    count(summary_.functions[*current_], *instruction);
  }

  SassSummary finish() && {
    // Functions that held no instruction (a header with nothing after it) say nothing.
    std::erase_if(summary_.functions,
                  [](SassFunction const& f) { return f.instructions == 0 && f.never_executed == 0; });
    return std::move(summary_);
  }

 private:
  void start(std::string_view name) {
    SassFunction function;
    function.name = std::string(name);
    function.arch = arch_;
    summary_.functions.push_back(std::move(function));
    current_ = summary_.functions.size() - 1;
  }

  SassSummary summary_;
  std::optional<std::size_t> current_;
  std::string arch_;
};

}  // namespace

SassSummary parse_sass(std::string_view text) {
  SassReader reader;
  while (!text.empty()) {
    auto const end = text.find('\n');
    reader.line(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return std::move(reader).finish();
}

}  // namespace kopt
