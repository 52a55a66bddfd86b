// `kopt farm status`: the farm's queue as a table for people and as kopt.farm_status/1.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "kopt/report.hpp"
#include "kopt/units.hpp"

namespace kopt {

nlohmann::json farm_status_json(farm::QueueStats const& stats, std::string_view where) {
  nlohmann::json workers = nlohmann::json::array();
  for (auto const& c : stats.consumers) {
    nlohmann::json w{{"name", c.name}, {"holds", c.pending}, {"idle_ms", c.idle_ms}, {"runs_on", nullptr}};
    if (c.info) {
      w["runs_on"] = {{"host", c.info->host}, {"gpu", c.info->gpu},       {"arch", c.info->arch},
                      {"uuid", c.info->uuid}, {"driver", c.info->driver}, {"started_at", c.info->started_at}};
    }
    workers.push_back(std::move(w));
  }
  return {{"schema", kFarmStatusSchema},
          {"queue", std::string(where)},
          {"jobs",
           {{"waiting", stats.waiting},
            {"in_flight", stats.pending},
            {"taken_over", stats.reclaimed},
            {"in_stream", stats.jobs}}},
          {"results", {{"recorded", stats.results}, {"last_minute", stats.results_last_minute}}},
          {"throughput_per_s", static_cast<double>(stats.results_last_minute) / 60.0},
          {"workers", workers}};
}

std::string render_farm_status(farm::QueueStats const& stats, std::string_view where) {
  std::string out = fmt::format("farm     {}\n", where);
  out += fmt::format(
      "jobs     {} waiting for a worker, {} in flight, {} taken over from a worker that stopped\n",
      stats.waiting, stats.pending, stats.reclaimed);
  out += fmt::format("results  {} recorded, {} in the last minute ({:.2f} jobs/s)\n", stats.results,
                     stats.results_last_minute, static_cast<double>(stats.results_last_minute) / 60.0);
  if (stats.consumers.empty()) return out + "\nno worker has joined yet\n";
  auto consumers = stats.consumers;
  std::ranges::sort(consumers, {}, &farm::ConsumerStats::name);
  std::size_t width = 6;
  for (auto const& c : consumers) width = std::max(width, c.name.size());
  out += fmt::format("\n{:<{}}  {:>5}  {:>10}  {}\n", "worker", width, "holds", "quiet for", "runs on");
  for (auto const& c : consumers) {
    std::string const runs_on = c.info ? fmt::format("{} ({}, driver {}), since {}", c.info->gpu,
                                                     c.info->arch, c.info->driver, c.info->started_at)
                                       : std::string("-");
    out += fmt::format("{:<{}}  {:>5}  {:>10}  {}\n", c.name, width, c.pending,
                       format_duration_ms(static_cast<double>(c.idle_ms)), runs_on);
  }
  return out;
}

}  // namespace kopt
