#include "inputs/buffer_generators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <vector>

#include "inputs/parallel_for.hpp"

namespace kopt {
namespace {

std::string range_text(std::int64_t low, std::int64_t high) {
  return "[" + std::to_string(low) + ", " + std::to_string(high) + "]";
}

Status check_fits(ParamReader const& params, TypedBuffer const& out, std::string const& buffer_name,
                  std::int64_t low, std::int64_t high) {
  if (is_floating(out.dtype()) || fits(out.dtype(), low, high)) return Ok{};
  return params.error("values " + range_text(low, high) + " do not fit buffer '" + buffer_name +
                      "' of dtype " + describe_range(out.dtype()));
}

template <class ValueAt>
void fill_doubles(TypedBuffer const& out, unsigned threads, ValueAt value_at) {
  parallel_for(out.count(), threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out.set_double(i, value_at(i));
  });
}

Status fill_uniform(ParamReader const& params, RandomStream const& stream, TypedBuffer const& out,
                    std::string const& buffer_name, unsigned threads) {
  auto low = params.number("low", -1.0);
  if (!low) return std::move(low).error();
  auto high = params.number("high", 1.0);
  if (!high) return std::move(high).error();
  if (*low > *high)
    return params.error("low " + std::to_string(*low) + " is above high " + std::to_string(*high));
  if (!is_floating(out.dtype())) {
    // Integer buffers: every integer in [low, high], inclusive.
    double const first = std::ceil(*low);
    double const last = std::floor(*high);
    if (first > last) {
      return params.error("uniform [" + std::to_string(*low) + ", " + std::to_string(*high) +
                          "] contains no integer for buffer '" + buffer_name + "' of dtype " +
                          std::string(to_string(out.dtype())));
    }
    if (std::fabs(first) > 9.0e18 || std::fabs(last) > 9.0e18)
      return params.error("uniform range is too large");
    auto const lo = static_cast<std::int64_t>(first);
    auto const hi = static_cast<std::int64_t>(last);
    if (auto ok = check_fits(params, out, buffer_name, lo, hi); !ok) return ok;
    fill_integer_range(stream, out, lo, hi, threads);
    return Ok{};
  }
  double const lo = *low;
  double const width = *high - *low;
  fill_doubles(out, threads, [&](std::size_t i) { return lo + width * stream.uniform(i); });
  return Ok{};
}

Status fill_normal(ParamReader const& params, RandomStream const& stream, TypedBuffer const& out,
                   unsigned threads) {
  auto mean = params.number("mean", 0.0);
  if (!mean) return std::move(mean).error();
  auto std_dev = params.number("std", 1.0);
  if (!std_dev) return std::move(std_dev).error();
  if (*std_dev < 0.0)
    return params.error("std " + std::to_string(*std_dev) + " is negative; expected std >= 0");
  double const m = *mean;
  double const s = *std_dev;
  fill_doubles(out, threads, [&](std::size_t i) { return m + s * stream.normal(i); });
  return Ok{};
}

Status fill_int_uniform(ParamReader const& params, RandomStream const& stream, TypedBuffer const& out,
                        std::string const& buffer_name, unsigned threads) {
  auto low = params.integer("low", std::nullopt);
  if (!low) return std::move(low).error();
  auto high = params.integer("high", std::nullopt);
  if (!high) return std::move(high).error();
  if (*low > *high)
    return params.error("low " + std::to_string(*low) + " is above high " + std::to_string(*high));
  if (auto ok = check_fits(params, out, buffer_name, *low, *high); !ok) return ok;
  fill_integer_range(stream, out, *low, *high, threads);
  return Ok{};
}

Status fill_constant(ParamReader const& params, TypedBuffer const& out, std::string const& buffer_name,
                     unsigned threads) {
  if (is_floating(out.dtype())) {
    auto value = params.number("value", std::nullopt);
    if (!value) return std::move(value).error();
    double const v = *value;
    fill_doubles(out, threads, [v](std::size_t) { return v; });
    return Ok{};
  }
  auto value = params.integer("value", std::nullopt);
  if (!value) return std::move(value).error();
  if (auto ok = check_fits(params, out, buffer_name, *value, *value); !ok) return ok;
  std::int64_t const v = *value;
  parallel_for(out.count(), threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out.set_integer(i, v);
  });
  return Ok{};
}

