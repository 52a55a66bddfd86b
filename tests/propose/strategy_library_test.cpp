// The strategy library's loader, applicability rules, instantiation and ordering, on a small library written
// by the test (docs/strategies.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>

#include "kopt/propose.hpp"
#include "kopt/tuning.hpp"
#include "propose/propose_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace strategy_library_test {

namespace fs = std::filesystem;

using test::write_file;

std::string const kTask = test::add_task_toml("count") + "[strategy_params]\nop = \"a + b\"\n";

std::string const kTemplate = R"kopt(// kopt:knob BLOCK = [128, 256]
// kopt:constraint BLOCK <= {{ARG3}} + 1000
// kopt:launch grid=(ceil_div({{ARG3}}, BLOCK)) block=(BLOCK)
extern "C" __global__ void {{ENTRY}}({{T}}* c, const {{T}}* a, const {{T}}* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = {{op}};
}
)kopt";

std::string const kManifest = R"kopt([[strategy]]
name = "plain_map2"
families = ["elementwise"]
template = "plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
params = ["op"]
addresses = ["memory_bound"]
description = "One element per thread."
applies_when = "Always."

[[strategy]]
name = "bf16_only"
families = ["elementwise"]
template = "plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
dtypes = ["bf16"]
description = "BF16 only."
applies_when = "BF16 tasks."

[[strategy]]
name = "needs_hopper"
families = ["elementwise"]
template = "plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
min_arch = 90
addresses = ["latency_bound"]
description = "Hopper only."
applies_when = "sm_90."

[[strategy]]
name = "needs_combine"
families = ["elementwise"]
template = "plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
params = ["combine"]
description = "Needs a parameter the task does not give."
applies_when = "Never here."

[[strategy]]
name = "other_contract"
families = ["elementwise"]
template = "plain_map2.cu"
signature = "void (T* c, const T* a, int n)"
description = "Two parameters fewer."
applies_when = "Never here."

[[strategy]]
name = "other_family"
families = ["reduction"]
template = "plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
description = "A reduction."
applies_when = "Never here."
)kopt";

struct LibraryFixture : ::testing::Test {
  void SetUp() override {
    write_file(dir.path() / "lib" / "common" / "strategy.cuh", "// common header\n");
    write_file(dir.path() / "lib" / "maps" / "plain_map2.cu", kTemplate);
    write_file(dir.path() / "lib" / "maps" / "strategies.toml", kManifest);
    write_file(dir.path() / "task" / "reference.cu", "\n");
    auto parsed = parse_task(kTask, dir.path() / "task" / "task.toml", dir.path() / "task");
    ASSERT_TRUE(parsed) << parsed.error().message;
    task = *parsed;
  }
  test::TempDir dir;
  TaskSpec task;
};

TEST_F(LibraryFixture, LoadsEveryEntryWithItsTemplate) {
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  ASSERT_EQ(library->strategies.size(), 6u);
  auto const* s = library->find("plain_map2");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->families, std::vector<std::string>{"elementwise"});
  EXPECT_EQ(s->dtypes, (std::vector<DType>{DType::f32, DType::bf16}));
  EXPECT_EQ(s->min_arch, 80);
  EXPECT_EQ(s->template_text, kTemplate);
  EXPECT_EQ(library->common_header, "// common header\n");
  EXPECT_EQ(library->find("missing"), nullptr);
}

