// compare_outputs: the reference pass and the element pass, each split into contiguous chunks that
// run on their own threads for large buffers, with a hot loop specialised per element type. Partial
// tallies are merged in chunk order so the result equals the serial one (compare_serial.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <system_error>
#include <thread>
#include <vector>

#include "kopt/float16.hpp"
#include "verify/compare_detail.hpp"

namespace kopt {
namespace detail {
namespace {

// First element of chunk `chunk` when `count` elements are split into `chunks` near-equal ranges.
std::size_t chunk_begin(std::size_t count, std::size_t chunks, std::size_t chunk) {
  return chunk * (count / chunks) + std::min(chunk, count % chunks);
}

// Runs work(begin, end) for every chunk, chunk 0 on the calling thread and the others on threads of
// their own (on the calling thread too if a thread cannot be started). Tallies come back in chunk order.
template <class Tally, class Work>
std::vector<Tally> run_chunks(std::size_t count, std::size_t chunks, Work const& work) {
  std::vector<Tally> tallies(chunks);
  auto run_one = [&](std::size_t chunk) {
    tallies[chunk] = work(chunk_begin(count, chunks, chunk), chunk_begin(count, chunks, chunk + 1));
  };
  {
    std::vector<std::jthread> threads;
    threads.reserve(chunks);
    for (std::size_t chunk = 1; chunk < chunks; ++chunk) {
      try {
        threads.emplace_back(run_one, chunk);
      } catch (std::system_error const&) {
        run_one(chunk);
      }
    }
    run_one(0);
  }  // joins
  return tallies;
}

// All bytes of an element equal to `value`, as the element's raw bits.
template <class Bits>
Bits replicate(std::byte value) {
  Bits bits{};
  std::memset(&bits, static_cast<int>(value), sizeof(bits));
  return bits;
}

template <class Codec>
ReferenceTally scan_reference(Codec codec, std::byte const* ref_data, double first_ref, std::size_t begin,
                              std::size_t end) {
  ReferenceTally tally;
  std::size_t i = begin;
  // Until the reference is seen to vary, compare with element 0 as well (NaN equals NaN, -0 equals +0).
  for (; i < end; ++i) {
    double const ref = codec.decode(load_bits<Codec>(ref_data, i));
    if (std::isfinite(ref)) tally.ref_scale = std::max(tally.ref_scale, std::fabs(ref));
    if (!((std::isnan(ref) && std::isnan(first_ref)) || ref == first_ref)) {
      tally.reference_varies = true;
      ++i;
      break;
    }
  }
  for (; i < end; ++i) {
    double const ref = codec.decode(load_bits<Codec>(ref_data, i));
    if (std::isfinite(ref)) tally.ref_scale = std::max(tally.ref_scale, std::fabs(ref));
  }
  return tally;
}

template <class Codec>
struct ElementPass {
  using Bits = typename Codec::Bits;
  Codec codec;
  std::byte const* ref_data;
  std::byte const* got_data;
  bool exact_integers;
  double absolute_allowance;
  double rtol;
  Bits first_got_bits;
  Bits poison_bits;

