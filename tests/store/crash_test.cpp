// Crash safety and bad files: kill -9 in the middle of writes, random bytes, damaged rows.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <random>
#include <thread>
#include <vector>

#include "kopt/store.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace crash_test {

using test::sample_candidate;
using test::sample_evaluation;
using test::sample_run;

EvaluationRecord numbered_evaluation(int i) {
  EvaluationRecord evaluation = sample_evaluation(1.0 + i / 1000.0);
  evaluation.message = "trial " + std::to_string(i);
  evaluation.sizes = nlohmann::json::array({{{"size", "n"},
                                             {"median_us", i},
                                             {"iqr_us", 0.5},
                                             {"padding", std::string(2000, 'x')}}});  // spans pages
  return evaluation;
}

// The child: writes evaluations until killed, reporting each committed index on `fd`.
[[noreturn]] void write_until_killed(std::filesystem::path const& path, CandidateId candidate, int fd) {
  auto store = Store::open(path);
  if (!store) _exit(2);
  for (int i = 0;; ++i) {
    if (!store->add_evaluation(candidate, numbered_evaluation(i))) _exit(3);
    if (write(fd, &i, sizeof i) != static_cast<ssize_t>(sizeof i)) _exit(4);
  }
}

TEST(StoreCrash, KillNineLosesAtMostTheEvaluationInFlight) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  RunId run;
  CandidateId candidate;
  {
    auto store = Store::open(path);
    ASSERT_TRUE(store) << store.error().message;
    auto created = store->create_run(sample_run());
    ASSERT_TRUE(created);
    run = *created;
    auto added = store->add_candidate(run, sample_candidate("k"));
    ASSERT_TRUE(added);
    candidate = *added;
  }
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t const child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    write_until_killed(path, candidate, fds[1]);
  }
  close(fds[1]);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int wait_status = 0;
  ASSERT_EQ(waitpid(child, &wait_status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(wait_status)) << "the writer exited early with " << WEXITSTATUS(wait_status);
  std::vector<int> reported;
  int index = 0;
  while (read(fds[0], &index, sizeof index) == static_cast<ssize_t>(sizeof index)) reported.push_back(index);
  close(fds[0]);
  ASSERT_GT(reported.size(), 3u) << "the writer committed too little in 200 ms to test anything";

  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  auto integrity = store->check_integrity();
  EXPECT_TRUE(integrity) << integrity.error().message;
  auto history = store->load_run(run);
  ASSERT_TRUE(history) << history.error().message;
  auto const& stored = history->evaluations;
  // Everything reported as committed is there; at most the one in flight (committed, not yet
  // reported) is there besides.
  ASSERT_GE(stored.size(), reported.size());
  EXPECT_LE(stored.size(), reported.size() + 1);
  for (std::size_t i = 0; i < stored.size(); ++i) {
    auto const expected = numbered_evaluation(static_cast<int>(i));
    EXPECT_EQ(stored[i].evaluation.message, expected.message);
    EXPECT_EQ(stored[i].evaluation.sizes, expected.sizes);
    EXPECT_EQ(stored[i].evaluation.geomean_speedup, expected.geomean_speedup);
  }
  // The store is writable again after recovery.
  EXPECT_TRUE(store->add_evaluation(candidate, numbered_evaluation(-1)));
}

TEST(StoreBadFiles, RandomBytesAreAnErrorNamingThePath) {
  test::TempDir dir;
  auto path = dir.path() / "garbage.db";
  {
    std::mt19937 random(1234);
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 8192; ++i) out.put(static_cast<char>(random() & 0xFF));
  }
  auto store = Store::open(path);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::io_error);
  EXPECT_NE(store.error().message.find(path.string()), std::string::npos) << store.error().message;
  EXPECT_NE(store.error().message.find("not a database"), std::string::npos) << store.error().message;
}

TEST(StoreBadFiles, TextFileIsAnErrorNamingThePath) {
  test::TempDir dir;
  auto path = dir.path() / "notes.txt";
  std::ofstream(path) << "these are not the tables you are looking for\n";
  auto store = Store::open(path);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find(path.string()), std::string::npos) << store.error().message;
}

TEST(StoreBadFiles, DirectoryAndUncreatableParentAreErrors) {
  test::TempDir dir;
  auto as_directory = Store::open(dir.path());
  ASSERT_FALSE(as_directory);
  EXPECT_NE(as_directory.error().message.find(dir.path().string()), std::string::npos);
  std::ofstream(dir.path() / "file").close();
  auto under_file = Store::open(dir.path() / "file" / "kopt.db");
  ASSERT_FALSE(under_file);
  EXPECT_NE(under_file.error().message.find("cannot create directory"), std::string::npos)
      << under_file.error().message;
  auto empty = Store::open("");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, ErrorCode::invalid_argument);
}

TEST(StoreBadFiles, DamagedRowsAreErrorsNamingTableRowAndColumn) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  RunId run;
  {
    auto store = Store::open(path);
    ASSERT_TRUE(store);
    auto created = store->create_run(sample_run());
    ASSERT_TRUE(created);
    run = *created;
    auto candidate = store->add_candidate(run, sample_candidate("k"));
    ASSERT_TRUE(candidate);
    ASSERT_TRUE(store->add_evaluation(*candidate, sample_evaluation()));
  }
  test::raw_exec(path, "UPDATE evaluations SET sizes = '{not json'");
  auto store = Store::open(path);
  ASSERT_TRUE(store);
  auto history = store->load_run(run);
  ASSERT_FALSE(history);
  auto const& message = history.error().message;
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
  EXPECT_NE(message.find("table evaluations, row 1, column sizes"), std::string::npos) << message;

  test::raw_exec(path, "UPDATE evaluations SET sizes = '[]', status = 'fantastic'");
  auto bad_status = store->find_evaluation_by_key(CandidateKey("k"), "GPU-1111", "13.0");
  ASSERT_FALSE(bad_status);
  EXPECT_NE(bad_status.error().message.find("'fantastic' is not a candidate status"), std::string::npos)
      << bad_status.error().message;
}

}  // namespace crash_test
}  // namespace kopt