TEST_F(LibraryFixture, ManifestErrorsNameTheFileTheEntryAndTheField) {
  write_file(dir.path() / "lib" / "bad" / "strategies.toml", R"kopt([[strategy]]
name = "broken"
families = "elementwise"
template = "nope.cu"
signature = "void (T* c)"
dtypes = ["f16"]
description = "x"
applies_when = "y"
colour = "red"

[[strategy]]
name = "plain_map2"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c)"
description = "duplicate name"
applies_when = "y"
)kopt");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(library);
  auto const& m = library.error().message;
  EXPECT_NE(m.find("bad/strategies.toml: strategy[0].families: is not a list"), std::string::npos) << m;
  EXPECT_NE(m.find("strategy[0].template: '"), std::string::npos) << m;
  EXPECT_NE(m.find("nope.cu' cannot be read"), std::string::npos) << m;
  EXPECT_NE(m.find("strategy[0].dtypes: 'f16' is not supported"), std::string::npos) << m;
  EXPECT_NE(m.find("strategy[0].colour: is not a known field"), std::string::npos) << m;
  EXPECT_NE(m.find("'plain_map2' is used twice"), std::string::npos) << m;
}

// `defaults` gives a scalar role a value for tasks that do not pass it; it must name a scalar role and
// hold a value of its type.
TEST_F(LibraryFixture, DefaultsNameScalarRolesWithValuesOfTheirType) {
  std::string const valid = R"kopt([[strategy]]
name = "norm_ok"
families = ["rmsnorm"]
template = "../maps/plain_map2.cu"
signature = "void (T* out, const T* in, int n, float eps)"
defaults = { eps = "1e-6" }
description = "x"
applies_when = "y"
)kopt";
  write_file(dir.path() / "lib" / "norm" / "strategies.toml", valid + R"kopt(
[[strategy]]
name = "norm_bad"
families = ["rmsnorm"]
template = "../maps/plain_map2.cu"
signature = "void (T* out, const T* in, int n, float eps)"
defaults = { eps = "small", out = "1", n = "k" }
lengths = { out = "m", in = "n" }
description = "x"
applies_when = "y"
)kopt");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(library);
  auto const& m = library.error().message;
  EXPECT_NE(m.find("strategy[1].defaults.eps: is not a value for the float role; expected a decimal number"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("strategy[1].defaults.out: is not a scalar parameter of the signature"), std::string::npos)
      << m;
  EXPECT_NE(m.find("strategy[1].defaults.n: is not a value for the int role; expected an integer"),
            std::string::npos)
      << m;
  // The lengths are checked against the same typed contract (a T the parser did not know once made
  // this check a no-op).
  EXPECT_NE(m.find("strategy[1].lengths.out: names 'm', which is not a scalar parameter of the signature"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("strategy[0]"), std::string::npos) << m;

  write_file(dir.path() / "lib" / "norm" / "strategies.toml", valid);
  auto loaded = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_NE(loaded->find("norm_ok"), nullptr);
  EXPECT_EQ(loaded->find("norm_ok")->defaults.at("eps"), "1e-6");
}

// `in_place` pairs an output role with the input role(s) it may share a task's inout buffer with; both
// must be pointer roles of the signature, the first written, the others read, of one element type.
TEST_F(LibraryFixture, InPlacePairsAnOutputRoleWithInputRolesOfItsType) {
  std::string const valid = R"kopt([[strategy]]
name = "map_ok"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
in_place = { c = ["a", "b"] }
description = "x"
applies_when = "y"
)kopt";
  write_file(dir.path() / "lib" / "inplace" / "strategies.toml", valid + R"kopt(
[[strategy]]
name = "map_bad"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const int* idx, int n)"
in_place = { a = "c", c = "idx", n = "a" }
description = "x"
applies_when = "y"
)kopt");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(library);
  auto const& m = library.error().message;
  EXPECT_NE(m.find("strategy[1].in_place.a: is not a non-const pointer parameter of the signature"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("strategy[1].in_place.c: does not name const pointer parameters of the same element type"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("strategy[1].in_place.n: is not a non-const pointer parameter"), std::string::npos) << m;
  EXPECT_EQ(m.find("strategy[0]"), std::string::npos) << m;

  write_file(dir.path() / "lib" / "inplace" / "strategies.toml", valid);
  auto loaded = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->find("map_ok")->in_place.at("c"), (std::vector<std::string>{"a", "b"}));
}

