#include <gtest/gtest.h>

#include "fixture_files.hpp"
#include "kopt/profile.hpp"
#include "profile/sass_instruction.hpp"

namespace kopt {
namespace sass_test {

using testing::read_fixture;

TEST(ParseSassInstruction, AddressPredicateMnemonicAndEncoding) {
  auto const instruction = detail::parse_sass_instruction(
      "        /*0070*/               @!P0 LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;   /* 0x0000000402047981 "
      "*/");
  ASSERT_TRUE(instruction.has_value());
  EXPECT_EQ(instruction->predicate, "@!P0");
  EXPECT_EQ(instruction->mnemonic, "LDG.E.128.CONSTANT");
  EXPECT_EQ(instruction->base, "LDG");
  EXPECT_EQ(instruction->modifiers, (std::vector<std::string>{"E", "128", "CONSTANT"}));
  EXPECT_FALSE(instruction->never_executes());
  EXPECT_EQ(detail::sass_access_width(*instruction), 128);
}

TEST(ParseSassInstruction, WithoutAddressAndWithoutSpaceBeforeSemicolon) {
  auto const nop = detail::parse_sass_instruction("NOP;");
  ASSERT_TRUE(nop.has_value());
  EXPECT_EQ(nop->mnemonic, "NOP");
  EXPECT_TRUE(nop->modifiers.empty());
  auto const never = detail::parse_sass_instruction("  @!PT LDS RZ, [RZ] ;");
  ASSERT_TRUE(never.has_value());
  EXPECT_TRUE(never->never_executes());
  EXPECT_EQ(never->base, "LDS");
}

TEST(ParseSassInstruction, NonInstructionLinesAreRejected) {
  for (char const* line : {"", "   /* 0x000fe40000000800 */", "Function : _Z4copyPfi", ".L_x_0:",
                           "_Z4copyPfi:", "\t.headerflags\t@\"EF_CUDA_SM90\"", "//## File \"a.cu\", line 3",
                           "; Location ./int.jl:519", "/*0000*/ \t.byte\t0x04, 0x2f", "\t\t..........",
                           "code for sm_90", "/*0010*/ lowercase R1 ;", "/*0010*/ @ MOV R1, R2 ;"}) {
    EXPECT_FALSE(detail::parse_sass_instruction(line).has_value()) << line;
  }
}

TEST(SassAccessWidth, SizeModifiers) {
  auto width = [](char const* line) {
    return detail::sass_access_width(*detail::parse_sass_instruction(line));
  };
  EXPECT_EQ(width("LDG.E R1, [R2.64] ;"), 32);
  EXPECT_EQ(width("LDG.E.64 R4, [R2.64] ;"), 64);
  EXPECT_EQ(width("LDG.E.LTC128B.128 R4, [R2.64] ;"), 128);  // the L2 prefetch hint is no width
  EXPECT_EQ(width("STG.E.U8 [R2.64], R4 ;"), 8);
  EXPECT_EQ(width("LDG.E.S16 R4, [R2.64] ;"), 16);
  EXPECT_EQ(width("LDS.U.128 R4, [R2] ;"), 128);
  EXPECT_EQ(width("LDSM.16.M88.4 R8, [R6] ;"), 128);
  EXPECT_EQ(width("LDSM.16.MT88.2 R8, [R6] ;"), 64);
  EXPECT_EQ(width("LDSM.16.M88 R8, [R6] ;"), 32);
  EXPECT_EQ(width("STL.128 [R1], R4 ;"), 128);
}

TEST(ParseSass, CuobjdumpFunctionsAndCounts) {
  SassSummary const summary = parse_sass(read_fixture("synthetic_sass_cuobjdump_kernels.txt"));
  ASSERT_EQ(summary.functions.size(), 4u);
  EXPECT_EQ(summary.functions[0].name, "_Z11copy_float4PK6float4PS_i");
  EXPECT_EQ(summary.functions[3].name, "_Z9histogramPKiPii");

  SassFunction const* copy = summary.find("_Z11copy_float4PK6float4PS_i");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->arch, "sm_90");
  EXPECT_EQ(copy->instructions, 11);  // encoding-only continuation lines are not instructions
  EXPECT_EQ(copy->global.loads_of_width(128), 1);
  EXPECT_EQ(copy->global.stores_of_width(128), 1);
  EXPECT_EQ(copy->global.loads(), 1);
  EXPECT_TRUE(copy->has_128bit_global_loads());
  EXPECT_FALSE(copy->uses_tensor_cores());
  EXPECT_EQ(copy->local_memory_instructions(), 0);
  EXPECT_EQ(copy->count("EXIT"), 2);  // "@P0 EXIT" and "EXIT"
  EXPECT_EQ(copy->count("S2R"), 2);
  EXPECT_EQ(copy->mnemonics.at("LDG.E.128.CONSTANT"), 1);
  EXPECT_EQ(copy->count("NOSUCH"), 0);

