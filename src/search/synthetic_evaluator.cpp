// SyntheticEvaluator: a deterministic rugged objective with failing regions, for tests and benches.
#include <algorithm>
#include <cmath>
#include <utility>

#include "search/hashing.hpp"

namespace kopt {

using search_detail::hash_point;
using search_detail::mix;
using search_detail::unit;

namespace {

constexpr double kBaseSpeedup = 0.5;    // a typical point is slower than the reference
constexpr double kSecondaryPeak = 0.6;  // secondary peak height relative to the main one
constexpr double kDrift = 0.3;          // how far a dimension's peak moves with the previous dimension
constexpr std::uint64_t kCentre = 11, kSecond = 13, kWidth = 17, kBox = 19, kScatter = 23, kSize = 29;

double normalized(int value, int size) {
  return size > 1 ? value / static_cast<double>(size - 1) : 0.5;
}

double gauss(double t, double width) {
  return std::exp(-(t * t) / (width * width));
}

// Status of a point inside a failing region, or ok.
CandidateStatus failure_of(SyntheticSpec const& spec, Point const& point) {
  constexpr CandidateStatus kKinds[] = {CandidateStatus::compile_error, CandidateStatus::launch_error,
                                        CandidateStatus::wrong_output};
  auto const dims = spec.dims.size();
  for (int box = 0; box < spec.failure_boxes; ++box) {
    std::uint64_t const h = mix(spec.landscape_seed, kBox * 1000 + static_cast<std::uint64_t>(box));
    bool inside = true;
    // Two dimensions (one when the space has one), each restricted to a quarter of its values.
    for (std::uint64_t k = 0; k < std::min<std::size_t>(2, dims); ++k) {
      std::uint64_t const hk = mix(h, k);
      auto const d = static_cast<std::size_t>((hk + k) % dims);
      int const size = spec.dims[d].size;
      int const width = std::max(1, size / 4);
      int const lo = static_cast<int>(mix(hk, 7) % static_cast<std::uint64_t>(size));
      if (point[d] < lo || point[d] >= lo + width) inside = false;
    }
    if (inside) return kKinds[static_cast<std::size_t>(box) % 3];
  }
  if (spec.failure_rate > 0.0) {
    std::uint64_t const h = hash_point(point, mix(spec.landscape_seed, kScatter));
    if (unit(h) < spec.failure_rate) return kKinds[mix(h, 1) % 3];
  }
  return CandidateStatus::ok;
}

}  // namespace

SyntheticEvaluator::SyntheticEvaluator(SyntheticSpec spec) : spec_(std::move(spec)) {}

Outcome SyntheticEvaluator::evaluate(Point const& point) {
  ++calls_;
  return compute(point, spec_.measurement_noise > 0.0);
}

Outcome SyntheticEvaluator::exact(Point const& point) const {
  return compute(point, false);
}

Outcome SyntheticEvaluator::compute(Point const& point, bool noisy) const {
  Outcome outcome;
  if (!in_range(spec_.dims, point)) {
    outcome.status = CandidateStatus::compile_error;
    outcome.detail = "point " + to_string(point) + " is out of range";
    return outcome;
  }
  outcome.status = failure_of(spec_, point);
  if (outcome.status != CandidateStatus::ok) {
    outcome.detail = "synthetic failing region";
    return outcome;
  }
  double speedup = kBaseSpeedup;
  for (std::size_t d = 0; d < spec_.dims.size(); ++d) {
    std::uint64_t const hd = mix(spec_.landscape_seed, d);
    double const x = normalized(point[d], spec_.dims[d].size);
    double centre = unit(mix(hd, kCentre));
    if (d > 0) centre += kDrift * (normalized(point[d - 1], spec_.dims[d - 1].size) - 0.5);
    double const second = unit(mix(hd, kSecond));
    double const width = 0.12 + 0.12 * unit(mix(hd, kWidth));
    double const bump = std::max(gauss(x - centre, width), kSecondaryPeak * gauss(x - second, width));
    speedup *= 1.0 + spec_.peak_gain * bump;
  }
  speedup *= 1.0 + spec_.ruggedness * (2.0 * unit(hash_point(point, spec_.landscape_seed)) - 1.0);
  for (int s = 0; s < spec_.size_cases; ++s) {
    std::uint64_t const hs =
        hash_point(point, mix(spec_.landscape_seed, kSize + static_cast<std::uint64_t>(s)));
    double const size_speedup = speedup * (1.0 + 0.5 * spec_.ruggedness * (2.0 * unit(hs) - 1.0));
    double const reference = 100.0 * std::pow(s + 1.0, 1.5);
    double median = reference / size_speedup;
    double iqr = 0.0;
    if (noisy) {
      std::uint64_t const hn = hash_point(point, mix(spec_.noise_seed, static_cast<std::uint64_t>(s)));
      // Sum of three uniforms: roughly normal, in [-1, 1].
      double const z = (unit(hn) + unit(mix(hn, 1)) + unit(mix(hn, 2))) * (2.0 / 3.0) - 1.0;
      median *= 1.0 + spec_.measurement_noise * z;
      iqr = 1.35 * spec_.measurement_noise * median;
    }
    outcome.reference_us.push_back(reference);
    outcome.size_medians_us.push_back(median);
    outcome.size_iqr_us.push_back(iqr);
  }
  return outcome;
}

std::vector<SyntheticSpec> rugged_landscapes() {
  std::vector<SyntheticSpec> specs;
  SyntheticSpec a;
  a.dims = {{"BLOCK", 8}, {"TILE", 6}, {"UNROLL", 6}, {"VEC", 5}, {"STAGES", 4}};  // 5760 points
  a.landscape_seed = 101;
  a.ruggedness = 0.15;
  a.failure_boxes = 3;
  a.failure_rate = 0.05;
  specs.push_back(a);
  SyntheticSpec b;
  b.dims = {{"BM", 12}, {"BN", 10}, {"BK", 8}, {"WARPS", 10}};  // 9600 points
  b.landscape_seed = 202;
  b.ruggedness = 0.25;
  b.peak_gain = 1.5;
  b.failure_boxes = 4;
  b.failure_rate = 0.1;
  specs.push_back(b);
  SyntheticSpec c;
  c.dims = {{"X", 9}, {"Y", 8}, {"Z", 7}, {"U", 6}, {"V", 6}};  // 18144 points
  c.landscape_seed = 303;
  c.ruggedness = 0.2;
  c.failure_boxes = 5;
  c.failure_rate = 0.05;
  specs.push_back(c);
  return specs;
}

}  // namespace kopt
