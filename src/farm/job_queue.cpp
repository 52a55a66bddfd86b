// JobQueue: the farm's job life cycle on Redis Streams (kopt/farm.hpp, docs/distributed.md). The steps that
// must not be split (enqueue once per job id; record a result once, publish it and acknowledge the entry;
// renew a lease only while the entry is still this consumer's) are server-side Lua scripts, so a worker or
// coordinator killed between two commands leaves nothing half done.
#include <cctype>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "farm/redis_connection.hpp"
#include "kopt/farm.hpp"

namespace kopt::farm {
namespace {

// KEYS: job key, jobs stream. ARGV: job id, payload. The entry id, or nil when the job was enqueued before.
constexpr char const* kEnqueue = R"(
if redis.call('SET', KEYS[1], '1', 'NX') then
  return redis.call('XADD', KEYS[2], '*', 'id', ARGV[1], 'payload', ARGV[2])
end
return false
)";

// KEYS: result key, jobs stream, results stream. ARGV: job id, result, group, entry. 1 when recorded now.
constexpr char const* kFinish = R"(
local fresh = redis.call('SET', KEYS[1], ARGV[2], 'NX')
if fresh then redis.call('XADD', KEYS[3], '*', 'id', ARGV[1], 'result', ARGV[2]) end
redis.call('XACK', KEYS[2], ARGV[3], ARGV[4])
if fresh then return 1 end
return 0
)";

// KEYS: jobs stream. ARGV: group, consumer, entry. 1 when the entry was this consumer's and its idle time
// restarted; 0 when it is not (reclaimed by another, or acknowledged).
constexpr char const* kRefresh = R"(
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if #p == 0 or p[1][2] ~= ARGV[2] then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
)";

constexpr auto kCommandMargin = std::chrono::seconds(5);  // socket timeout beyond a blocking read's BLOCK

Error unexpected(std::string const& what) {
  return make_error(ErrorCode::io_error, "unexpected Redis reply to " + what);
}

// A stream entry [id, [field, value, ...]] as a delivery; nullopt for an entry whose fields are gone.
Result<std::optional<Delivery>> delivery_from(RedisValue const& entry, std::string const& what) {
  if (entry.kind != RedisValue::Kind::array || entry.elements.size() < 2) return unexpected(what);
  Delivery d;
  d.entry = entry.elements[0].text;
  auto const& fields = entry.elements[1];
  if (fields.is_nil()) return std::optional<Delivery>();  // deleted from the stream (XAUTOCLAIM reports it)
  if (fields.kind != RedisValue::Kind::array) return unexpected(what);
  for (std::size_t i = 0; i + 1 < fields.elements.size(); i += 2) {
    if (fields.elements[i].text == "id") d.job.id = fields.elements[i + 1].text;
    if (fields.elements[i].text == "payload") d.job.payload = fields.elements[i + 1].text;
  }
  if (d.job.id.empty()) return unexpected(what + " (an entry without a job id)");
  return std::optional<Delivery>(std::move(d));
}

// A decimal integer Redis sent as text (a counter, TIME's fields).
Result<std::int64_t> integer_text(std::string const& text, std::string const& what) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return unexpected(what + " (not an integer)");
  return value;
}

std::string ms_text(std::chrono::milliseconds ms) {
  return std::to_string(ms.count());
}

}  // namespace

struct JobQueue::Impl {
  RedisConnection redis;
  QueueNames names;
  std::chrono::milliseconds timeout;

  Result<RedisValue> run(std::vector<std::string> const& argv) { return redis.command(argv); }
  Result<RedisValue> script(char const* body, std::vector<std::string> keys, std::vector<std::string> args) {
    std::vector<std::string> argv{"EVAL", body, std::to_string(keys.size())};
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    return redis.command(argv);
  }
  // A command that blocks up to `block` on the server: the socket waits that long plus a margin.
  Result<RedisValue> run_blocking(std::vector<std::string> const& argv, std::chrono::milliseconds block) {
    if (auto st = redis.set_timeout(block + kCommandMargin); !st) return st.error();
    auto reply = redis.command(argv);
    if (auto st = redis.set_timeout(timeout); !st) return st.error();
    return reply;
  }
  Result<std::int64_t> deliveries(std::string const& entry) {
    auto reply = run({"XPENDING", names.jobs_stream(), names.group, entry, entry, "1"});
    if (!reply) return reply.error();
    if (reply->kind != RedisValue::Kind::array) return unexpected("XPENDING");
    if (reply->elements.empty()) return std::int64_t{0};
    auto const& row = reply->elements.front();
    if (row.elements.size() < 4) return unexpected("XPENDING");
    return row.elements[3].integer;
  }
};