  SassFunction const* spill = summary.find("_Z5spillPfi");
  ASSERT_NE(spill, nullptr);
  EXPECT_EQ(spill->local.stores(), 3);
  EXPECT_EQ(spill->local.stores_of_width(128), 1);
  EXPECT_EQ(spill->local.stores_of_width(64), 1);
  EXPECT_EQ(spill->local.stores_of_width(32), 1);
  EXPECT_EQ(spill->local.loads(), 2);
  EXPECT_EQ(spill->local_memory_instructions(), 5);
  EXPECT_EQ(spill->global.loads_of_width(32), 1);
  EXPECT_FALSE(spill->has_128bit_global_loads());

  SassFunction const* gemm = summary.find("_Z11gemm_hgmmaPK13__nv_bfloat16S1_Pfiii");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->never_executed, 1);              // @!PT LDS
  EXPECT_EQ(gemm->shared.loads(), 3);              // 2 LDSM + LDS.U.128, not the @!PT LDS
  EXPECT_EQ(gemm->shared.loads_of_width(128), 2);  // LDSM .4 and LDS.U.128
  EXPECT_EQ(gemm->shared.loads_of_width(64), 1);   // LDSM .2
  EXPECT_EQ(gemm->shared.stores(), 2);             // STS.128 + STSM
  EXPECT_EQ(gemm->tensor_instructions, 2);         // HGMMA + HMMA
  EXPECT_EQ(gemm->warpgroup_instructions, 2);      // WARPGROUP.ARRIVE / DEPBAR
  EXPECT_TRUE(gemm->uses_tensor_cores());
  EXPECT_EQ(gemm->async_copies, 1);                // LDGSTS
  EXPECT_EQ(gemm->global.loads_of_width(128), 1);  // ... which is a 128-bit global load
  EXPECT_TRUE(gemm->has_128bit_global_loads());
  EXPECT_EQ(gemm->bulk_copies, 1);            // UTMALDG
  EXPECT_EQ(gemm->mbarrier_instructions, 2);  // SYNCS
  EXPECT_EQ(gemm->barriers, 2);               // BAR.SYNC
  EXPECT_EQ(gemm->global.stores_of_width(64), 1);
  EXPECT_EQ(gemm->count("LDGDEPBAR"), 1);
  EXPECT_EQ(gemm->count("LDG"), 0);  // LDGDEPBAR / LDGSTS are not LDG

  SassFunction const* histogram = summary.find("_Z9histogramPKiPii");
  ASSERT_NE(histogram, nullptr);
  EXPECT_EQ(histogram->atomics, 4);  // ATOMS, ATOMG, REDG, RED; REDUX is a warp reduction
  EXPECT_EQ(histogram->memory_fences, 1);
  EXPECT_EQ(histogram->global.loads_of_width(8), 1);
  EXPECT_EQ(histogram->generic_loads, 1);
  EXPECT_EQ(histogram->generic_stores, 1);
  EXPECT_EQ(histogram->count("REDUX"), 1);
}

