#include "llm/http_transport.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>

namespace kopt::llm {
namespace {

constexpr std::size_t kMaxBodyBytes = std::size_t{64} << 20;  // a reply larger than this is cut off

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Sink {
  std::string body;
  std::map<std::string, std::string> headers;
  std::chrono::milliseconds idle{0};
  bool started = false;  // a byte of the reply has arrived
  bool stalled = false;  // the idle timeout fired
  std::chrono::steady_clock::time_point last_byte;
  void saw_bytes() {
    started = true;
    last_byte = std::chrono::steady_clock::now();
  }
};

// The idle-read timeout: once the reply has started, no byte for `idle` aborts. (Before the first byte
// a server without streaming is still generating; the overall timeout bounds that wait.) libcurl's
// low-speed limit averages over several seconds and would let a stall run well past `idle`.
int on_progress(void* user, curl_off_t /*download_total*/, curl_off_t /*downloaded*/,
                curl_off_t /*upload_total*/, curl_off_t /*uploaded*/) {
  auto* sink = static_cast<Sink*>(user);
  if (sink->started && std::chrono::steady_clock::now() - sink->last_byte > sink->idle) {
    sink->stalled = true;
    return 1;  // CURLE_ABORTED_BY_CALLBACK
  }
  return 0;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  std::size_t const bytes = size * count;
  sink->saw_bytes();
  if (sink->body.size() + bytes > kMaxBodyBytes) return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
  sink->body.append(data, bytes);
  return bytes;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  std::size_t const bytes = size * count;
  sink->saw_bytes();
  std::string line(data, bytes);
  if (line.rfind("HTTP/", 0) == 0) sink->headers.clear();  // a new response (after 100 Continue, redirects)
  auto colon = line.find(':');
  if (colon == std::string::npos) return bytes;
  std::string name = line.substr(0, colon);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string value = line.substr(colon + 1);
  auto const first = value.find_first_not_of(" \t");
  auto const last = value.find_last_not_of(" \t\r\n");
  value = first == std::string::npos ? std::string() : value.substr(first, last - first + 1);
  sink->headers[name] = value;
  return bytes;
}

// Loopback never goes through a proxy (tests and local servers); the user's no_proxy is kept.
std::string no_proxy_list() {
  std::string list = "localhost,127.0.0.1,::1";
  for (char const* name : {"no_proxy", "NO_PROXY"}) {
    if (char const* value = std::getenv(name); value != nullptr && *value != '\0') {
      list += ",";
      list += value;
    }
  }
  return list;
}

TransportFailure classify(CURLcode code, bool connected) {
  if (code == CURLE_OPERATION_TIMEDOUT && !connected) return TransportFailure::cannot_connect;
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return TransportFailure::cannot_connect;
    case CURLE_OPERATION_TIMEDOUT: return TransportFailure::timed_out;
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return TransportFailure::connection_cut;
    default: return TransportFailure::other;
  }
}

}  // namespace

std::variant<HttpResponse, TransportError> http_post(HttpPost const& post) {
  global_init();
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return TransportError{TransportFailure::other, "libcurl could not create a handle"};
  curl_slist* raw_headers = nullptr;
  for (auto const& header : post.headers) raw_headers = curl_slist_append(raw_headers, header.c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(raw_headers, &curl_slist_free_all);

  Sink sink;
  sink.idle = post.timeouts.idle;
  char error_buffer[CURL_ERROR_SIZE] = {};
  std::string const no_proxy = no_proxy_list();
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, post.url.c_str());
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, post.body.c_str());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(post.body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &sink);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_NOPROXY, no_proxy.c_str());
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(post.timeouts.connect.count()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(post.timeouts.overall.count()));
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &on_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &sink);

  CURLcode const code = curl_easy_perform(h);
  if (code != CURLE_OK) {
    curl_off_t connect_us = 0;
    curl_easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &connect_us);
    std::string message = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code);
    if (sink.stalled)
      return TransportError{TransportFailure::stalled,
                            "no data for " + std::to_string(post.timeouts.idle.count()) + " ms"};
    return TransportError{classify(code, connect_us > 0), message};
  }
  HttpResponse response;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
  response.headers = std::move(sink.headers);
  response.body = std::move(sink.body);
  return response;
}

}  // namespace kopt::llm