JobQueue::JobQueue(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JobQueue::JobQueue(JobQueue&&) noexcept = default;
JobQueue& JobQueue::operator=(JobQueue&&) noexcept = default;
JobQueue::~JobQueue() = default;

Result<JobQueue> JobQueue::connect(RedisEndpoint const& endpoint, QueueNames names,
                                   std::chrono::milliseconds timeout) {
  auto redis = RedisConnection::open(endpoint, timeout);
  if (!redis) return redis.error();
  auto impl = std::make_unique<Impl>(Impl{std::move(*redis), std::move(names), timeout});
  auto created =
      impl->run({"XGROUP", "CREATE", impl->names.jobs_stream(), impl->names.group, "0", "MKSTREAM"});
  if (!created && !created.error().message.starts_with("BUSYGROUP")) {
    return make_error(ErrorCode::io_error, endpoint.describe() + ": cannot create the consumer group '" +
                                               impl->names.group + "': " + created.error().message);
  }
  return JobQueue(std::move(impl));
}

QueueNames const& JobQueue::names() const noexcept {
  return impl_->names;
}

Result<bool> JobQueue::enqueue(Job const& job) {
  auto added = enqueue_all({job});
  if (!added) return added.error();
  return *added == 1;
}

Result<std::size_t> JobQueue::enqueue_all(std::vector<Job> const& jobs) {
  std::vector<std::vector<std::string>> commands;
  commands.reserve(jobs.size());
  for (auto const& job : jobs) {
    if (job.id.empty()) return make_error(ErrorCode::invalid_argument, "enqueue: a job needs an id");
    commands.push_back({"EVAL", kEnqueue, "2", impl_->names.job_key(job.id), impl_->names.jobs_stream(),
                        job.id, job.payload});
  }
  auto replies = impl_->redis.pipeline(commands);
  if (!replies) return replies.error();
  std::size_t added = 0;
  for (auto& reply : *replies) {
    if (!reply) return reply.error();
    if (!reply->is_nil()) ++added;
  }
  return added;
}

Result<std::optional<Delivery>> JobQueue::take(std::string const& consumer, std::chrono::milliseconds block) {
  std::vector<std::string> argv{"XREADGROUP", "GROUP", impl_->names.group, consumer, "COUNT", "1"};
  if (block.count() > 0) {  // BLOCK 0 would wait forever
    argv.emplace_back("BLOCK");
    argv.push_back(ms_text(block));
  }
  argv.insert(argv.end(), {"STREAMS", impl_->names.jobs_stream(), ">"});
  auto reply = impl_->run_blocking(argv, block);
  if (!reply) return reply.error();
  if (reply->is_nil()) return std::optional<Delivery>();
  // [[stream, [[entry, fields]]]]
  if (reply->elements.size() != 1 || reply->elements[0].elements.size() != 2) return unexpected("XREADGROUP");
  auto const& entries = reply->elements[0].elements[1];
  if (entries.elements.empty()) return std::optional<Delivery>();
  return delivery_from(entries.elements.front(), "XREADGROUP");
}

Status JobQueue::refresh(std::string const& consumer, std::string const& entry) {
  auto reply = impl_->script(kRefresh, {impl_->names.jobs_stream()}, {impl_->names.group, consumer, entry});
  if (!reply) return reply.error();
  if (reply->integer != 1) {
    return make_error(ErrorCode::not_found,
                      "entry " + entry + " is no longer " + consumer +
                          "'s (its lease ran out and another worker took it, or it finished)");
  }
  return Ok{};
}

Result<std::vector<Delivery>> JobQueue::reclaim(std::string const& consumer,
                                                std::chrono::milliseconds min_idle, int count) {
  std::vector<Delivery> out;
  std::string cursor = "0-0";
  // XAUTOCLAIM looks at a bounded part of the pending list per call: follow its cursor until `count` entries
  // were claimed or the list was walked to its end.
  do {
    auto reply =
        impl_->run({"XAUTOCLAIM", impl_->names.jobs_stream(), impl_->names.group, consumer, ms_text(min_idle),
                    cursor, "COUNT", std::to_string(count - static_cast<int>(out.size()))});
    if (!reply) return reply.error();
    if (reply->kind != RedisValue::Kind::array || reply->elements.size() < 2) return unexpected("XAUTOCLAIM");
    cursor = reply->elements[0].text;
    for (auto const& entry : reply->elements[1].elements) {
      auto delivery = delivery_from(entry, "XAUTOCLAIM");
      if (!delivery) return delivery.error();
      if (!*delivery) continue;
      auto deliveries = impl_->deliveries((*delivery)->entry);
      if (!deliveries) return deliveries.error();
      (*delivery)->deliveries = *deliveries;
      out.push_back(std::move(**delivery));
    }
  } while (cursor != "0-0" && static_cast<int>(out.size()) < count);
  if (!out.empty()) {
    auto counted = impl_->run({"INCRBY", impl_->names.reclaimed_counter(), std::to_string(out.size())});
    if (!counted) return counted.error();
  }
  return out;
}

Result<bool> JobQueue::finish(Delivery const& delivery, std::string const& result) {
  auto const& n = impl_->names;
  auto reply = impl_->script(kFinish, {n.result_key(delivery.job.id), n.jobs_stream(), n.results_stream()},
                             {delivery.job.id, result, n.group, delivery.entry});
  if (!reply) return reply.error();
  return reply->integer == 1;
}

Result<std::optional<std::string>> JobQueue::result(std::string const& job_id) {
  auto one = results({job_id});
  if (!one) return one.error();
  return std::move(one->front());
}

Result<std::vector<std::optional<std::string>>> JobQueue::results(std::vector<std::string> const& job_ids) {
  std::vector<std::optional<std::string>> out;
  if (job_ids.empty()) return out;
  std::vector<std::string> argv{"MGET"};
  for (auto const& id : job_ids) argv.push_back(impl_->names.result_key(id));
  auto reply = impl_->run(argv);
  if (!reply) return reply.error();
  if (reply->elements.size() != job_ids.size()) return unexpected("MGET");
  out.reserve(job_ids.size());
  for (auto const& value : reply->elements) {
    out.push_back(value.is_nil() ? std::nullopt : std::optional<std::string>(value.text));
  }
  return out;
}

Result<std::vector<FinishedJob>> JobQueue::read_results(std::string const& cursor, int count,
                                                        std::chrono::milliseconds block) {
  std::vector<std::string> argv{"XREAD", "COUNT", std::to_string(count)};
  if (block.count() > 0) {
    argv.emplace_back("BLOCK");
    argv.push_back(ms_text(block));
  }
  argv.insert(argv.end(), {"STREAMS", impl_->names.results_stream(), cursor});
  auto reply = impl_->run_blocking(argv, block);
  if (!reply) return reply.error();
  std::vector<FinishedJob> out;
  if (reply->is_nil()) return out;
  if (reply->elements.size() != 1 || reply->elements[0].elements.size() != 2) return unexpected("XREAD");
  for (auto const& entry : reply->elements[0].elements[1].elements) {
    if (entry.elements.size() != 2) return unexpected("XREAD");
    FinishedJob f;
    f.cursor = entry.elements[0].text;
    auto const& fields = entry.elements[1].elements;
    for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
      if (fields[i].text == "id") f.job_id = fields[i + 1].text;
      if (fields[i].text == "result") f.result = fields[i + 1].text;
    }
    out.push_back(std::move(f));
  }
  return out;
}

