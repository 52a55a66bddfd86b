#include <gtest/gtest.h>

#include "kopt/search.hpp"
#include "search/search_test_support.hpp"

namespace kopt {
namespace space_test {

TEST(PointIndexing, RoundTripsEveryPointInMixedRadixOrder) {
  std::vector<Dimension> dims = {{"A", 3}, {"B", 2}, {"C", 4}};
  ASSERT_EQ(point_count(dims), 24U);
  EXPECT_EQ(point_at(dims, 0), (Point{0, 0, 0}));
  EXPECT_EQ(point_at(dims, 1), (Point{0, 0, 1}));
  EXPECT_EQ(point_at(dims, 4), (Point{0, 1, 0}));
  EXPECT_EQ(point_at(dims, 23), (Point{2, 1, 3}));
  for (std::uint64_t i = 0; i < 24; ++i) EXPECT_EQ(index_of(dims, point_at(dims, i)), i);
}

TEST(PointIndexing, EmptyOrZeroSizedSpacesHaveNoPoints) {
  EXPECT_EQ(point_count({}), 0U);
  EXPECT_EQ(point_count({{"A", 3}, {"B", 0}}), 0U);
  EXPECT_FALSE(in_range({{"A", 3}}, Point{3}));
  EXPECT_FALSE(in_range({{"A", 3}}, Point{0, 0}));
  EXPECT_FALSE(in_range({{"A", 3}}, Point{-1}));
}

TEST(GridSpace, ActionsMoveOneKnobByOneAndStayInRange) {
  GridSpace space({{"BLOCK", 3}, {"TILE", 2}});
  auto const actions = space.actions({0, 1});
  ASSERT_EQ(actions.size(), 2U);
  EXPECT_EQ(actions[0].name, "BLOCK:+1");
  EXPECT_EQ(actions[0].target, (Point{1, 1}));
  EXPECT_EQ(actions[1].name, "TILE:-1");
  EXPECT_EQ(actions[1].target, (Point{0, 0}));
  EXPECT_EQ(space.actions({1, 0}).size(), 3U);
  EXPECT_TRUE(space.actions({7, 0}).empty());
}

TEST(GridSpace, ConstraintFiltersPointsAndActions) {
  GridSpace space({{"A", 4}, {"B", 4}}, [](Point const& p) { return p[0] + p[1] <= 3; });
  EXPECT_TRUE(space.is_valid({1, 2}));
  EXPECT_FALSE(space.is_valid({2, 2}));
  EXPECT_FALSE(space.is_valid({4, 0}));
  for (auto const& action : space.actions({1, 2})) EXPECT_TRUE(space.is_valid(action.target)) << action.name;
  EXPECT_EQ(space.actions({1, 2}).size(), 2U);  // A:-1 and B:-1 only
}

TEST(GridSpace, StartPointIsReported) {
  GridSpace space({{"A", 4}}, {}, Point{2});
  ASSERT_TRUE(space.start_point().has_value());
  EXPECT_EQ(*space.start_point(), Point{2});
  EXPECT_FALSE(GridSpace({{"A", 4}}).start_point().has_value());
}

TEST(PointText, ListsIndices) {
  EXPECT_EQ(to_string(Point{1, 0, 3}), "[1,0,3]");
}

}  // namespace space_test
}  // namespace kopt
