// The index-type placeholder (docs/strategies.md, "Placeholders"): a contract that names I is enumerated
// for int32 and int64 indices, binds a task of either, and its template's {{I}} is spelled for the
// binding; a task with another index type, or none, does not bind.
#include <gtest/gtest.h>

#include "kopt/compile.hpp"
#include "kopt/propose.hpp"
#include "propose/contract.hpp"
#include "propose/propose_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace index_type_test {

using test::write_file;

std::string const kGather = R"kopt(// kopt:launch grid=({{ARG3}}) block=(32) kernel={{ENTRY}}
extern "C" __global__ void {{ENTRY}}({{T}}* out, const {{T}}* table, const {{I}}* idx, int n, int dim) {
  for (int d = threadIdx.x; d < dim; d += 32) out[blockIdx.x * dim + d] = table[idx[blockIdx.x] * dim + d];
}
)kopt";

std::string const kManifest = R"kopt([[strategy]]
name = "gather"
families = ["gather_rows"]
template = "gather.cu"
signature = "void (T* out, const T* table, const I* idx, int n, int dim)"
lengths = { out = "n*dim", idx = "n" }
description = "x"
applies_when = "y"
)kopt";

// IDX: the index buffer's C type.
std::string const kEmbedding = R"kopt(name = "embedding"
description = "out[i] = table[ids[i]]"
[entry]
signature = 'extern "C" void embedding(const IDX* ids, const float* table, float* out, int tokens, int hidden)'
[buffers.ids]
length = "tokens"
generator = { kind = "int_uniform", low = 0, high = 99 }
[buffers.table]
length = "100*hidden"
[buffers.out]
length = "tokens*hidden"
[[sizes]]
name = "small"
tokens = 7
hidden = 33
[reference]
source = "reference.cu"
)kopt";

struct IndexType : ::testing::Test {
  void SetUp() override {
    write_file(dir.path() / "lib" / "common" / "strategy.cuh", "// common header\n");
    write_file(dir.path() / "lib" / "copy" / "gather.cu", kGather);
    write_file(dir.path() / "lib" / "copy" / "strategies.toml", kManifest);
    write_file(dir.path() / "task" / "reference.cu", "\n");
    auto loaded = load_strategy_library(dir.path() / "lib");
    ASSERT_TRUE(loaded) << loaded.error().message;
    library = *loaded;
  }

  TaskSpec task(std::string const& index_type) {
    std::string toml = kEmbedding;
    toml.replace(toml.find("IDX"), 3, index_type);
    auto parsed = parse_task(toml, dir.path() / "task" / "task.toml", dir.path() / "task");
    EXPECT_TRUE(parsed) << parsed.error().message;
    return parsed ? *parsed : TaskSpec{};
  }

  test::TempDir dir;
  StrategyLibrary library;
};

TEST(IndexTypePlaceholder, IsAWholeWordOfTheSignature) {
  EXPECT_TRUE(has_index_type("void (T* out, const I* idx, int n)"));
  EXPECT_FALSE(has_index_type("void (T* out, const int* idx, int In, int nI)"));
  EXPECT_EQ(with_index_type("void (const I* idx, int In)", "long long"),
            "void (const long long* idx, int In)");
}

TEST_F(IndexType, Int32AndInt64IndicesBothBindAndSpellTheTemplatesType) {
  for (auto const& [c_type, index, spelled] : {std::tuple{"int", DType::i32, "const int* idx"},
                                               std::tuple{"int64_t", DType::i64, "const long long* idx"},
                                               std::tuple{"long long", DType::i64, "const long long* idx"}}) {
    SCOPED_TRACE(c_type);
    TaskSpec const t = task(c_type);
    auto const a = check_applicability(*library.find("gather"), t, 90);
    ASSERT_TRUE(a.applies) << a.reason;
    ASSERT_EQ(a.bindings.size(), 1u);
    ASSERT_TRUE(a.bindings.front().index.has_value());
    EXPECT_EQ(*a.bindings.front().index, index);
    EXPECT_EQ(a.bindings.front().describe(), "out=out, table=table, idx=ids, n=tokens, dim=hidden");
    auto const text = instantiate_strategy(library, *library.find("gather"), t, 90, nullptr);
    ASSERT_TRUE(text) << text.error().message;
    EXPECT_NE(text->find(spelled), std::string::npos) << *text;
    EXPECT_EQ(text->find("{{I}}"), std::string::npos) << *text;
  }
}

TEST_F(IndexType, AnotherIndexTypeDoesNotBindAndSaysWhy) {
  TaskSpec const t = task("short");
  auto const a = check_applicability(*library.find("gather"), t, 90);
  EXPECT_FALSE(a.applies);
  EXPECT_NE(a.reason.find("no parameter of the task fits the role 'idx'"), std::string::npos) << a.reason;
}

TEST_F(IndexType, ATemplateUsingIWithoutItInTheSignatureNamesThePlaceholder) {
  write_file(dir.path() / "lib" / "copy" / "strategies.toml",
             R"kopt([[strategy]]
name = "gather"
families = ["gather_rows"]
template = "gather.cu"
signature = "void (T* out, const T* table, const int* idx, int n, int dim)"
lengths = { out = "n*dim", idx = "n" }
description = "x"
applies_when = "y"
)kopt");
  auto loaded = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(loaded) << loaded.error().message;
  TaskSpec const t = task("int");
  auto const text = instantiate_strategy(*loaded, *loaded->find("gather"), t, 90, nullptr);
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("gather.cu:2: unknown placeholder '{{I}}'"), std::string::npos)
      << text.error().message;
}

}  // namespace index_type_test
}  // namespace kopt