Result<QueueStats> JobQueue::stats() {
  QueueStats stats;
  auto jobs = impl_->run({"XLEN", impl_->names.jobs_stream()});
  if (!jobs) return jobs.error();
  stats.jobs = jobs->integer;
  auto results = impl_->run({"XLEN", impl_->names.results_stream()});
  if (!results) return results.error();
  stats.results = results->integer;
  auto reclaimed = impl_->run({"GET", impl_->names.reclaimed_counter()});
  if (!reclaimed) return reclaimed.error();
  if (!reclaimed->is_nil()) {
    auto count = integer_text(reclaimed->text, "GET " + impl_->names.reclaimed_counter());
    if (!count) return count.error();
    stats.reclaimed = *count;
  }
  // Results of the last minute: entry ids are milliseconds of the server's clock, so no host's clock matters.
  auto now = impl_->run({"TIME"});
  if (!now) return now.error();
  if (now->elements.size() != 2) return unexpected("TIME");
  std::int64_t const now_ms =
      std::stoll(now->elements[0].text) * 1000 + std::stoll(now->elements[1].text) / 1000;
  auto recent = impl_->run({"XRANGE", impl_->names.results_stream(), std::to_string(now_ms - 60000), "+"});
  if (!recent) return recent.error();
  stats.results_last_minute = static_cast<std::int64_t>(recent->elements.size());
  auto groups = impl_->run({"XINFO", "GROUPS", impl_->names.jobs_stream()});
  if (!groups) return groups.error();
  for (auto const& g : groups->elements) {  // [name, n, consumers, n, pending, n, last-delivered-id, id, ...]
    bool ours = false;
    for (std::size_t i = 0; i + 1 < g.elements.size(); i += 2) {
      if (g.elements[i].text == "name") ours = g.elements[i + 1].text == impl_->names.group;
      if (ours && g.elements[i].text == "lag") stats.waiting = g.elements[i + 1].integer;
    }
  }
  auto pending = impl_->run({"XPENDING", impl_->names.jobs_stream(), impl_->names.group});
  if (!pending) return pending.error();
  if (pending->elements.empty()) return unexpected("XPENDING");
  stats.pending = pending->elements[0].integer;
  auto infos = announced();
  if (!infos) return infos.error();
  auto consumers = impl_->run({"XINFO", "CONSUMERS", impl_->names.jobs_stream(), impl_->names.group});
  if (!consumers) return consumers.error();
  for (auto const& c : consumers->elements) {  // [name, n, pending, p, idle, ms, ...]
    ConsumerStats s;
    for (std::size_t i = 0; i + 1 < c.elements.size(); i += 2) {
      auto const& key = c.elements[i].text;
      if (key == "name") s.name = c.elements[i + 1].text;
      if (key == "pending") s.pending = c.elements[i + 1].integer;
      if (key == "idle") s.idle_ms = c.elements[i + 1].integer;
    }
    if (auto it = infos->find(s.name); it != infos->end()) s.info = it->second;
    stats.consumers.push_back(std::move(s));
  }
  return stats;
}

