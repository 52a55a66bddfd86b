// A redis-server for the farm's tests and bench/farm_overhead.cpp: started on a free loopback port with its
// append-only file (fsync on every write unless told otherwise) in a folder of the caller's, killed with
// SIGKILL (what a crash does) and restarted on the same port and folder. Tests without redis-server on PATH
// report SKIPPED (scripts/setup.sh installs it); redis_queue_test.hpp is their fixture.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "farm/redis_connection.hpp"
#include "kopt/child_process.hpp"
#include "kopt/farm.hpp"
#include "kopt/toolchain.hpp"

namespace kopt::test {

// A TCP port nobody listens on right now (the kernel's choice for port 0).
inline int free_loopback_port() {
  int const fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
    port = ntohs(address.sin_port);
  ::close(fd);
  return port;
}

class RedisServer {
 public:
  // Empty with a reason when there is no redis-server; the caller skips.
  static std::string unavailable() {
    return find_program("redis-server") ? std::string() : "redis-server is not installed (scripts/setup.sh)";
  }

  // `extra`: more redis-server options, e.g. {"--requirepass", "..."}.
  explicit RedisServer(std::filesystem::path dir, std::vector<std::string> extra = {})
      : dir_(std::move(dir)), extra_(std::move(extra)), port_(free_loopback_port()) {}
  ~RedisServer() { stop(); }
  RedisServer(RedisServer const&) = delete;
  RedisServer& operator=(RedisServer const&) = delete;

  farm::RedisEndpoint endpoint() const {
    farm::RedisEndpoint e;
    e.port = port_;
    return e;
  }

  // Starts it and waits (up to 10 s) until it answers PING.
  Status start() {
    auto program = find_program("redis-server");
    if (!program) return make_error(ErrorCode::not_found, unavailable());
    ProcessSpec spec;
    spec.argv = {program->string(),
                 "--port",
                 std::to_string(port_),
                 "--bind",
                 "127.0.0.1",
                 "--dir",
                 dir_.string(),
                 "--appendonly",
                 "yes",
                 "--appendfsync",
                 "always",
                 "--save",
                 "",
                 "--logfile",
                 (dir_ / "redis.log").string(),
                 "--daemonize",
                 "no"};
    spec.argv.insert(spec.argv.end(), extra_.begin(), extra_.end());
    auto child = ChildProcess::spawn(spec);
    if (!child) return child.error();
    process_ = std::move(*child);
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      if (auto redis = farm::RedisConnection::open(endpoint(), std::chrono::milliseconds(200))) {
        auto pong = redis->command({"PING"});
        if (pong || pong.error().message.starts_with("NOAUTH")) return Ok{};  // up, and wants a password
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return make_error(ErrorCode::io_error, "redis-server did not answer on port " + std::to_string(port_));
  }

  // SIGKILL, as a crash would.
  void stop() {
    if (process_.running()) (void)process_.kill_and_wait();
  }

 private:
  std::filesystem::path dir_;
  std::vector<std::string> extra_;
  int port_;
  ChildProcess process_;
};

}  // namespace kopt::test