// `updates` names written roles the strategy reads first (running statistics): they take only a buffer the
// task declares inout, never an output it only writes, and are never added into.
// A role the strategy reads before it writes takes the task's inout buffer, or an output started from an
// input no other role takes (none here: a and b are the strategy's inputs).
TEST_F(LibraryFixture, UpdatedRolesTakeInoutBuffersOrOutputsStartedFromAnInput) {
  std::string const valid = R"kopt([[strategy]]
name = "c_plus_a_b"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
updates = ["c"]
description = "x"
applies_when = "y"
)kopt";
  write_file(dir.path() / "lib" / "updates" / "strategies.toml", valid + R"kopt(
[[strategy]]
name = "updates_bad"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
updates = ["a", "m"]
description = "x"
applies_when = "y"
)kopt");
  auto bad = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("strategy[1].updates: 'a' is not a non-const pointer parameter"),
            std::string::npos)
      << bad.error().message;
  EXPECT_NE(bad.error().message.find("'m' is not a non-const pointer parameter"), std::string::npos);

  write_file(dir.path() / "lib" / "updates" / "strategies.toml", valid);
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  LibraryStrategy const& updating = *library->find("c_plus_a_b");
  EXPECT_EQ(updating.updates, (std::vector<std::string>{"c"}));
  auto const written = check_applicability(updating, task, 90);  // the task only writes c
  EXPECT_FALSE(written.applies);
  EXPECT_NE(written.reason.find("role 'c' reads the task's output 'c' before writing it, and no input of the "
                                "task that no role takes has its length to start it from"),
            std::string::npos)
      << written.reason;
  std::string text = kTask;
  text.replace(text.find("[buffers.c]\n"), 12, "[buffers.c]\nrole = \"inout\"\n");
  auto inout = parse_task(text, dir.path() / "task" / "task.toml", dir.path() / "task");
  ASSERT_TRUE(inout) << inout.error().message;
  auto const read_first = check_applicability(updating, *inout, 90);
  ASSERT_TRUE(read_first.applies) << read_first.reason;
  for (StrategyBinding const& b : read_first.bindings) {
    EXPECT_EQ(b.describe().find("added into"), std::string::npos) << b.describe();
  }
  // Without `updates` the same inout buffer is also offered as added into (verification decides).
  auto const plain = check_applicability(*library->find("plain_map2"), *inout, 90);
  EXPECT_TRUE(std::any_of(plain.bindings.begin(), plain.bindings.end(), [](StrategyBinding const& b) {
    return b.describe().find("added into") != std::string::npos;
  }));
}

// `unread` names integer roles the template never substitutes: one its launch line reads, or a buffer, is
// refused.
TEST_F(LibraryFixture, UnreadRolesAreIntegersTheTemplateNeverSubstitutes) {
  write_file(dir.path() / "lib" / "unread" / "strategies.toml", R"kopt([[strategy]]
name = "unread_bad"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
unread = ["n", "a"]
description = "x"
applies_when = "y"
)kopt");
  auto bad = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("strategy[0].unread: 'n' is read by the template ({{ARG3}})"),
            std::string::npos)
      << bad.error().message;
  EXPECT_NE(bad.error().message.find("'a' is not an integer parameter of the signature"), std::string::npos)
      << bad.error().message;
}

