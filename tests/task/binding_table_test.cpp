// add_binding_entries: `kopt strategies TASK --write-binding` adds roles to task.toml's [binding] table and
// leaves everything else as written.
#include <gtest/gtest.h>

#include "kopt/task.hpp"

namespace kopt {
namespace binding_table_test {

std::string const kTask = R"(name = "add"  # a comment kept
[entry]
signature = 'void add(const float* x, const float* y, float* z, int n)'
)";

TEST(BindingTable, CreatedAtTheEndWhenTheTaskHasNone) {
  auto edit = add_binding_entries(kTask, {{"c", "z"}, {"a", "y"}, {"n", "n"}, {"s", "0.5"}, {"m", "n / 2"}},
                                  "verified on the GPU");
  ASSERT_TRUE(edit) << edit.error().message;
  EXPECT_EQ(edit->text, kTask +
                            "\n[binding]  # verified on the GPU\na = \"y\"\nc = \"z\"\nm = \"n / 2\"\n"
                            "n = \"n\"\ns = 0.5\n");
  EXPECT_EQ(edit->written.size(), 5u);
  EXPECT_TRUE(edit->kept.empty());
}

TEST(BindingTable, AnExistingTableKeepsItsRolesAndGainsTheOthers) {
  std::string const text = kTask + "\n[binding]   # pinned by hand\nc = \"z\"\n\n[work]\nbytes = \"12*n\"\n";
  auto edit = add_binding_entries(text, {{"c", "x"}, {"a", "y"}}, "kopt");
  ASSERT_TRUE(edit) << edit.error().message;
  EXPECT_EQ(edit->kept, std::vector<std::string>{"c"});
  EXPECT_EQ(edit->written, std::vector<std::string>{"a = \"y\""});
  EXPECT_NE(edit->text.find("[binding]   # pinned by hand\n# kopt\na = \"y\"\nc = \"z\"\n\n[work]"),
            std::string::npos)
      << edit->text;

  auto nothing = add_binding_entries(text, {{"c", "z"}}, "kopt");
  ASSERT_TRUE(nothing);
  EXPECT_EQ(nothing->text, text);
  EXPECT_TRUE(nothing->written.empty());
}

TEST(BindingTable, RefusesWhatItCannotEditSafely) {
  auto not_toml = add_binding_entries("name = [", {{"a", "x"}}, "kopt");
  ASSERT_FALSE(not_toml);
  EXPECT_NE(not_toml.error().message.find("not valid TOML"), std::string::npos);
  auto inline_table = add_binding_entries("binding = { c = \"z\" }\n" + kTask, {{"a", "x"}}, "kopt");
  ASSERT_FALSE(inline_table);
  EXPECT_NE(inline_table.error().message.find("other than as a [binding] table"), std::string::npos);
}

}  // namespace binding_table_test
}  // namespace kopt
