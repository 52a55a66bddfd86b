// parse_redis_url and RedisEndpoint::describe: the farm's address as users write it.
#include <charconv>
#include <string>

#include "kopt/farm.hpp"

namespace kopt::farm {

std::string RedisEndpoint::describe() const {
  std::string out = "redis://";
  if (!user.empty()) out += user + "@";
  bool const ipv6 = host.find(':') != std::string::npos;
  out += ipv6 ? "[" + host + "]" : host;
  return out + ":" + std::to_string(port);
}

Result<RedisEndpoint> parse_redis_url(std::string_view url) {
  auto bad = [&](std::string const& what) {
    return make_error(ErrorCode::invalid_argument,
                      "queue URL: " + what + " (expected redis://[[user][:password]@]host[:port])");
  };
  constexpr std::string_view scheme = "redis://";
  if (!url.starts_with(scheme)) {
    return bad(url.starts_with("rediss://") ? "TLS (rediss://) is not supported by this build's hiredis"
                                            : "it does not start with redis://");
  }
  std::string_view rest = url.substr(scheme.size());
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    if (rest.substr(slash) != "/" && rest.substr(slash) != "/0") return bad("a database other than 0");
    rest = rest.substr(0, slash);
  }
  RedisEndpoint endpoint;
  if (auto at = rest.rfind('@'); at != std::string_view::npos) {
    std::string_view credentials = rest.substr(0, at);
    rest = rest.substr(at + 1);
    auto colon = credentials.find(':');
    endpoint.user = std::string(credentials.substr(0, colon));
    if (colon != std::string_view::npos) endpoint.password = std::string(credentials.substr(colon + 1));
  }
  std::string_view port;
  if (rest.starts_with("[")) {
    auto close = rest.find(']');
    if (close == std::string_view::npos) return bad("an IPv6 host without its closing ]");
    endpoint.host = std::string(rest.substr(1, close - 1));
    rest = rest.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(":")) return bad("text after the IPv6 host");
    if (!rest.empty()) port = rest.substr(1);
  } else {
    auto colon = rest.find(':');
    endpoint.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) port = rest.substr(colon + 1);
  }
  if (endpoint.host.empty()) return bad("no host");
  if (!port.empty() || rest.ends_with(":")) {
    int value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535) {
      return bad("port '" + std::string(port) + "' is not a number from 1 to 65535");
    }
    endpoint.port = value;
  }
  return endpoint;
}

}  // namespace kopt::farm