TEST_F(LibraryFixture, DefinesAreMacrosBeforeTheTemplateAndNeverAKnob) {
  std::string const valid = R"kopt([[strategy]]
name = "map_reversed"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
defines = { REVERSED = 1, SCALE = "1.5f", OP = "{{op}}" }
params = ["op"]
description = "x"
applies_when = "y"
)kopt";
  write_file(dir.path() / "lib" / "defines" / "strategies.toml", valid + R"kopt(
[[strategy]]
name = "map_bad"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
defines = { lower = 1, SPACED = "1 + 2", BLOCK = 64, TABLE = [1], OTHER = "{{combine}}" }
description = "x"
applies_when = "y"
)kopt");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(library);
  auto const& m = library.error().message;
  EXPECT_NE(m.find("strategy[1].defines.lower: is not an upper-case macro name"), std::string::npos) << m;
  EXPECT_NE(m.find("strategy[1].defines.SPACED: is not a value for a macro"), std::string::npos) << m;
  EXPECT_NE(m.find("strategy[1].defines.TABLE: is not a value for a macro"), std::string::npos) << m;
  EXPECT_NE(m.find("strategy[1].defines.BLOCK: is a knob of the template"), std::string::npos) << m;
  EXPECT_NE(m.find("strategy[1].defines.OTHER: names 'combine', which is not in the strategy's params"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("strategy[0]"), std::string::npos) << m;

  write_file(dir.path() / "lib" / "defines" / "strategies.toml", valid);
  auto loaded = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(loaded) << loaded.error().message;
  auto const* reversed = loaded->find("map_reversed");
  EXPECT_EQ(reversed->defines, (std::map<std::string, std::string, std::less<>>{
                                   {"OP", "{{op}}"}, {"REVERSED", "1"}, {"SCALE", "1.5f"}}));
  auto text = instantiate_strategy(*loaded, *reversed, task, 90);
  ASSERT_TRUE(text) << text.error().message;
  // "{{op}}" is the task's expression, parenthesised.
  auto const defines =
      text->find("#define OP (a + b)\n#define REVERSED 1\n#define SCALE 1.5f\n#line 1 \"plain_map2.cu\"\n");
  EXPECT_NE(defines, std::string::npos) << *text;
  EXPECT_LT(text->find("// common header"), defines) << *text;
  // The strategy without defines sharing the template gets none.
  auto plain = instantiate_strategy(*loaded, *loaded->find("plain_map2"), task, 90);
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(plain->find("#define"), std::string::npos) << *plain;
}

// `launch` replaces the template's launch line for one strategy (conv2d_nchw_strided: the same template, its
// sizes at other positions); a line without a grid, or a template with no launch line, is refused at load.
TEST_F(LibraryFixture, ALaunchFieldReplacesTheTemplatesLaunchLine) {
  std::string const valid = R"kopt([[strategy]]
name = "map_wide"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
launch = "grid=(ceil_div({{ARG3}}, 4 * BLOCK)) block=(BLOCK)"
params = ["op"]
description = "x"
applies_when = "y"
)kopt";
  write_file(dir.path() / "lib" / "maps" / "scalar.cu", "__device__ int scalar_{{ENTRY}};\n");
  write_file(dir.path() / "lib" / "launch" / "strategies.toml", valid + R"kopt(
[[strategy]]
name = "map_no_grid"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
launch = "block=(BLOCK)"
params = ["op"]
description = "x"
applies_when = "y"

[[strategy]]
name = "map_no_line"
families = ["elementwise"]
template = "../maps/scalar.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
launch = "grid=(1) block=(32)"
description = "x"
applies_when = "y"
)kopt");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(library);
  auto const& m = library.error().message;
  EXPECT_NE(m.find("strategy[1].launch: 'block=(BLOCK)' gives no grid"), std::string::npos) << m;
  EXPECT_NE(m.find("strategy[2].launch: the template has 0 `// kopt:launch` lines"), std::string::npos) << m;
  EXPECT_EQ(m.find("strategy[0]"), std::string::npos) << m;

  write_file(dir.path() / "lib" / "launch" / "strategies.toml", valid);
  auto loaded = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(loaded) << loaded.error().message;
  auto text = instantiate_strategy(*loaded, *loaded->find("map_wide"), task, 90);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->find("// kopt:launch grid=(ceil_div(count, 4 * BLOCK)) block=(BLOCK)\n"), std::string::npos)
      << *text;
  EXPECT_EQ(text->find("grid=(ceil_div(count, BLOCK))"), std::string::npos) << *text;
  // The strategy without it keeps the template's line.
  auto plain = instantiate_strategy(*loaded, *loaded->find("plain_map2"), task, 90);
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_NE(plain->find("// kopt:launch grid=(ceil_div(count, BLOCK)) block=(BLOCK)"), std::string::npos)
      << *plain;
}

