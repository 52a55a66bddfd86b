// Verified bindings (docs/store.md, "verified_bindings"): a strategy's binding to a task, verified once.
#include <gtest/gtest.h>

#include "kopt/store.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace verified_bindings_test {

VerifiedBinding binding(std::string strategy, std::string contract, std::string describe,
                        nlohmann::json roles) {
  VerifiedBinding b;
  b.task_key = "add:0123456789abcdef";
  b.strategy = std::move(strategy);
  b.contract = std::move(contract);
  b.binding = std::move(describe);
  b.roles = std::move(roles);
  b.task_dir = "/tasks/add";
  return b;
}

TEST(StoreVerifiedBindings, RecordedOncePerTaskStrategyAndContractTheNewestWins) {
  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  std::string const contract = "void (T* c, const T* a, const T* b, int n)";
  ASSERT_TRUE(store->record_verified_binding(
      binding("by_tile", contract, "c=z, a=x, b=y, n=n", {{"c", "z"}, {"a", "x"}, {"b", "y"}, {"n", "n"}})));
  ASSERT_TRUE(store->record_verified_binding(
      binding("by_tile", contract, "c=z, a=y, b=x, n=n", {{"c", "z"}, {"a", "y"}, {"b", "x"}, {"n", "n"}})));
  ASSERT_TRUE(store->record_verified_binding(binding("by_block", contract, "c=z, a=x, b=y, n=(4096)",
                                                     {{"c", "z"}, {"a", "x"}, {"b", "y"}, {"n", "4096"}})));

  auto found = store->verified_bindings("add:0123456789abcdef");
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_EQ(found->size(), 2u) << "one row per (task, strategy, contract)";
  auto const tile =
      std::find_if(found->begin(), found->end(), [](auto const& b) { return b.strategy == "by_tile"; });
  ASSERT_NE(tile, found->end());
  EXPECT_EQ(tile->binding, "c=z, a=y, b=x, n=n");
  EXPECT_EQ(tile->roles.at("a"), "y");
  EXPECT_EQ(tile->contract, contract);
  EXPECT_EQ(tile->task_dir, "/tasks/add");
  EXPECT_FALSE(tile->verified_at.empty());
  EXPECT_TRUE(store->verified_bindings("other:0123456789abcdef")->empty());

  // A half-filled record is refused, naming the store.
  auto refused = store->record_verified_binding(binding("", contract, "", nlohmann::json::array()));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("kopt.db"), std::string::npos) << refused.error().message;
}

}  // namespace verified_bindings_test
}  // namespace kopt
