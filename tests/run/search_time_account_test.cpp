// SearchTimeAccount: the phases of every fresh evaluation summed, and the account as JSON and as a line.
#include "kopt/search_time_account.hpp"

#include <gtest/gtest.h>

namespace kopt {
namespace search_time_account_test {

PhaseTimes phases() {
  PhaseTimes p;
  p.compile_ms = 300.0;
  p.compile_wait_ms = 20.0;
  p.worker_ms = 6.0;
  p.load_ms = 0.25;
  p.verify_ms = 4.0;
  p.time_ms = 1.5;
  return p;
}

TEST(SearchTimeAccount, SumsThePhasesOfEveryEvaluation) {
  SearchTimeAccount account;
  PhaseTimes first = phases();
  first.trusted_build_ms = 400.0;
  account.add(first);
  account.add(phases());
  EXPECT_EQ(account.evaluations, 2u);
  EXPECT_DOUBLE_EQ(account.compile_cpu_ms, 600.0);
  EXPECT_DOUBLE_EQ(account.compile_wait_ms, 40.0);
  EXPECT_DOUBLE_EQ(account.worker_ms, 12.0);
  EXPECT_DOUBLE_EQ(account.verify_ms, 8.0);
  EXPECT_DOUBLE_EQ(account.trusted_build_ms, 400.0);

  auto const json = search_time_to_json(account, 0.1);
  EXPECT_DOUBLE_EQ(json.at("search_ms").get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(json.at("kopt_ms").get<double>(), 0.0) << "100 ms less 40 + 12 + 400 is nothing left";
  EXPECT_DOUBLE_EQ(search_time_to_json(account, 1.0).at("kopt_ms").get<double>(),
                   1000.0 - 40.0 - 12.0 - 400.0);
  EXPECT_DOUBLE_EQ(json.at("worker_ms_per_evaluation").get<double>(), 6.0);
  std::string const line = search_time_line(account, 0.1);
  EXPECT_NE(line.find("worker 12"), std::string::npos) << line;
  EXPECT_NE(line.find("waiting for compiles 40"), std::string::npos) << line;
}

TEST(SearchTimeAccount, NamesTheSetupBesideTheSearch) {
  SearchTimeAccount account;
  account.add(phases());
  EXPECT_EQ(search_time_line(account, 1.0).find("before the search"), std::string::npos)
      << "no setup, no mention";
  EXPECT_EQ(search_time_line(account, 1.0).find("building the reference"), std::string::npos);
  account.setup_ms = 1500.0;
  std::string const line = search_time_line(account, 1.0);
  EXPECT_NE(line.find("the reference was built before the search in 1.50 s"), std::string::npos) << line;
  EXPECT_DOUBLE_EQ(search_time_to_json(account, 1.0).at("setup_ms").get<double>(), 1500.0);
  EXPECT_DOUBLE_EQ(search_time_to_json(account, 1.0).at("search_ms").get<double>(), 1000.0)
      << "the setup is not in the search's time";
}

TEST(SearchTimeAccount, CountsThePyTorchReferenceApartFromKopt) {
  SearchTimeAccount account;
  PhaseTimes first = phases();
  first.reference_ms = 250.0;  // a PyTorch task: the reference process's outputs and timings
  account.add(first);
  account.add(phases());
  EXPECT_DOUBLE_EQ(account.reference_ms, 250.0);
  auto const json = search_time_to_json(account, 1.0);
  EXPECT_DOUBLE_EQ(json.at("reference_ms").get<double>(), 250.0);
  EXPECT_DOUBLE_EQ(json.at("kopt_ms").get<double>(), 1000.0 - 40.0 - 12.0 - 250.0)
      << "the reference process's work is not kopt's";
  std::string const line = search_time_line(account, 1.0);
  EXPECT_NE(line.find("the PyTorch reference 250"), std::string::npos) << line;
  SearchTimeAccount cuda;
  cuda.add(phases());
  EXPECT_EQ(search_time_line(cuda, 1.0).find("PyTorch"), std::string::npos) << "a CUDA task names no PyTorch";
}

TEST(SearchTimeAccount, SaysNothingWithoutEvaluations) {
  SearchTimeAccount const account;
  EXPECT_EQ(search_time_line(account, 1.0), "");
  EXPECT_TRUE(search_time_to_json(account, 1.0).at("worker_ms_per_evaluation").is_null());
}

}  // namespace search_time_account_test
}  // namespace kopt