// Text that toml++ 3.3 must not see (a non-ASCII character outside a string reaches undefined behaviour
// in it; docs/fuzzing.md) is refused before parsing, with the manifest, line and column.
TEST_F(LibraryFixture, AManifestToml33CannotReadIsRefusedBeforeParsing) {
  write_file(dir.path() / "lib" / "bad" / "strategies.toml", "[[strategy]]\nname \xC2\xA1= \"x\"\n");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(library);
  auto const& m = library.error().message;
  EXPECT_NE(m.find("strategies.toml:2:6: "), std::string::npos) << m;  // toml++ gives no column
}

TEST_F(LibraryFixture, AMissingCommonHeaderSaysWhatAFolderNeeds) {
  fs::remove(dir.path() / "lib" / "common" / "strategy.cuh");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(library);
  EXPECT_EQ(library.error().code, ErrorCode::not_found);
  EXPECT_NE(library.error().message.find("common/strategy.cuh"), std::string::npos);
}

TEST_F(LibraryFixture, ApplicabilitySaysWhyNot) {
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  auto reason = [&](std::string const& name, int arch) {
    return check_applicability(*library->find(name), task, arch).reason;
  };
  EXPECT_TRUE(check_applicability(*library->find("plain_map2"), task, 90).applies);
  EXPECT_EQ(check_applicability(*library->find("plain_map2"), task, 90).element, DType::f32);
  EXPECT_EQ(reason("bf16_only", 90), "does not support f32");
  EXPECT_EQ(reason("needs_hopper", 80), "needs sm_90 or newer, the target is sm_80");
  EXPECT_TRUE(check_applicability(*library->find("needs_hopper"), task, 90).applies);
  EXPECT_TRUE(check_applicability(*library->find("needs_hopper"), task, 0).applies) << "0: do not check";
  EXPECT_EQ(reason("needs_combine", 90), "the task's [strategy_params] does not give 'combine'");
  EXPECT_EQ(reason("other_contract", 90),
            "its contract void (T* c, const T* a, int n) does not bind: 2 assignment(s) of its roles "
            "considered; no role takes the task's buffer 'b'");
  EXPECT_EQ(reason("other_family", 90), "serves reduction, not elementwise");
  // A task without a family is offered every strategy whose contract binds (family inference).
  TaskSpec no_family = task;
  no_family.family.clear();
  auto const inferred = check_applicability(*library->find("plain_map2"), no_family, 90);
  EXPECT_TRUE(inferred.applies) << inferred.reason;
  EXPECT_TRUE(inferred.family_inferred);
  EXPECT_TRUE(check_applicability(*library->find("other_family"), no_family, 90).applies);
  EXPECT_FALSE(check_applicability(*library->find("other_contract"), no_family, 90).applies);
}

TEST_F(LibraryFixture, AnArchitectureSpecificStrategyAppliesToItsGenerationOnlyAndAsksForIt) {
  write_file(dir.path() / "lib" / "hopper" / "strategies.toml", R"kopt([[strategy]]
name = "wgmma_map"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
params = ["op"]
arch = "sm_90a"
description = "Hopper's architecture-specific instructions."
applies_when = "sm_90 only."
)kopt");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  auto const* s = library->find("wgmma_map");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->arch, "sm_90a");
  EXPECT_EQ(s->min_arch, 90);
  EXPECT_TRUE(check_applicability(*s, task, 90).applies);
  EXPECT_EQ(check_applicability(*s, task, 80).reason, "is built for sm_90a only, the target is sm_80");
  EXPECT_EQ(check_applicability(*s, task, 100).reason, "is built for sm_90a only, the target is sm_100");
  auto source = instantiate_strategy(*library, *s, task, 90);
  ASSERT_TRUE(source) << source.error().message;
  EXPECT_NE(source->find("\n// kopt:arch sm_90a\n"), std::string::npos) << *source;
  // Other strategies do not ask for an architecture.
  auto plain = instantiate_strategy(*library, *library->find("plain_map2"), task, 90);
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(plain->find("kopt:arch"), std::string::npos);

  write_file(dir.path() / "lib" / "hopper" / "strategies.toml", std::string(R"kopt([[strategy]]
name = "wgmma_map"
families = ["elementwise"]
template = "../maps/plain_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
arch = "sm_90"
description = "x"
applies_when = "y"
)kopt"));
  auto bad = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("strategy[0].arch: 'sm_90' is not an architecture-specific target"),
            std::string::npos)
      << bad.error().message;
}

