// Configurations: values, environments, keys, flags and neighbours.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kopt/tuning.hpp"

namespace kopt {
namespace configuration_test {

constexpr char kSource[] = R"(// kopt:knob BLOCK = [64, 128, 256]
// kopt:flag MAXRREG = ["", "-maxrregcount=64", "-Xptxas -dlcm=ca"]
// kopt:knob VEC = [1, 2, 4]
)";

TuningSpace space_of(std::string const& source) {
  auto space = TuningSpace::parse(source);
  if (!space) throw std::runtime_error(space.error().message);
  return std::move(*space);
}

TEST(TuningConfiguration, FromNamedValuesAndBack) {
  TuningSpace const space = space_of(kSource);
  auto config = space.configuration({{"BLOCK", "256"}, {"MAXRREG", "-maxrregcount=64"}, {"VEC", "1"}});
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ(config->indices, (std::vector<std::size_t>{2, 1, 0}));
  auto const values = space.values(*config);
  EXPECT_EQ(values.at("BLOCK"), "256");
  EXPECT_EQ(values.at("MAXRREG"), "-maxrregcount=64");
  ScalarEnv const env = space.env(*config);
  EXPECT_EQ(env.at("BLOCK"), 256);
  EXPECT_EQ(env.at("MAXRREG"), 1);  // flag knobs: the value index
  EXPECT_EQ(env.at("VEC"), 1);
}

TEST(TuningConfiguration, RejectsMissingUnknownAndOutOfListValues) {
  TuningSpace const space = space_of(kSource);
  auto missing = space.configuration({{"BLOCK", "64"}, {"MAXRREG", ""}});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("knob VEC: no value given"), std::string::npos)
      << missing.error().message;
  auto bad = space.configuration({{"BLOCK", "96"}, {"MAXRREG", ""}, {"VEC", "1"}, {"TILE", "8"}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("knob BLOCK: \"96\" is not one of its values"), std::string::npos);
  EXPECT_NE(bad.error().message.find("'TILE' is not a knob"), std::string::npos);
  EXPECT_THROW((void)space.env(Configuration{{0, 0}}), std::invalid_argument);
  EXPECT_THROW((void)space.env(Configuration{{0, 3, 0}}), std::invalid_argument);
}

TEST(TuningConfiguration, FlagsAreMacrosThenFlagArguments) {
  TuningSpace const space = space_of(kSource);
  EXPECT_EQ(space.flags(Configuration{{1, 0, 2}}), (std::vector<std::string>{"-DBLOCK=128", "-DVEC=4"}));
  EXPECT_EQ(space.flags(Configuration{{0, 1, 0}}),
            (std::vector<std::string>{"-DBLOCK=64", "-DVEC=1", "-maxrregcount=64"}));
  EXPECT_EQ(space.flags(Configuration{{0, 2, 0}}),
            (std::vector<std::string>{"-DBLOCK=64", "-DVEC=1", "-Xptxas", "-dlcm=ca"}));
}

TEST(TuningConfiguration, KeyIsSortedByNameAndStable) {
  TuningSpace const space = space_of(kSource);
  Configuration const config{{1, 1, 2}};
  EXPECT_EQ(space.config_key(config), "BLOCK=128;MAXRREG=\"-maxrregcount=64\";VEC=4");
  EXPECT_EQ(space.config_key(Configuration{{0, 0, 0}}), "BLOCK=64;MAXRREG=\"\";VEC=1");
  // The same knobs declared in another order give the same key.
  TuningSpace const reordered = space_of(
      "// kopt:knob VEC = [1, 2, 4]\n// kopt:knob BLOCK = [64, 128, 256]\n"
      "// kopt:flag MAXRREG = [\"\", \"-maxrregcount=64\", \"-Xptxas -dlcm=ca\"]\n");
  EXPECT_EQ(reordered.config_key(Configuration{{2, 1, 1}}), space.config_key(config));
  // Every configuration has its own key.
  std::set<std::string> keys;
  for (std::size_t a = 0; a < 3; ++a)
    for (std::size_t b = 0; b < 3; ++b)
      for (std::size_t c = 0; c < 3; ++c) keys.insert(space.config_key(Configuration{{a, b, c}}));
  EXPECT_EQ(keys.size(), 27u);
  EXPECT_EQ(space_of("").config_key(Configuration{}), "");
}

TEST(TuningConfiguration, NeighboursMoveOneKnobOneStep) {
  TuningSpace const space = space_of(kSource);
  std::vector<Configuration> const middle = space.neighbours(Configuration{{1, 1, 1}});
  EXPECT_EQ(middle, (std::vector<Configuration>{Configuration{{0, 1, 1}}, Configuration{{2, 1, 1}},
                                                Configuration{{1, 0, 1}}, Configuration{{1, 2, 1}},
                                                Configuration{{1, 1, 0}}, Configuration{{1, 1, 2}}}));
  std::vector<Configuration> const corner = space.neighbours(Configuration{{0, 2, 0}});
  EXPECT_EQ(corner, (std::vector<Configuration>{Configuration{{1, 2, 0}}, Configuration{{0, 1, 0}},
                                                Configuration{{0, 2, 1}}}));
  TuningSpace const single = space_of("// kopt:knob A = [3]\n");
  EXPECT_TRUE(single.neighbours(Configuration{{0}}).empty());
}

}  // namespace configuration_test
}  // namespace kopt