Result<std::map<std::string, WorkerInfo, std::less<>>> JobQueue::announced() {
  auto reply = impl_->run({"HGETALL", impl_->names.workers_hash()});
  if (!reply) return reply.error();
  std::map<std::string, WorkerInfo, std::less<>> infos;
  for (std::size_t i = 0; i + 1 < reply->elements.size(); i += 2) {
    auto doc = nlohmann::json::parse(reply->elements[i + 1].text, nullptr, false);
    if (!doc.is_object()) continue;  // not ours to judge: shown as not announced
    WorkerInfo info;
    info.host = doc.value("host", "");
    info.gpu = doc.value("gpu", "");
    info.arch = doc.value("arch", "");
    info.uuid = doc.value("uuid", "");
    info.driver = doc.value("driver", "");
    info.started_at = doc.value("started_at", "");
    infos.emplace(reply->elements[i].text, std::move(info));
  }
  return infos;
}

std::string lane_for(std::string_view gpu, std::string_view arch) {
  std::string lane;
  for (char const c : gpu) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      lane += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!lane.empty() && lane.back() != '-') {
      lane += '-';
    }
  }
  while (!lane.empty() && lane.back() == '-') lane.pop_back();
  return lane + "." + std::string(arch);
}

Status JobQueue::announce(std::string const& consumer, WorkerInfo const& info) {
  nlohmann::json doc{{"host", info.host}, {"gpu", info.gpu},       {"arch", info.arch},
                     {"uuid", info.uuid}, {"driver", info.driver}, {"started_at", info.started_at}};
  auto reply = impl_->run({"HSET", impl_->names.workers_hash(), consumer, doc.dump()});
  if (!reply) return reply.error();
  return Ok{};
}

}  // namespace kopt::farm