TEST_F(LibraryFixture, TheElementTypeIsWhateverMakesTheSignatureMatch) {
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  auto bf16 = task;
  auto sig = parse_signature(
      "void add(__nv_bfloat16* c, const __nv_bfloat16* a, const __nv_bfloat16* b, int count)");
  ASSERT_TRUE(sig) << sig.error().message;
  bf16.signature = *sig;
  auto const a = check_applicability(*library->find("bf16_only"), bf16, 90);
  EXPECT_TRUE(a.applies) << a.reason;
  EXPECT_EQ(a.element, DType::bf16);
  auto mixed = task;
  sig = parse_signature("void add(float* c, const __nv_bfloat16* a, const float* b, int count)");
  ASSERT_TRUE(sig);
  mixed.signature = *sig;
  EXPECT_EQ(check_applicability(*library->find("plain_map2"), mixed, 90).reason,
            "its contract void (T* c, const T* a, const T* b, int n) does not bind: the task's 'a' "
            "(const __nv_bfloat16*) fits no role of the contract");
}

TEST_F(LibraryFixture, InstantiationSubstitutesEveryPlaceholderAndParses) {
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  auto text = instantiate_strategy(*library, *library->find("plain_map2"), task, 90);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(text->find("{{"), std::string::npos) << *text;
  EXPECT_NE(text->find("// common header\n"), std::string::npos);
  EXPECT_NE(text->find("__global__ void add(float* c, const float* a, const float* b, int n)"),
            std::string::npos);
  EXPECT_NE(text->find("c[i] = a + b;"), std::string::npos);
  EXPECT_NE(text->find("grid=(ceil_div(count, BLOCK))"), std::string::npos) << "{{ARG3}} is the task's name";
  auto space = TuningSpace::parse(*text, "plain_map2.cu");
  ASSERT_TRUE(space) << space.error().message;
  auto enumeration = space->enumerate(tuning_rules_for(task));
  ASSERT_TRUE(enumeration) << enumeration.error().message;
  EXPECT_EQ(enumeration->valid.size(), 2u);
}

TEST_F(LibraryFixture, UnknownAndUnclosedPlaceholdersNameTheLine) {
  write_file(dir.path() / "lib" / "maps" / "plain_map2.cu", "// line 1\n  x = {{shape}};\n");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  auto text = instantiate_strategy(*library, *library->find("plain_map2"), task, 90);
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("plain_map2.cu:2: unknown placeholder '{{shape}}'"), std::string::npos)
      << text.error().message;
  write_file(dir.path() / "lib" / "maps" / "plain_map2.cu", "ok\n{{T\n}}\n");
  library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library);
  text = instantiate_strategy(*library, *library->find("plain_map2"), task, 90);
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("plain_map2.cu:2: '{{' is not closed on its line"), std::string::npos)
      << text.error().message;
  text = instantiate_strategy(*library, *library->find("other_family"), task, 90);
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("does not apply to add: serves reduction"), std::string::npos);
}

