// parse_redis_url: the queue address as users write it, and errors that say what is wrong.
#include <gtest/gtest.h>

#include "kopt/farm.hpp"

namespace kopt::farm {
namespace redis_url_test {

TEST(RedisUrl, ReadsHostPortUserAndPassword) {
  auto plain = parse_redis_url("redis://gpu-head");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_EQ(plain->host, "gpu-head");
  EXPECT_EQ(plain->port, 6379);
  EXPECT_TRUE(plain->password.empty());
  auto full = parse_redis_url("redis://kopt:p%40ss:word@10.0.0.7:7000/0");
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_EQ(full->user, "kopt");
  EXPECT_EQ(full->password, "p%40ss:word");
  EXPECT_EQ(full->host, "10.0.0.7");
  EXPECT_EQ(full->port, 7000);
  EXPECT_EQ(full->describe(), "redis://kopt@10.0.0.7:7000") << "no password in what is shown";
  auto password_only = parse_redis_url("redis://:secret@localhost:6380");
  ASSERT_TRUE(password_only.ok());
  EXPECT_TRUE(password_only->user.empty());
  EXPECT_EQ(password_only->password, "secret");
  auto ipv6 = parse_redis_url("redis://[::1]:6390");
  ASSERT_TRUE(ipv6.ok()) << ipv6.error().message;
  EXPECT_EQ(ipv6->host, "::1");
  EXPECT_EQ(ipv6->describe(), "redis://[::1]:6390");
}

TEST(RedisUrl, RefusesWhatItCannotUseAndSaysWhy) {
  auto says = [](char const* url, char const* what) {
    auto r = parse_redis_url(url);
    ASSERT_FALSE(r.ok()) << url;
    EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(r.error().message.find(what), std::string::npos) << url << ": " << r.error().message;
  };
  says("http://host", "does not start with redis://");
  says("rediss://host", "TLS");
  says("redis://", "no host");
  says("redis://host:0", "port '0'");
  says("redis://host:65536", "port '65536'");
  says("redis://host:12ab", "port '12ab'");
  says("redis://host:", "port ''");
  says("redis://[::1", "closing ]");
  says("redis://host/3", "database other than 0");
}

}  // namespace redis_url_test
}  // namespace kopt::farm
