// One connection to a Redis server through hiredis (synchronous, one command at a time): RAII over
// redisContext, every reply converted into a RedisValue before hiredis's reply is freed.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kopt/farm.hpp"
#include "kopt/result.hpp"

struct redisContext;

namespace kopt::farm {

// A Redis reply as a value: nil, an integer, a (bulk or status) string, or an array of replies. Error replies
// are never values: command() returns them as errors.
struct RedisValue {
  enum class Kind { nil, integer, text, array };
  Kind kind = Kind::nil;
  std::int64_t integer = 0;
  std::string text;
  std::vector<RedisValue> elements;

  bool is_nil() const noexcept { return kind == Kind::nil; }
};

class RedisConnection {
 public:
  // Connects within `timeout`, uses it as the socket timeout of every later command, and sends AUTH when
  // the endpoint has a password. Error io_error naming the endpoint (without the password).
  static Result<RedisConnection> open(RedisEndpoint const& endpoint, std::chrono::milliseconds timeout);
  RedisConnection(RedisConnection&&) noexcept = default;
  RedisConnection& operator=(RedisConnection&&) noexcept = default;
  RedisConnection(RedisConnection const&) = delete;
  RedisConnection& operator=(RedisConnection const&) = delete;
  ~RedisConnection() = default;

  // Sends one command (argv: binary-safe arguments) and returns its reply. An error reply is an io_error
  // whose message starts with Redis's own ("NOGROUP ...", "BUSYGROUP ..."); a lost connection is an
  // io_error too, after which the connection is unusable.
  Result<RedisValue> command(std::vector<std::string> const& argv);
  // Sends every command, then reads every reply (one round trip for all of them): each reply, or its
  // error reply as an error; the outer error is a lost connection.
  Result<std::vector<Result<RedisValue>>> pipeline(std::vector<std::vector<std::string>> const& commands);
  // The socket timeout of later commands (a blocking read needs more than its BLOCK time).
  Status set_timeout(std::chrono::milliseconds timeout);

  std::string const& describe() const noexcept { return where_; }

 private:
  // hiredis's reply (freed here) as a value, or its error reply as an error.
  static Result<RedisValue> reply_value(void* raw);
  struct ContextFree {
    void operator()(redisContext* context) const noexcept;
  };
  RedisConnection(std::unique_ptr<redisContext, ContextFree> context, std::string where)
      : context_(std::move(context)), where_(std::move(where)) {}
  std::unique_ptr<redisContext, ContextFree> context_;
  std::string where_;
};

}  // namespace kopt::farm
