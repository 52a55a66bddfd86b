// Malformed specs: every case asserts that the message names the field and says what was expected.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "kopt/task.hpp"

namespace kopt {
namespace task_errors_test {

std::filesystem::path data_dir(std::string const& name) {
  return std::filesystem::path(KOPT_SOURCE_DIR) / "tests" / "task" / "data" / name;
}

std::string read_text(std::filesystem::path const& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct BadSpec {
  std::string label;
  std::string base;  // fixture folder
  std::string find;  // replaced text; empty: `replace` is appended
  std::string replace;
  std::string field;     // the message line must start its field part with this
  std::string what;      // ... and contain this
  std::string expected;  // ... and this (after "; expected")
};

std::ostream& operator<<(std::ostream& out, BadSpec const& bad) {
  return out << bad.label;
}

class MalformedSpec : public ::testing::TestWithParam<BadSpec> {};

TEST_P(MalformedSpec, NamesFieldAndExpectation) {
  auto const& bad = GetParam();
  auto dir = data_dir(bad.base);
  std::string text = read_text(dir / "task.toml");
  ASSERT_FALSE(text.empty());
  ASSERT_TRUE(parse_task(text, dir / "task.toml", dir).ok()) << "the base spec must be valid";
  if (bad.find.empty()) {
    text += "\n" + bad.replace + "\n";
  } else {
    auto pos = text.find(bad.find);
    ASSERT_NE(pos, std::string::npos) << "fixture text not found: " << bad.find;
    text.replace(pos, bad.find.size(), bad.replace);
  }
  auto spec = parse_task(text, dir / "task.toml", dir);
  ASSERT_FALSE(spec.ok()) << "accepted a malformed spec:\n" << text;
  EXPECT_EQ(spec.error().code, ErrorCode::invalid_spec);
  std::string const& message = spec.error().message;
  // Find the message line about this field: "<file>:<line>:<col>: <field>: <what>; expected <expected>".
  std::istringstream lines(message);
  std::string line;
  bool found = false;
  while (std::getline(lines, line)) {
    if (line.find(": " + bad.field + ": ") == std::string::npos && !(bad.field.empty())) continue;
    found = true;
    EXPECT_NE(line.find(bad.what), std::string::npos) << "line: " << line;
    auto expected_at = line.find("; expected ");
    ASSERT_NE(expected_at, std::string::npos) << "line: " << line;
    EXPECT_NE(line.find(bad.expected, expected_at), std::string::npos) << "line: " << line;
    static RE2 const location(R"(^.*task\.toml:\d+:\d+: )", RE2::Latin1);
    EXPECT_TRUE(RE2::PartialMatch(line, location)) << "no location: " << line;
    break;
  }
  EXPECT_TRUE(found) << "no line names field '" << bad.field << "' in:\n" << message;
}

// clang-format off
std::vector<BadSpec> const kBadSpecs{
  {"missing_name", "softmax", "name = \"softmax_f32\"\n", "", "name", "missing", "a task name"},
  {"bad_name", "softmax", "name = \"softmax_f32\"", "name = \"soft max!\"", "name", "'soft max!' contains characters", "a task name"},
  {"missing_description", "softmax", "description = \"Row-wise", "# description = \"", "description", "missing", "plain-language description"},
  {"few_trials", "softmax", "trials = 3", "trials = 2", "trials", "2 is out of range", "an integer >= 3"},
  {"trials_string", "softmax", "trials = 3", "trials = \"3\"", "trials", "is a string", "an integer >= 3"},
  {"unknown_top_level_key", "softmax", "trials = 3", "trials = 3\nnmae = \"x\"", "nmae", "unknown key 'nmae'", "one of 'name', 'description'"},
  {"missing_entry", "softmax", "[entry]\nsignature", "[entry_]\nsignature", "entry", "missing", "signature = 'extern \"C\" void"},
  {"bad_signature_type", "softmax", "const float* __restrict__ in", "const floaty* in", "entry.signature", "parameter 2 'in' has unknown type 'floaty*'", "one of float"},
  {"signature_returns_int", "softmax", "extern \"C\" void softmax", "extern \"C\" int softmax", "entry.signature", "return type is 'int'", "void"},
  {"unknown_buffer_key", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlenght = \"N*C\"", "buffers.out.lenght", "unknown key 'lenght'", "one of 'length', 'role', 'dtype', 'generator', 'generators'"},
  {"missing_buffer_table", "softmax", "[buffers.out]\nlength = \"N*C\"\n", "", "buffers.out", "missing", "a [buffers.out] table with length"},
  {"buffer_not_a_param", "softmax", "", "[buffers.tmp]\nlength = \"N\"", "buffers.tmp", "'tmp' is not a parameter of the signature", "one of the pointer parameters 'out', 'in'"},
  {"buffer_for_scalar", "softmax", "", "[buffers.N]\nlength = \"N\"", "buffers.N", "'N' is a scalar parameter", "one of the pointer parameters"},
  {"missing_length", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nrole = \"output\"", "buffers.out.length", "missing", "the element count as an integer expression over the integer scalars N, C"},
  {"length_unknown_name", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N*D\"", "buffers.out.length", "'N*D' uses unknown name 'D'", "an integer expression over the integer scalars N, C"},
  {"length_uses_pointer", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"in\"", "buffers.out.length", "uses 'in', a pointer parameter", "integer scalars N, C"},
  {"length_syntax", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N*(C\"", "buffers.out.length", "unclosed '('", "')'"},
  {"length_float", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = 1.5", "buffers.out.length", "is a float", "an integer expression"},
  {"length_todo", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"TODO\"", "buffers.out.length", "still TODO", "an integer expression"},
  {"length_negative", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N - 100\"", "buffers.out.length", "'N - 100' is -36 for size 'small'", "a length >= 0"},
  {"length_div_zero", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N / (C - 1000)\"", "buffers.out.length", "for size 'small': division by zero", "a length >= 0"},
  {"bad_role", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N*C\"\nrole = \"outptu\"", "buffers.out.role", "unknown role 'outptu'", "\"input\", \"output\", \"inout\" or \"scratch\""},
  {"const_scratch", "softmax", "[buffers.in]\nlength = \"N*C\"", "[buffers.in]\nlength = \"N*C\"\nrole = \"scratch\"", "buffers.in.role", "const, cannot be written", "\"input\", or drop const"},
  {"const_output", "softmax", "[buffers.in]\nlength = \"N*C\"", "[buffers.in]\nlength = \"N*C\"\nrole = \"inout\"", "buffers.in.role", "const, cannot be written", "\"input\", or drop const"},
  {"dtype_disagrees", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N*C\"\ndtype = \"f16\"", "buffers.out.dtype", "'f16' disagrees with the signature", "\"f32\" (the signature declares 'float* out')"},
  {"unknown_dtype", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N*C\"\ndtype = \"float32\"", "buffers.out.dtype", "unknown dtype 'float32'", "\"f32\""},
  {"generator_without_kind", "softmax", "{ kind = \"uniform\", low = -4.0, high = 4.0 }", "{ low = -4.0, high = 4.0 }", "buffers.in.generators[0].kind", "missing", "a generator kind string"},
  {"generator_kind_number", "softmax", "{ kind = \"normal\",", "{ kind = 3,", "buffers.in.generators[1].kind", "is an integer", "a generator kind string"},
  {"generator_and_generators", "softmax", "[buffers.in]\nlength = \"N*C\"", "[buffers.in]\nlength = \"N*C\"\ngenerator = { kind = \"constant\", value = 1.0 }", "buffers.in.generators", "both 'generator' and 'generators'", "only one of them"},
  {"generator_on_output", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N*C\"\ngenerator = { kind = \"constant\", value = 1.0 }", "buffers.out.generator", "an output buffer is never generated", "role = \"inout\""},
  {"affects_outputs_on_output", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N*C\"\naffects_outputs = false", "buffers.out.affects_outputs", "false for a buffer the kernel writes (output)", "true, or false only for an input"},
  {"affects_outputs_not_bool", "softmax", "[buffers.in]\nlength = \"N*C\"", "[buffers.in]\nlength = \"N*C\"\naffects_outputs = \"no\"", "buffers.in.affects_outputs", "is a string", "true or false"},
  {"generator_on_scratch", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N*C\"\nrole = \"scratch\"\ngenerator = { kind = \"constant\", value = 1.0 }", "buffers.out.generator", "a scratch buffer is never generated", "role = \"inout\""},
  {"generator_param_array", "softmax", "low = -4.0, high = 4.0", "low = [-4.0], high = 4.0", "buffers.in.generators[0].low", "is an array", "a number, a boolean or a string"},
  {"generators_empty", "softmax", "generators = [ {", "generators = []\n# [ {", "buffers.in.generators", "is empty", "at least one generator table"},
  {"targets_in_buffer_generator", "softmax", "low = -4.0, high = 4.0", "low = -4.0, targets = { x = \"in\" }", "buffers.in.generators[0].targets", "only allowed in structured generators", "[generators.<name>]"},
  {"missing_sizes", "softmax", "[[sizes]]\nname = \"small\"\nN = 64\nC = 1000\n\n[[sizes]]\nname = \"odd\"\nN = 37\nC = 1001\nverify_only = true\n", "", "sizes", "missing", "one or more [[sizes]] tables"},
  {"sizes_single_brackets", "softmax", "[[sizes]]\nname = \"small\"\nN = 64\nC = 1000\n\n[[sizes]]\nname = \"odd\"\nN = 37\nC = 1001\nverify_only = true\n", "[sizes]\nname = \"small\"\n", "sizes", "is a table (written as [sizes]?)", "an array of tables written as [[sizes]]"},
  {"size_missing_scalar", "softmax", "N = 64\nC = 1000", "N = 64", "sizes[0].C", "missing", "an integer in [-2147483648, 2147483647] (i32 scalar) here or in [scalars]"},
  {"size_float_for_int", "softmax", "N = 64", "N = 64.0", "sizes[0].N", "is a float", "an integer in"},
  {"size_int_overflow", "softmax", "N = 64", "N = 5000000000", "sizes[0].N", "5000000000 does not fit", "an integer in [-2147483648, 2147483647]"},
  {"size_todo", "softmax", "N = 64", "N = \"TODO\"", "sizes[0].N", "still TODO", "an integer in"},
  {"size_duplicate_name", "softmax", "name = \"odd\"", "name = \"small\"", "sizes[1].name", "'small' is used twice", "a unique size name"},
  {"size_missing_name", "softmax", "name = \"odd\"\n", "", "sizes[1].name", "missing", "a unique size name string"},
  {"size_unknown_key", "softmax", "N = 64\nC = 1000", "N = 64\nC = 1000\nc = 5", "sizes[0].c", "unknown key 'c'", "one of 'name', 'verify_only', 'N', 'C'"},
  {"size_variables_not_a_table", "softmax", "N = 64\nC = 1000", "N = 64\nC = 1000\nvariables = 5", "sizes[0].variables", "is an integer", "a table of integers the launcher does not take"},
  {"size_variable_is_a_parameter", "softmax", "N = 64\nC = 1000", "N = 64\nC = 1000\nvariables = { C = 3 }", "sizes[0].variables.C", "'C' is a parameter of the launcher", "the parameter's value as sizes[0].C"},
  {"size_variable_not_an_integer", "softmax", "N = 64\nC = 1000", "N = 64\nC = 1000\nvariables = { pad = 1.5 }", "sizes[0].variables.pad", "is a float", "an integer"},
  {"size_variable_missing_in_a_case", "softmax", "N = 64\nC = 1000", "N = 64\nC = 1000\nvariables = { pad = 3 }", "sizes[1].variables.pad", "missing", "another size case defines the variable 'pad'"},
  {"binding_to_a_size_variable", "softmax", "N = 64\nC = 1000", "N = 64\nC = 1000\nvariables = { pad = 3 }\n[binding]\nM = \"N + pad\"\n[[sizes]]\nname = \"x\"\nN = 2\nC = 2\nvariables = { pad = 1 }", "binding.M", "uses 'pad', a per-size variable", "a parameter of the entry"},
  {"size_verify_only_string", "softmax", "verify_only = true", "verify_only = \"yes\"", "sizes[1].verify_only", "is a string", "true or false"},
  {"all_verify_only", "softmax", "C = 1000\n", "C = 1000\nverify_only = true\n", "sizes", "every size case is verify_only", "at least one size case without verify_only"},
  {"tolerance_unknown_dtype", "softmax", "f32 = { atol", "f33 = { atol", "tolerance.f33", "unknown dtype 'f33'", "one of f32, f64, f16, bf16"},
  {"tolerance_negative", "softmax", "atol = 1e-5, rtol = 1e-4", "atol = -1e-5, rtol = 1e-4", "tolerance.f32.atol", "is negative", "a number >= 0"},
  {"tolerance_fraction_one", "softmax", "rtol = 1e-4 }", "rtol = 1e-4, mismatch_fraction = 1.0 }", "tolerance.f32.mismatch_fraction", "is out of range", "a number in [0, 1)"},
  {"tolerance_unknown_key", "softmax", "rtol = 1e-4 }", "rtl = 1e-4 }", "tolerance.f32.rtl", "unknown key 'rtl'", "one of 'atol', 'rtol', 'mismatch_fraction'"},
  {"tolerance_nan", "softmax", "rtol = 1e-4 }", "rtol = nan }", "tolerance.f32.rtol", "is not finite", "a number >= 0"},
  {"missing_reference", "softmax", "[reference]\nsource = \"reference.cu\"\nlibraries = []\n", "", "reference", "missing", "a table with source"},
  {"reference_not_found", "softmax", "source = \"reference.cu\"", "source = \"nope.cu\"", "reference.source", "file 'nope.cu' not found", "an existing file, relative to the task folder"},
  {"libraries_string", "softmax", "libraries = [\"cublas\"]", "libraries = \"cublas\"", "baseline.libraries", "is a string", "an array of library names"},
  {"baseline_without_source", "softmax", "source = \"baseline_cublas.cu\"\n", "", "baseline.source", "missing", "a .cu file path"},
  {"work_uses_pointer", "softmax", "flops = \"5*N*C\"", "flops = \"5*N*out\"", "work.flops", "uses 'out', a pointer parameter", "integer scalars N, C"},
  {"work_unknown_key", "softmax", "flops = \"5*N*C\"", "flop = \"5*N*C\"", "work.flop", "unknown key 'flop'", "one of 'bytes', 'flops', 'math'"},
  {"work_math_unknown", "softmax", "flops = \"5*N*C\"", "flops = \"5*N*C\"\nmath = \"tf32\"", "work.math", "is 'tf32'", "\"fp32\" (CUDA-core FP32 math) or \"tensor\" (tensor cores)"},
  {"work_math_not_text", "softmax", "flops = \"5*N*C\"", "flops = \"5*N*C\"\nmath = 32", "work.math", "is an integer", "\"fp32\""},
  {"launch_four_dims", "softmax", "block = [\"256\"]", "block = [\"256\", \"1\", \"1\", \"1\"]", "launch.block", "has 4 dimensions", "1 to 3 integer expressions"},
  {"launch_missing_grid", "softmax", "grid = \"N\"\n", "", "launch.grid", "missing", "1 to 3 integer expressions"},
  {"launch_zero_block", "softmax", "block = [\"256\"]", "block = [\"C - 1000\"]", "launch.block[0]", "is 0 for size 'small'", "a dimension >= 1"},
  {"launch_bad_kernel", "softmax", "kernel = \"softmax_kernel\"", "kernel = \"softmax kernel\"", "launch.kernel", "is not a C identifier", "a __global__ function name"},
  {"strategy_params_not_a_table", "softmax", "name = \"softmax_f32\"", "strategy_params = \"op\"\nname = \"softmax_f32\"", "strategy_params", "is a string", "a table of strategy parameters"},
  {"strategy_params_number", "softmax", "", "[strategy_params]\nop = 3", "strategy_params.op", "is an integer", "a string holding a C++ expression"},
  {"strategy_params_bad_key", "softmax", "", "[strategy_params]\n\"o p\" = \"x\"", "strategy_params.o p", "is not an identifier", "a C identifier"},
  {"strategy_params_empty", "softmax", "", "[strategy_params]\nop = \"\"", "strategy_params.op", "is empty or spans several lines", "a one-line C++ expression"},
  {"binding_unknown_name", "softmax", "", "[binding]\nn = \"rows\"", "binding.n", "'rows' is neither a parameter nor such an expression", "a parameter of the entry, an integer expression over its integer scalars, a number, or a slice of a buffer"},
  {"binding_pointer_in_expression", "softmax", "", "[binding]\nn = \"2 * out\"", "binding.n", "is neither a parameter nor such an expression", "a parameter of the entry"},
  {"binding_boolean", "softmax", "", "[binding]\nn = true", "binding.n", "is a boolean", "a parameter of the entry"},
  {"binding_not_a_table", "softmax", "name = \"softmax_f32\"", "binding = 3\nname = \"softmax_f32\"", "binding", "is an integer", "a table of contract roles"},
  {"no_output_buffer", "softmax", "void softmax(float* out", "void softmax(const float* out", "buffers", "no buffer is written by the kernel", "at least one output or inout buffer"},
  {"only_scratch_written", "softmax", "[buffers.out]\nlength = \"N*C\"", "[buffers.out]\nlength = \"N*C\"\nrole = \"scratch\"", "buffers", "no buffer is written by the kernel and compared", "at least one output or inout buffer"},
  {"invalid_toml", "softmax", "N = 64", "N = = 64", "", "invalid TOML", "valid TOML"},
  {"control_character", "softmax", "[buffers.out]", "[\x12uffers.out]", "", "control character U+0012", "valid TOML"},
  {"empty_table_header", "softmax", "[tolerance]", "[ ]", "", "table header without a name", "[name] or [[name]]"},
  {"triple_bracket_header", "softmax", "[[sizes]]", "[[[sizes]]]", "", "table header without a name", "[name] or [[name]]"},
  {"duplicate_toml_key", "softmax", "N = 64", "N = 64\nN = 65", "", "invalid TOML", "valid TOML"},
  {"float_scalar_in_length", "gemm_bf16", "length = \"M*N\"", "length = \"M*alpha\"", "buffers.C.length", "uses 'alpha', a floating-point scalar", "integer scalars M, N, K"},
  {"float_scalar_string", "gemm_bf16", "alpha = -2.5", "alpha = \"big\"", "sizes[1].alpha", "is a string", "a number (f32 scalar)"},
  {"scalars_unknown_key", "gemm_bf16", "alpha = 1\n", "alpha = 1\ngamma = 2\n", "scalars.gamma", "unknown key 'gamma'", "one of 'M', 'N', 'K', 'alpha', 'beta'"},
  {"target_with_own_generator", "spmv_csr", "[buffers.vals]\nlength = \"NNZ\"", "[buffers.vals]\nlength = \"NNZ\"\ngenerator = { kind = \"uniform\", low = 0.0, high = 1.0 }", "generators.A.targets.values", "'vals' also has its own generator", "each buffer filled by exactly one generator"},
  {"target_not_a_buffer", "spmv_csr", "values = \"vals\"", "values = \"values\"", "generators.A.targets.values", "'values' is not a buffer", "one of 'y', 'row_ptr'"},
  {"target_is_output", "spmv_csr", "values = \"vals\"", "values = \"y\"", "generators.A.targets.values", "'y' is an output buffer", "an input or inout buffer"},
  {"structured_without_targets", "spmv_csr", "targets = { row_ptr = \"row_ptr\", col_idx = \"col_idx\", values = \"vals\" }", "", "generators.A.targets", "missing", "a table naming the buffers"},
  {"structured_target_not_string", "spmv_csr", "values = \"vals\"", "values = 3", "generators.A.targets.values", "is an integer", "a buffer name string"},
  {"u32_scalar_negative", "histogram", "C = 16", "C = -16", "sizes[1].C", "-16 does not fit", "an integer in [0, 4294967295] (u32 scalar)"},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(TaskErrors, MalformedSpec, ::testing::ValuesIn(kBadSpecs),
                         [](auto const& param_info) { return param_info.param.label; });

TEST(TaskErrors, CasesAreDistinct) {
  std::set<std::string> labels;
  for (auto const& bad : kBadSpecs) EXPECT_TRUE(labels.insert(bad.label).second) << bad.label;
  EXPECT_GE(kBadSpecs.size(), 25u);
}

TEST(TaskErrors, SeveralProblemsAreReportedTogether) {
  auto dir = data_dir("softmax");
  std::string text = read_text(dir / "task.toml");
  text.replace(text.find("trials = 3"), 10, "trials = 1");
  text.replace(text.find("N = 37"), 6, "N = 3.7");
  text.replace(text.find("\"reference.cu\""), 14, "\"missing.cu\"");
  auto spec = parse_task(text, "task.toml", dir);
  ASSERT_FALSE(spec.ok());
  auto const& message = spec.error().message;
  EXPECT_NE(message.find("trials: 1 is out of range"), std::string::npos) << message;
  EXPECT_NE(message.find("sizes[1].N: is a float"), std::string::npos) << message;
  EXPECT_NE(message.find("reference.source: file 'missing.cu' not found"), std::string::npos) << message;
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 2) << message;
}

TEST(TaskErrors, LocationPointsAtTheOffendingLine) {
  auto dir = data_dir("softmax");
  std::string text = "name = \"x\"\ndescription = \"d\"\ntrials = 1\n";
  auto spec = parse_task(text, "spec.toml", dir);
  ASSERT_FALSE(spec.ok());
  EXPECT_NE(spec.error().message.find("spec.toml:3:10: trials: 1 is out of range"), std::string::npos)
      << spec.error().message;
}

}  // namespace task_errors_test
}  // namespace kopt