  template <bool kCheckPoison>
  ElementTally run(std::size_t begin, std::size_t end) const {
    ElementTally tally;
    // The running maxima live in locals; errors are >= 0, so -1 means "no finite element yet".
    double max_abs_err = -1.0;
    double max_rel_err = 0.0;
    CompareLocation max_error_at;
    for (std::size_t i = begin; i < end; ++i) {
      Bits const ref_bits = load_bits<Codec>(ref_data, i);
      Bits const got_bits = load_bits<Codec>(got_data, i);
      if (got_bits != first_got_bits) tally.candidate_constant = false;
      double const ref = codec.decode(ref_bits);
      double const got = codec.decode(got_bits);
      // An element that still holds the poison bytes was never written, unless the reference's value
      // has exactly those bytes: then the run with the other poison pattern decides.
      if (kCheckPoison && got_bits == poison_bits && ref_bits != poison_bits) [[unlikely]] {
        ++tally.unwritten;
        if (!tally.first_unwritten) tally.first_unwritten = CompareLocation{i, got, ref};
        if (!tally.first_bad) tally.first_bad = CompareLocation{i, got, ref};
        continue;
      }
      bool ok = true;
      if (!std::isfinite(ref) || !std::isfinite(got)) [[unlikely]] {
        ok = (std::isnan(ref) && std::isnan(got)) || ref == got;  // same infinity compares equal
        if (!ok) {
          ++tally.nonfinite_mismatches;
          if (!tally.first_nonfinite) tally.first_nonfinite = CompareLocation{i, got, ref};
        }
      } else {
        double const magnitude = std::fabs(ref);
        double const error = std::fabs(got - ref);
        ok = exact_integers ? got_bits == ref_bits : error <= absolute_allowance + rtol * magnitude;
        if (error > max_abs_err) {  // strictly greater: the first of equal maxima stays
          max_abs_err = error;
          max_error_at = CompareLocation{i, got, ref};
        }
        max_rel_err = std::max(max_rel_err, error / std::max(magnitude, kTinyScale));
        if (!ok) [[unlikely]]
          ++tally.finite_mismatches;
      }
      if (!ok) [[unlikely]] {
        ++tally.mismatches;
        if (!tally.first_bad) tally.first_bad = CompareLocation{i, got, ref};
      }
    }
    if (max_abs_err >= 0.0) {
      tally.max_abs_err = max_abs_err;
      tally.max_error_at = max_error_at;
    }
    tally.max_rel_err = max_rel_err;
    return tally;
  }
};

template <class Codec>
CompareResult compare_typed(Codec codec, DType dtype, std::span<std::byte const> reference,
                            std::span<std::byte const> candidate, ToleranceSpec const& tolerance,
                            std::optional<std::byte> poison, std::size_t chunks) {
  using Bits = typename Codec::Bits;
  std::size_t const count = reference.size() / sizeof(Bits);
  chunks = std::clamp<std::size_t>(chunks, 1, count);
  std::byte const* ref_data = reference.data();
  std::byte const* got_data = candidate.data();

  // Pass 1 (complete before pass 2, which needs the global scale).
  double const first_ref = codec.decode(load_bits<Codec>(ref_data, 0));
  ReferenceTally scale;
  for (auto const &part : run_chunks<ReferenceTally>(count, chunks, [&](std::size_t begin, std::size_t end) {
         return scan_reference(codec, ref_data, first_ref, begin, end);
       })) {
    scale.merge(part);
  }

  // Pass 2.
  ElementPass<Codec> const pass{codec,
                                ref_data,
                                got_data,
                                compares_exactly(dtype, tolerance),
                                tolerance.atol * std::max(scale.ref_scale, kTinyScale),
                                tolerance.rtol,
                                load_bits<Codec>(got_data, 0),
                                poison ? replicate<Bits>(*poison) : Bits{}};
  auto const parts = run_chunks<ElementTally>(count, chunks, [&](std::size_t begin, std::size_t end) {
    return poison ? pass.template run<true>(begin, end) : pass.template run<false>(begin, end);
  });
  ElementTally tally = parts.front();
  for (std::size_t chunk = 1; chunk < parts.size(); ++chunk) tally.merge_following(parts[chunk]);
  return finish_compare(dtype, candidate, count, tolerance, scale, tally);
}

}  // namespace

float const* float16_table() {
  static std::vector<float> const table = [] {
    std::vector<float> values(std::size_t{1} << 16);
    for (std::size_t bits = 0; bits < values.size(); ++bits)
      values[bits] = f16_bits_to_float(static_cast<std::uint16_t>(bits));
    return values;
  }();
  return table.data();
}

CompareResult compare_outputs_chunked(DType dtype, std::span<std::byte const> reference,
                                      std::span<std::byte const> candidate, ToleranceSpec const& tolerance,
                                      std::optional<std::byte> poison, std::size_t chunks) {
  if (auto trivial = compare_trivial_cases(dtype, reference, candidate)) return *trivial;
  auto const typed = [&](auto codec) {
    return compare_typed(codec, dtype, reference, candidate, tolerance, poison, chunks);
  };
  switch (dtype) {
    case DType::f32: return typed(PlainCodec<float>{});
    case DType::f64: return typed(PlainCodec<double>{});
    case DType::f16: return typed(Float16Codec{float16_table()});
    case DType::bf16: return typed(Bfloat16Codec{});
    case DType::i8: return typed(PlainCodec<std::int8_t>{});
    case DType::u8:
    case DType::boolean: return typed(PlainCodec<std::uint8_t>{});
    case DType::i16: return typed(PlainCodec<std::int16_t>{});
    case DType::i32: return typed(PlainCodec<std::int32_t>{});
    case DType::u32: return typed(PlainCodec<std::uint32_t>{});
    case DType::i64: return typed(PlainCodec<std::int64_t>{});
    case DType::u64: return typed(PlainCodec<std::uint64_t>{});
  }
  return compare_outputs_serial(dtype, reference, candidate, tolerance, poison);
}

}  // namespace detail

CompareResult compare_outputs(DType dtype, std::span<std::byte const> reference,
                              std::span<std::byte const> candidate, ToleranceSpec const& tolerance,
                              std::optional<std::byte> poison) {
  std::size_t chunks = 1;
  if (size_of(dtype) != 0 && reference.size() / size_of(dtype) >= detail::kParallelCompareThreshold)
    chunks = std::max(1U, std::thread::hardware_concurrency());
  return detail::compare_outputs_chunked(dtype, reference, candidate, tolerance, poison, chunks);
}

}  // namespace kopt
