// The compile-server protocol (src/compile/compile_json.hpp): a request line as kopt-compile reads it
// (parse_server_request, server_request_id) and a reply line as kopt reads it (parse_server_reply); a reply
// that parses is written again (server_reply_line: never throws). Seeds: the protocol lines of
// docs/compile.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "compile/compile_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  namespace d = kopt::detail;
  std::string_view const line(reinterpret_cast<char const*>(data), size);
  (void)d::parse_server_request(line);
  (void)d::server_request_id(line);
  if (auto reply = d::parse_server_reply(line)) (void)d::server_reply_line(*reply);
  return 0;
}