TEST_F(LibraryFixture, IncludeLinesSpliceASharedBodyIntoTheTemplate) {
  write_file(dir.path() / "lib" / "maps" / "body.cuh", "// shared body\nint shared_{{ENTRY}};\n");
  write_file(dir.path() / "lib" / "maps" / "plain_map2.cu", "// head\n  // kopt:include body.cuh\n// tail\n");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  EXPECT_EQ(library->find("plain_map2")->template_text,
            "// head\n// shared body\nint shared_{{ENTRY}};\n// tail\n");
  auto text = instantiate_strategy(*library, *library->find("plain_map2"), task, 90);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->find("int shared_add;"), std::string::npos)
      << "placeholders of the included text are replaced";

  write_file(dir.path() / "lib" / "maps" / "body.cuh", "// kopt:include other.cuh\n");
  auto nested = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(nested);
  EXPECT_NE(nested.error().message.find("body.cuh: includes another file"), std::string::npos)
      << nested.error().message;
  write_file(dir.path() / "lib" / "maps" / "plain_map2.cu", "// kopt:include missing.cuh\n");
  auto missing = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("plain_map2.cu:1: kopt:include"), std::string::npos)
      << missing.error().message;
}

// Outside text (issue #23): 1 MiB runs in a library given with --strategies, around an include line and in
// an architecture's number. std::regex recursed once per character and overflowed the stack; RE2 reads them
// in linear time: the include is spliced, and a number too large is a clear error.
TEST_F(LibraryFixture, MegabyteRunsInATemplateAndAManifestAreReadNotACrash) {
  std::string const spaces(std::size_t{1} << 20, ' ');
  write_file(dir.path() / "lib" / "maps" / "body.cuh", "// shared body\n");
  write_file(
      dir.path() / "lib" / "maps" / "plain_map2.cu",
      "// head\n" + spaces + "//" + spaces + "kopt:include" + spaces + "body.cuh" + spaces + "\n// tail\n");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message.substr(0, 500);
  EXPECT_EQ(library->find("plain_map2")->template_text, "// head\n// shared body\n// tail\n");

  std::string const manifest =
      "[[strategy]]\nname = \"wgmma_map\"\nfamilies = [\"elementwise\"]\n"
      "template = \"../maps/plain_map2.cu\"\n"
      "signature = \"void (T* c, const T* a, const T* b, int n)\"\narch = \"sm_" +
      std::string(std::size_t{1} << 20, '9') + "a\"\ndescription = \"x\"\napplies_when = \"y\"\n";
  write_file(dir.path() / "lib" / "hopper" / "strategies.toml", manifest);
  auto big = load_strategy_library(dir.path() / "lib");
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("strategy[0].arch: 'sm_999"), std::string::npos)
      << big.error().message.substr(0, 500);
  EXPECT_NE(big.error().message.find("a' is not an architecture-specific target"), std::string::npos)
      << big.error().message.substr(0, 500);
}

TEST_F(LibraryFixture, ProfilerSignalsPutTheStrategiesThatAddressThemFirst) {
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  auto names = [](std::vector<LibraryStrategy const*> const& list) {
    std::vector<std::string> out;
    out.reserve(list.size());
    for (auto const* s : list) out.push_back(s->name);
    return out;
  };
  EXPECT_EQ(names(choose_strategies(*library, task, 90)),
            (std::vector<std::string>{"plain_map2", "needs_hopper"}));
  EXPECT_EQ(names(choose_strategies(*library, task, 90, {"latency_bound"})),
            (std::vector<std::string>{"needs_hopper", "plain_map2"}));
  EXPECT_EQ(names(choose_strategies(*library, task, 80)), (std::vector<std::string>{"plain_map2"}));
}

TEST_F(LibraryFixture, TheLibraryIsFoundExplicitlyOrThroughTheEnvironment) {
  auto found = find_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(*found, fs::absolute(dir.path() / "lib"));
  auto missing = find_strategy_library(dir.path() / "task");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("not a strategy library"), std::string::npos);
  ::setenv("KOPT_STRATEGIES", (dir.path() / "lib").c_str(), 1);
  found = find_strategy_library(std::nullopt);
  ::unsetenv("KOPT_STRATEGIES");
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(*found, fs::absolute(dir.path() / "lib"));
}

}  // namespace strategy_library_test
}  // namespace kopt