Status fill_arange(ParamReader const& params, TypedBuffer const& out, std::string const& buffer_name,
                   unsigned threads) {
  if (is_floating(out.dtype())) {
    auto start = params.number("start", 0.0);
    if (!start) return std::move(start).error();
    auto step = params.number("step", 1.0);
    if (!step) return std::move(step).error();
    double const a = *start;
    double const d = *step;
    fill_doubles(out, threads, [&](std::size_t i) { return a + d * static_cast<double>(i); });
    return Ok{};
  }
  auto start = params.integer("start", 0);
  if (!start) return std::move(start).error();
  auto step = params.integer("step", 1);
  if (!step) return std::move(step).error();
  if (out.count() == 0) return Ok{};
  std::int64_t span = 0;
  std::int64_t last = 0;
  if (__builtin_mul_overflow(*step, static_cast<std::int64_t>(out.count() - 1), &span) ||
      __builtin_add_overflow(*start, span, &last)) {
    return params.error("arange overflows 64-bit integers over " + std::to_string(out.count()) + " elements");
  }
  if (auto ok = check_fits(params, out, buffer_name, std::min(*start, last), std::max(*start, last)); !ok)
    return ok;
  std::int64_t const a = *start;
  std::int64_t const d = *step;
  parallel_for(out.count(), threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out.set_integer(i, a + d * static_cast<std::int64_t>(i));
  });
  return Ok{};
}

// offsets[0] = 0, offsets[n-1] = total, non-decreasing: the sorted positions of n-2 uniform cuts.
Status fill_sorted_offsets(ParamReader const& params, RandomStream const& stream, TypedBuffer const& out,
                           std::string const& buffer_name) {
  auto total = params.integer("total", std::nullopt);
  if (!total) return std::move(total).error();
  if (*total < 0)
    return params.error("total " + std::to_string(*total) + " is negative; expected total >= 0");
  std::size_t const n = out.count();
  if (n == 0) return Ok{};
  if (n == 1 && *total != 0) {
    return params.error("buffer '" + buffer_name +
                        "' has 1 element, which cannot start at 0 and end at total " +
                        std::to_string(*total) + "; expected a length >= 2");
  }
  if (auto ok = check_fits(params, out, buffer_name, 0, *total); !ok) return ok;
  std::vector<std::int64_t> offsets(n);
  auto const span = static_cast<std::uint64_t>(*total) + 1;
  for (std::size_t i = 1; i + 1 < n; ++i) offsets[i] = static_cast<std::int64_t>(stream.below(i, span));
  offsets[n - 1] = *total;
  std::sort(offsets.begin() + 1, offsets.end() - 1);
  for (std::size_t i = 0; i < n; ++i) out.set_integer(i, offsets[i]);
  return Ok{};
}

// n distinct values of 0..high in random order (high = n-1 by default: a permutation of 0..n-1). A
// partial Fisher-Yates shuffle of 0..high run from the top: step i (i = high down to high+1-n) draws j in
// [0, i] from counter i and swaps slots i and j; slot i then holds the element i-(high+1-n) of the buffer.
// With high = n-1 this is the whole shuffle. The slots live in an array of high+1 values, or, when the
// buffer is short against the range, in a hash map of the displaced slots only (at most one entry per
// step); both give the same bytes.
Status fill_permutation(ParamReader const& params, RandomStream const& stream, TypedBuffer const& out,
                        std::string const& buffer_name) {
  std::size_t const n = out.count();
  auto high = params.integer("high", static_cast<std::int64_t>(n) - 1);
  if (!high) return std::move(high).error();
  if (*high < 0 && n > 0)
    return params.error("parameter 'high' is " + std::to_string(*high) + "; expected high >= 0");
  if (n == 0) return Ok{};
  auto const range = static_cast<std::uint64_t>(*high) + 1;  // values 0..high
  if (range < n) {
    return params.error("parameter 'high' is " + std::to_string(*high) + ": buffer '" + buffer_name +
                        "' has " + std::to_string(n) + " elements, more than the " + std::to_string(range) +
                        " distinct values of [0, high]; expected high >= " + std::to_string(n - 1));
  }
  if (auto ok = check_fits(params, out, buffer_name, 0, *high); !ok) return ok;
  // The array costs 4 or 8 bytes per value of the range, the map some 50 bytes per element.
  constexpr std::uint64_t kArrayValues = std::uint64_t{1} << 28;  // 1 GiB of 32-bit slots
  constexpr std::uint64_t kMapDraws = std::uint64_t{1} << 22;
  bool const sparse = n <= kMapDraws && range / 16 > n;
  if (!sparse && range > kArrayValues && range > 4 * static_cast<std::uint64_t>(n)) {
    return params.error("parameter 'high' is " + std::to_string(*high) + ": drawing the " +
                        std::to_string(n) + " distinct values of buffer '" + buffer_name + "' from " +
                        std::to_string(range) + " would shuffle an array of them all; expected high < " +
                        std::to_string(kArrayValues) + " or high < 4 * " + std::to_string(n) +
                        " (or a buffer of at most " + std::to_string(kMapDraws) + " elements)");
  }
  std::uint64_t const first = range - n;  // the lowest slot drawn into
  if (sparse) {
    std::unordered_map<std::uint64_t, std::uint64_t> moved;  // slot -> value, where not the identity
    moved.reserve(n);
    auto const at = [&](std::uint64_t slot) {
      auto const it = moved.find(slot);
      return it == moved.end() ? slot : it->second;
    };
    for (std::uint64_t i = range - 1;; --i) {
      std::uint64_t const j = stream.below(i, i + 1);
      std::uint64_t const drawn = at(j);
      std::uint64_t const top = at(i);
      moved.erase(i);  // slot i is never read again
      if (j != i) moved[j] = top;
      out.set_integer(static_cast<std::size_t>(i - first), static_cast<std::int64_t>(drawn));
      if (i == first) break;
    }
    return Ok{};
  }
  auto const shuffle = [&](auto values) {
    std::iota(values.begin(), values.end(), typename decltype(values)::value_type{0});
    for (std::uint64_t i = range - 1;; --i) {
      std::swap(values[i], values[static_cast<std::size_t>(stream.below(i, i + 1))]);
      if (i == first) break;
    }
    for (std::size_t i = 0; i < n; ++i) out.set_integer(i, static_cast<std::int64_t>(values[first + i]));
  };
  if (range <= (std::uint64_t{1} << 32)) {
    shuffle(std::vector<std::uint32_t>(range));
  } else {
    shuffle(std::vector<std::uint64_t>(range));
  }
  return Ok{};
}

