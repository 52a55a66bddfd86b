// One line of SASS text (cuobjdump -sass or nvdisasm) read as an instruction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::detail {

struct SassInstruction {
  std::string predicate;               // "@P0", "@!PT", "@UP1"; empty when unpredicated
  std::string mnemonic;                // "LDG.E.128.CONSTANT"
  std::string base;                    // "LDG"
  std::vector<std::string> modifiers;  // {"E", "128", "CONSTANT"}

  // @!PT: predicated on "not true", so it never executes (ptxas emits such placeholders).
  bool never_executes() const noexcept { return predicate == "@!PT"; }
};

// The instruction on `line`, or nullopt when the line is not one: a header, directive, label,
// comment or encoding-only line. An instruction line ends in ';' once its /*address*/ prefix and
// trailing /* encoding */ comment are removed.
std::optional<SassInstruction> parse_sass_instruction(std::string_view line);

// Access width in bits per thread of a memory instruction: the numeric size modifier (8 ... 256,
// U8/S8/U16/S16) or 32 when there is none; LDSM/STSM: 32 times the matrix count (.1/.2/.4).
int sass_access_width(SassInstruction const& instruction);

}  // namespace kopt::detail
