// The fixture of the farm's tests: a redis-server of the test's own (redis_server.hpp), started in SetUp
// (SKIPPED without redis-server), and a queue connection to it.
#pragma once

#include <gtest/gtest.h>

#include <optional>

#include "kopt/farm.hpp"
#include "redis_server.hpp"
#include "support/temp_dir.hpp"

namespace kopt::test {

// A test with a redis-server of its own, started in SetUp (SKIPPED without redis-server), and a queue
// connection to it.
class RedisQueueTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto reason = RedisServer::unavailable(); !reason.empty()) GTEST_SKIP() << reason;
    server_.emplace(dir_.path());
    auto started = server_->start();
    ASSERT_TRUE(started.ok()) << started.error().message;
  }
  farm::JobQueue connect_queue() {
    auto q = farm::JobQueue::connect(server_->endpoint(), farm::QueueNames{});
    EXPECT_TRUE(q.ok()) << q.error().message;
    return std::move(*q);
  }
  TempDir dir_;
  std::optional<RedisServer> server_;
};

}  // namespace kopt::test