// Rows of `cols` positive values summing to 1: exp of standard normals, normalised per row.
Status fill_probability_rows(ParamReader const& params, RandomStream const& stream, TypedBuffer const& out,
                             std::string const& buffer_name, unsigned threads) {
  auto cols = params.integer("cols", std::nullopt);
  if (!cols) return std::move(cols).error();
  if (*cols <= 0)
    return params.error("cols " + std::to_string(*cols) + " is not positive; expected cols >= 1");
  auto const width = static_cast<std::size_t>(*cols);
  if (out.count() % width != 0) {
    return params.error("buffer '" + buffer_name + "' has " + std::to_string(out.count()) +
                        " elements, not a multiple of cols = " + std::to_string(width));
  }
  std::size_t const rows = out.count() / width;
  parallel_for(
      rows, threads,
      [&](std::size_t begin, std::size_t end) {
        std::vector<double> row(width);
        for (std::size_t r = begin; r < end; ++r) {
          double sum = 0.0;
          for (std::size_t c = 0; c < width; ++c) {
            row[c] = std::exp(stream.normal(r * width + c));
            sum += row[c];
          }
          for (std::size_t c = 0; c < width; ++c) out.set_double(r * width + c, row[c] / sum);
        }
      },
      std::max<std::size_t>(1, 16384 / width));
  return Ok{};
}

}  // namespace

void fill_integer_range(RandomStream const& stream, TypedBuffer const& out, std::int64_t low,
                        std::int64_t high, unsigned threads) {
  // span = high - low + 1 in modular arithmetic; 0 means the full 2^64 range.
  std::uint64_t const span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
  auto const base = static_cast<std::uint64_t>(low);
  parallel_for(out.count(), threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      std::uint64_t const offset = span == 0 ? stream.bits(i) : stream.below(i, span);
      out.set_integer(i, static_cast<std::int64_t>(base + offset));
    }
  });
}

Status fill_buffer(ParamReader const& params, RandomStream const& stream, TypedBuffer const& out,
                   std::string const& buffer_name, unsigned threads) {
  std::string const& kind = params.spec().kind;
  if (kind == "uniform") return fill_uniform(params, stream, out, buffer_name, threads);
  if (kind == "normal") return fill_normal(params, stream, out, threads);
  if (kind == "int_uniform") return fill_int_uniform(params, stream, out, buffer_name, threads);
  if (kind == "constant") return fill_constant(params, out, buffer_name, threads);
  if (kind == "arange") return fill_arange(params, out, buffer_name, threads);
  if (kind == "sorted_offsets") return fill_sorted_offsets(params, stream, out, buffer_name);
  if (kind == "permutation") return fill_permutation(params, stream, out, buffer_name);
  if (kind == "probability_rows") return fill_probability_rows(params, stream, out, buffer_name, threads);
  return params.error("unknown kind '" + kind + "' for buffer '" + buffer_name + "'");
}

}  // namespace kopt
