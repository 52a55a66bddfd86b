// RedisConnection: hiredis's synchronous API behind a value-returning command().
#include "farm/redis_connection.hpp"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <utility>

namespace kopt::farm {
namespace {

timeval to_timeval(std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<decltype(tv.tv_sec)>(timeout.count() / 1000);
  tv.tv_usec = static_cast<decltype(tv.tv_usec)>((timeout.count() % 1000) * 1000);
  return tv;
}

RedisValue to_value(redisReply const& reply) {
  RedisValue value;
  switch (reply.type) {
    case REDIS_REPLY_INTEGER:
      value.kind = RedisValue::Kind::integer;
      value.integer = reply.integer;
      break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
      value.kind = RedisValue::Kind::text;
      value.text.assign(reply.str, reply.len);
      break;
    case REDIS_REPLY_ARRAY:
      value.kind = RedisValue::Kind::array;
      value.elements.reserve(reply.elements);
      for (std::size_t i = 0; i < reply.elements; ++i) value.elements.push_back(to_value(*reply.element[i]));
      break;
    default:  // REDIS_REPLY_NIL (errors are handled by the caller)
      break;
  }
  return value;
}

}  // namespace

void RedisConnection::ContextFree::operator()(redisContext* context) const noexcept {
  redisFree(context);
}

Result<RedisConnection> RedisConnection::open(RedisEndpoint const& endpoint,
                                              std::chrono::milliseconds timeout) {
  std::string const where = endpoint.describe();
  std::unique_ptr<redisContext, ContextFree> context(
      redisConnectWithTimeout(endpoint.host.c_str(), endpoint.port, to_timeval(timeout)));
  if (!context) return make_error(ErrorCode::io_error, where + ": cannot allocate a Redis connection");
  if (context->err != 0) {
    return make_error(ErrorCode::io_error, where + ": cannot connect: " + std::string(context->errstr));
  }
  RedisConnection connection(std::move(context), where);
  if (auto st = connection.set_timeout(timeout); !st) return st.error();
  if (!endpoint.password.empty()) {
    std::vector<std::string> auth{"AUTH"};
    if (!endpoint.user.empty()) auth.push_back(endpoint.user);
    auth.push_back(endpoint.password);
    if (auto reply = connection.command(auth); !reply) {
      return make_error(ErrorCode::io_error, "authentication refused: " + reply.error().message);
    }
  }
  return connection;
}

Status RedisConnection::set_timeout(std::chrono::milliseconds timeout) {
  if (redisSetTimeout(context_.get(), to_timeval(timeout)) != REDIS_OK) {
    return make_error(ErrorCode::io_error, where_ + ": cannot set the socket timeout");
  }
  return Ok{};
}

Result<RedisValue> RedisConnection::command(std::vector<std::string> const& argv) {
  auto replies = pipeline({argv});
  if (!replies) {
    return make_error(replies.error().code,
                      replies.error().message + (argv.empty() ? "" : " (sending " + argv.front() + ")"));
  }
  return std::move(replies->front());
}

Result<RedisValue> RedisConnection::reply_value(void* raw) {
  std::unique_ptr<redisReply, void (*)(void*)> reply(static_cast<redisReply*>(raw), freeReplyObject);
  if (reply->type == REDIS_REPLY_ERROR) {
    return make_error(ErrorCode::io_error, std::string(reply->str, reply->len));
  }
  return to_value(*reply);
}

Result<std::vector<Result<RedisValue>>> RedisConnection::pipeline(
    std::vector<std::vector<std::string>> const& commands) {
  if (context_->err != 0) {
    return make_error(ErrorCode::io_error, where_ + ": connection lost: " + std::string(context_->errstr));
  }
  for (auto const& argv : commands) {
    std::vector<char const*> args;
    std::vector<std::size_t> lengths;
    for (auto const& a : argv) {
      args.push_back(a.data());
      lengths.push_back(a.size());
    }
    if (redisAppendCommandArgv(context_.get(), static_cast<int>(argv.size()), args.data(), lengths.data()) !=
        REDIS_OK) {
      return make_error(ErrorCode::io_error, where_ + ": " + std::string(context_->errstr));
    }
  }
  std::vector<Result<RedisValue>> replies;
  replies.reserve(commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(context_.get(), &raw) != REDIS_OK || raw == nullptr) {
      return make_error(ErrorCode::io_error, where_ + ": " + std::string(context_->errstr));
    }
    replies.push_back(reply_value(raw));
  }
  return replies;
}

}  // namespace kopt::farm
