// An HTTP server on 127.0.0.1 (a free port) that answers POSTs with scripted replies and injects faults:
// statuses with headers, a stall before the reply, a connection cut in the middle of the body.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace kopt::test {

struct StubReply {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds stall{0};  // send the headers and half the body, then wait this long
  bool cut = false;                    // announce more bytes than are sent, then close
};

struct StubRequest {
  std::string path;
  std::map<std::string, std::string> headers;  // as received (httplib keeps the names case-insensitive)
  std::string body;
  std::string header(std::string const& name) const {
    for (auto const& [key, value] : headers) {
      if (strcasecmp(key.c_str(), name.c_str()) == 0) return value;
    }
    return {};
  }
};

class StubServer {
 public:
  StubServer() {
    server_.Post(".*", [this](httplib::Request const& request, httplib::Response& response) {
      handle(request, response);
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~StubServer() { stop(); }
  StubServer(StubServer const&) = delete;
  StubServer& operator=(StubServer const&) = delete;

  void stop() {
    if (!thread_.joinable()) return;
    stopping_ = true;
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server_.stop();
    thread_.join();
  }

  void script(std::vector<StubReply> replies) {
    std::lock_guard lock(mutex_);
    for (auto& reply : replies) replies_.push_back(std::move(reply));
  }
  int port() const { return port_; }
  std::string url(std::string const& suffix = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + suffix;
  }
  std::vector<StubRequest> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  void handle(httplib::Request const& request, httplib::Response& response) {
    StubReply reply;
    {
      std::lock_guard lock(mutex_);
      StubRequest seen{request.path, {}, request.body};
      for (auto const& [name, value] : request.headers) seen.headers[name] = value;
      requests_.push_back(std::move(seen));
      if (replies_.empty()) {
        reply = StubReply{
            500, R"({"error":{"message":"the stub server has no scripted reply left"}})", {}, {}, false};
      } else {
        reply = std::move(replies_.front());
        replies_.pop_front();
      }
    }
    response.status = reply.status;
    for (auto const& [name, value] : reply.headers) response.set_header(name, value);
    if (reply.stall.count() > 0) {
      std::string body = reply.body;
      auto const stall = reply.stall;
      response.set_content_provider(
          body.size(), "application/json",
          [this, body, stall](std::size_t offset, std::size_t, httplib::DataSink& sink) {
            std::size_t const half = body.size() / 2;
            if (offset == 0) {
              sink.write(body.data(), half);
              return true;
            }
            auto const until = std::chrono::steady_clock::now() + stall;
            while (!stopping_ && std::chrono::steady_clock::now() < until) {
              std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            sink.write(body.data() + half, body.size() - half);
            return true;
          });
      return;
    }
    if (reply.cut) {
      std::string body = reply.body;
      response.set_content_provider(body.size() + 1000, "application/json",
                                    [body](std::size_t offset, std::size_t, httplib::DataSink& sink) {
                                      if (offset == 0) sink.write(body.data(), body.size());
                                      return offset == 0;  // false: httplib closes the connection
                                    });
      return;
    }
    response.set_content(reply.body, "application/json");
  }

  httplib::Server server_;
  int port_ = -1;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mutex_;
  std::deque<StubReply> replies_;
  std::vector<StubRequest> requests_;
};

}  // namespace kopt::test
