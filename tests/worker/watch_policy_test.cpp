// The watch's judgement of paths (src/worker/gpu/watch_policy.*): the same folders as the Landlock
// rules, on paths resolved as the kernel would resolve them. No seccomp and no GPU here.
#include "worker/gpu/watch_policy.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "support/temp_dir.hpp"

namespace kopt::worker {
namespace watch_policy_test {

using kopt::test::TempDir;

class WatchPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (char const* name : {"scratch", "task", "home"})
      std::filesystem::create_directories(root_.path() / name);
    std::ofstream(root_.path() / "task" / "task.toml") << "name = \"t\"\n";
    std::ofstream(root_.path() / "home" / "secret.txt") << "key";
    std::filesystem::create_symlink(root_.path() / "home", root_.path() / "scratch" / "escape");
    WatchPolicy raw;
    raw.scratch = root_.path() / "scratch";
    raw.readable = {root_.path() / "task", root_.path() / "no-such-folder"};
    std::filesystem::create_directories(root_.path() / "dev-caps");
    std::ofstream(root_.path() / "dev-caps" / "cap1") << "";
    raw.devices = {"/dev/null", root_.path() / "dev-caps"};
    raw.process_id = static_cast<int>(::getpid());
    policy_ = resolved(raw);
  }
  std::filesystem::path at(char const* rest) const { return std::filesystem::canonical(root_.path()) / rest; }

  TempDir root_;
  WatchPolicy policy_;
};

TEST_F(WatchPolicyTest, TextFormRoundTrips) {
  auto back = watch_policy_from_text(to_text(policy_));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->scratch, policy_.scratch);
  EXPECT_EQ(back->readable, policy_.readable);
  EXPECT_EQ(back->devices, policy_.devices);
  EXPECT_EQ(back->forbidden, policy_.forbidden);
  EXPECT_EQ(back->process_id, policy_.process_id);
  EXPECT_FALSE(watch_policy_from_text("scratch /tmp\n").ok()) << "no pid line";
  EXPECT_FALSE(watch_policy_from_text("pid 1\nwrite /tmp\n").ok()) << "unknown kind";
  EXPECT_FALSE(watch_policy_from_text("pid 1\nread\n").ok()) << "no value";
}

TEST_F(WatchPolicyTest, DropsFoldersThatDoNotExist) {
  EXPECT_EQ(policy_.readable.size(), 1u);
}

TEST_F(WatchPolicyTest, WritesOnlyBeneathTheScratchFolderAndToDevices) {
  EXPECT_FALSE(judge(policy_, at("scratch/new.bin"), PathIntent::write, PathUse::create).violation);
  EXPECT_FALSE(judge(policy_, "/dev/null", PathIntent::write, PathUse::existing).violation);
  // A device folder (/dev/nvidia-caps, which NVML opens files in) covers the files beneath it.
  EXPECT_FALSE(judge(policy_, at("dev-caps/cap1"), PathIntent::read, PathUse::existing).violation);
  EXPECT_FALSE(judge(policy_, at("dev-caps/cap1"), PathIntent::write, PathUse::existing).violation);
  auto const task = judge(policy_, at("task/task.toml"), PathIntent::write, PathUse::existing);
  EXPECT_TRUE(task.violation);
  EXPECT_EQ(task.reason, "write outside the scratch folder: " + at("task/task.toml").string());
  EXPECT_TRUE(judge(policy_, at("home/planted"), PathIntent::write, PathUse::create).violation);
  // A sibling whose name starts like the scratch folder's is not beneath it.
  std::filesystem::create_directories(root_.path() / "scratch2");
  EXPECT_TRUE(judge(policy_, at("scratch2/x"), PathIntent::write, PathUse::create).violation);
}

TEST_F(WatchPolicyTest, ReadsBeneathReadableFoldersOnly) {
  EXPECT_FALSE(judge(policy_, at("task/task.toml"), PathIntent::read, PathUse::existing).violation);
  EXPECT_FALSE(judge(policy_, at("scratch"), PathIntent::read, PathUse::existing).violation);
  auto const secret = judge(policy_, at("home/secret.txt"), PathIntent::read, PathUse::existing);
  EXPECT_TRUE(secret.violation);
  EXPECT_EQ(secret.reason, "read outside the readable folders: " + at("home/secret.txt").string());
}

// A PyTorch task's reference runtime (docs/pytorch.md) sits beneath a readable folder (/opt, /usr) and is
// still refused: a candidate that loads libtorch would not be a kernel.
TEST_F(WatchPolicyTest, AForbiddenFolderIsRefusedEvenBeneathAReadableOne) {
  std::filesystem::create_directories(root_.path() / "task" / "torch" / "lib");
  std::ofstream(root_.path() / "task" / "torch" / "lib" / "libtorch_cpu.so") << "";
  WatchPolicy raw = policy_;
  raw.forbidden = {root_.path() / "task" / "torch"};
  WatchPolicy const policy = resolved(raw);
  ASSERT_EQ(policy.forbidden.size(), 1u);
  auto const judged =
      judge(policy, at("task/torch/lib/libtorch_cpu.so"), PathIntent::read, PathUse::existing);
  EXPECT_TRUE(judged.violation);
  EXPECT_NE(judged.reason.find("calling back into PyTorch"), std::string::npos) << judged.reason;
  EXPECT_FALSE(judge(policy, at("task/task.toml"), PathIntent::read, PathUse::existing).violation);
  auto const back = watch_policy_from_text(to_text(policy));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->forbidden, policy.forbidden);
}

TEST_F(WatchPolicyTest, WhatCouldNotBeReachedIsNoViolation) {
  // ENOENT whatever the rules: a missing file, a file in a missing folder.
  EXPECT_FALSE(judge(policy_, at("home/no-such-file"), PathIntent::read, PathUse::existing).violation);
  EXPECT_FALSE(judge(policy_, at("home/no-such-folder/x"), PathIntent::write, PathUse::create).violation);
  EXPECT_TRUE(judge(policy_, at("home/new-file"), PathIntent::write, PathUse::create).violation);
  // EEXIST whatever the rules: mkdir of a folder that is there (CUDA's libraries do `mkdir /tmp`).
  EXPECT_FALSE(judge(policy_, at("home"), PathIntent::write, PathUse::exclusive).violation);
  EXPECT_TRUE(judge(policy_, at("home/new-folder"), PathIntent::write, PathUse::exclusive).violation);
  // Opening a file that is there with O_CREAT (no O_EXCL) opens it for writing.
  EXPECT_TRUE(judge(policy_, at("home/secret.txt"), PathIntent::write, PathUse::create).violation);
}

TEST_F(WatchPolicyTest, ResolvesRelativePathsLinksAndProcSelf) {
  int const pid = policy_.process_id;
  EXPECT_EQ(resolve_path("../home/secret.txt", at("scratch"), pid, pid), at("home/secret.txt"));
  EXPECT_EQ(resolve_path("escape/secret.txt", at("scratch"), pid, pid), at("home/secret.txt"))
      << "a link made in the scratch folder is followed";
  std::string const proc = "/proc/" + std::to_string(pid);
  EXPECT_EQ(resolve_path("/proc/self/status", "/", pid, pid), std::filesystem::path(proc + "/status"));
  EXPECT_EQ(resolve_path("/proc/thread-self/comm", "/", pid, pid + 1),
            std::filesystem::path(proc + "/task/" + std::to_string(pid + 1) + "/comm"));
  EXPECT_EQ(resolve_path("/proc/selfish", "/", pid, pid), std::filesystem::path("/proc/selfish"));
}

}  // namespace watch_policy_test
}  // namespace kopt::worker