TEST(ParseSass, NvdisasmSectionsWithAndWithoutAddresses) {
  SassSummary const summary = parse_sass(read_fixture("synthetic_sass_nvdisasm_kernels.txt"));
  ASSERT_EQ(summary.functions.size(), 2u);  // data sections hold no instructions
  SassFunction const& copy = summary.functions[0];
  EXPECT_EQ(copy.name, "_Z10copy_floatPKfPfi");
  EXPECT_EQ(copy.arch, "sm_90");
  EXPECT_EQ(copy.instructions, 10);
  EXPECT_EQ(copy.global.loads_of_width(32), 1);
  EXPECT_EQ(copy.global.stores_of_width(32), 1);
  EXPECT_FALSE(copy.has_128bit_global_loads());
  EXPECT_EQ(copy.count("BRA"), 2);

  SassFunction const& reduce = summary.functions[1];
  EXPECT_EQ(reduce.name, "_Z11reduce_warpPKfPf");
  EXPECT_EQ(reduce.instructions, 9);
  EXPECT_EQ(reduce.global.loads_of_width(64), 1);
  EXPECT_EQ(reduce.barriers, 1);
  EXPECT_EQ(reduce.shared.stores(), 1);  // @UP0 STS
  EXPECT_EQ(reduce.count("BSSY"), 1);
}

TEST(ParseSass, SummaryHelpersAndTotal) {
  SassSummary const summary = parse_sass(read_fixture("synthetic_sass_cuobjdump_kernels.txt"));
  EXPECT_TRUE(summary.has_128bit_global_loads());
  EXPECT_TRUE(summary.uses_tensor_cores());
  EXPECT_EQ(summary.local_memory_instructions(), 5);
  SassFunction const total = summary.total();
  EXPECT_EQ(total.name, "(all)");
  EXPECT_EQ(total.arch, "sm_90");
  int instructions = 0;
  for (SassFunction const& function : summary.functions) instructions += function.instructions;
  EXPECT_EQ(total.instructions, instructions);
  EXPECT_EQ(total.count("EXIT"), 5);
  EXPECT_EQ(total.global.loads(), 4);  // LDG.E.128, LDG.E, LDGSTS .128, LDG.E.U8
  EXPECT_EQ(total.atomics, 4);
  EXPECT_EQ(total.tensor_instructions, 2);

  SassSummary const plain = parse_sass(read_fixture("synthetic_sass_nvdisasm_kernels.txt"));
  EXPECT_FALSE(plain.has_128bit_global_loads());
  EXPECT_FALSE(plain.uses_tensor_cores());
  EXPECT_EQ(plain.local_memory_instructions(), 0);
}

TEST(ParseSass, FindByArchAndMultipleArchitectures) {
  std::string const text =
      "\tcode for sm_80\n"
      "\t\tFunction : k\n"
      "        /*0000*/                   LDG.E R1, [R2.64] ;\n"
      "\tcode for sm_90\n"
      "\t\tFunction : k\n"
      "        /*0000*/                   LDG.E.128 R4, [R2.64] ;\n";
  SassSummary const summary = parse_sass(text);
  ASSERT_EQ(summary.functions.size(), 2u);
  ASSERT_NE(summary.find("k", "sm_90"), nullptr);
  EXPECT_TRUE(summary.find("k", "sm_90")->has_128bit_global_loads());
  EXPECT_FALSE(summary.find("k", "sm_80")->has_128bit_global_loads());
  EXPECT_EQ(summary.find("k"), &summary.functions[0]);
  EXPECT_EQ(summary.find("k", "sm_75"), nullptr);
  EXPECT_EQ(summary.find("other"), nullptr);
  EXPECT_TRUE(summary.total().arch.empty());  // mixed architectures
}

TEST(ParseSass, InstructionsWithoutHeaderAndEmptyInput) {
  SassSummary const bare = parse_sass("LDG.E.128 R4, [R2.64] ;\nFFMA R1, R2, R3, R4 ;\n");
  ASSERT_EQ(bare.functions.size(), 1u);
  EXPECT_TRUE(bare.functions[0].name.empty());
  EXPECT_EQ(bare.functions[0].instructions, 2);
  EXPECT_TRUE(parse_sass("").functions.empty());
  EXPECT_TRUE(parse_sass("Fatbin ptx code:\n================\n\t\tFunction : k\n").functions.empty());
  SassSummary const crlf = parse_sass("\t\tFunction : k\r\n  /*0000*/  HMMA.16816.F32 R0, R4, R8, R0 ;\r\n");
  ASSERT_EQ(crlf.functions.size(), 1u);
  EXPECT_EQ(crlf.functions[0].name, "k");
  EXPECT_TRUE(crlf.uses_tensor_cores());
}

}  // namespace sass_test
}  // namespace kopt
