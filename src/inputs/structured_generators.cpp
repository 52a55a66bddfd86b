#include "inputs/structured_generators.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "inputs/buffer_generators.hpp"
#include "inputs/parallel_for.hpp"
#include "inputs/sparse_pattern.hpp"

namespace kopt {
namespace {

struct MatrixShape {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;  // for ell: the width
};

Result<std::int64_t> non_negative(ParamReader const& params, std::string_view name) {
  auto value = params.integer(name, std::nullopt);
  if (!value) return std::move(value).error();
  if (*value < 0) {
    return params.error("parameter '" + std::string(name) + "' is " + std::to_string(*value) +
                        "; expected >= 0");
  }
  return *value;
}

Result<MatrixShape> read_shape(ParamReader const& params, std::string_view third) {
  MatrixShape shape;
  auto rows = non_negative(params, "rows");
  if (!rows) return std::move(rows).error();
  auto cols = non_negative(params, "cols");
  if (!cols) return std::move(cols).error();
  auto nnz = non_negative(params, third);
  if (!nnz) return std::move(nnz).error();
  shape.rows = *rows;
  shape.cols = *cols;
  shape.nnz = *nnz;
  std::int64_t cells = 0;
  if (__builtin_mul_overflow(shape.rows, shape.cols, &cells)) return params.error("rows * cols overflows");
  if (third == "nnz" && shape.nnz > cells) {
    return params.error("nnz " + std::to_string(shape.nnz) + " exceeds rows * cols = " +
                        std::to_string(cells) + "; expected at most one nonzero per position");
  }
  if (third == "width" && __builtin_mul_overflow(shape.rows, shape.nnz, &cells)) {
    return params.error("rows * width overflows");
  }
  return shape;
}

// Checks target `role` exists, has `expected` elements, and (when given) can hold integers in `range`.
Result<StructuredTarget const*> target(ParamReader const& params,
                                       std::map<std::string, StructuredTarget> const& targets,
                                       std::string const& role, std::int64_t expected, std::string const& how,
                                       std::optional<IntegerRange> range) {
  auto const it = targets.find(role);
  if (it == targets.end()) {
    return params.error("missing target '" + role + "' for kind '" + params.spec().kind + "'");
  }
  auto const& t = it->second;
  if (t.data.count() != static_cast<std::size_t>(expected)) {
    return params.error("target '" + role + "' is buffer '" + t.buffer + "' with " +
                        std::to_string(t.data.count()) + " elements, but " + params.spec().kind +
                        " produces " + std::to_string(expected) + " (" + how + ")");
  }
  if (range && !is_floating(t.data.dtype()) && !fits(t.data.dtype(), range->min, range->max)) {
    return params.error("target '" + role + "' is buffer '" + t.buffer + "' of dtype " +
                        describe_range(t.data.dtype()) + ", which cannot hold values [" +
                        std::to_string(range->min) + ", " + std::to_string(range->max) + "]");
  }
  return &t;
}

Result<RowLengths> read_row_lengths(ParamReader const& params, double& alpha) {
  auto shape = params.keyword("row_lengths", "uniform", {"uniform", "power_law"});
  if (!shape) return std::move(shape).error();
  auto a = params.number("alpha", 1.5);
  if (!a) return std::move(a).error();
  if (!(*a > 0.0))
    return params.error("alpha " + std::to_string(*a) + " is not positive; expected alpha > 0");
  alpha = *a;
  return *shape == "power_law" ? RowLengths::power_law : RowLengths::uniform;
}

// Nonzero values uniform in [value_low, value_high] (integers in that range for integer buffers).
Status fill_values(ParamReader const& params, RandomStream const& stream, StructuredTarget const& values,
                   unsigned threads) {
  auto low = params.number("value_low", -1.0);
  if (!low) return std::move(low).error();
  auto high = params.number("value_high", 1.0);
  if (!high) return std::move(high).error();
  if (*low > *high) {
    return params.error("value_low " + std::to_string(*low) + " is above value_high " +
                        std::to_string(*high));
  }
  auto const& out = values.data;
  if (!is_floating(out.dtype())) {
    double const first = std::ceil(*low);
    double const last = std::floor(*high);
    if (first > last || std::fabs(first) > 9.0e18 || std::fabs(last) > 9.0e18) {
      return params.error("values [" + std::to_string(*low) + ", " + std::to_string(*high) +
                          "] hold no integer for buffer '" + values.buffer + "'");
    }
    auto const lo = static_cast<std::int64_t>(first);
    auto const hi = static_cast<std::int64_t>(last);
    if (!fits(out.dtype(), lo, hi)) {
      return params.error("values [" + std::to_string(lo) + ", " + std::to_string(hi) +
                          "] do not fit buffer '" + values.buffer + "' of dtype " +
                          describe_range(out.dtype()));
    }
    fill_integer_range(stream, out, lo, hi, threads);
    return Ok{};
  }
  double const lo = *low;
  double const width = *high - *low;
  parallel_for(out.count(), threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out.set_double(i, lo + width * stream.uniform(i));
  });
  return Ok{};
}

void write_integers(TypedBuffer const& out, std::vector<std::int64_t> const& values, unsigned threads) {
  parallel_for(values.size(), threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out.set_integer(i, values[i]);
  });
}

// CSR, COO and CSC share one pattern generator; CSC is the CSR pattern of the transpose.
Status fill_compressed(ParamReader const& params, RandomStream const& stream,
                       std::map<std::string, StructuredTarget> const& targets, unsigned threads) {
  std::string const& kind = params.spec().kind;
  auto shape = read_shape(params, "nnz");
  if (!shape) return std::move(shape).error();
  double alpha = 1.5;
  auto lengths = read_row_lengths(params, alpha);
  if (!lengths) return std::move(lengths).error();
  bool const transposed = kind == "csc";
  std::int64_t const major = transposed ? shape->cols : shape->rows;
  std::int64_t const minor = transposed ? shape->rows : shape->cols;
  std::string const major_name = transposed ? "cols" : "rows";
  std::string const minor_name = transposed ? "rows" : "cols";
  std::string const nnz_text = "nnz = " + std::to_string(shape->nnz);
  std::int64_t const max_minor = std::max<std::int64_t>(minor - 1, 0);
  std::int64_t const max_major = std::max<std::int64_t>(major - 1, 0);

  std::string const pointer_role = transposed ? "col_ptr" : "row_ptr";
  std::string const index_role = transposed ? "row_idx" : "col_idx";
  StructuredTarget const* pointers = nullptr;
  StructuredTarget const* expanded = nullptr;  // coo: the row index of every nonzero
  if (kind == "coo") {
    auto rows = target(params, targets, "row_idx", shape->nnz, nnz_text, IntegerRange{0, max_major});
    if (!rows) return std::move(rows).error();
    expanded = *rows;
  } else {
    auto ptr = target(params, targets, pointer_role, major + 1,
                      major_name + " + 1 = " + std::to_string(major + 1), IntegerRange{0, shape->nnz});
    if (!ptr) return std::move(ptr).error();
    pointers = *ptr;
  }
  auto indices = target(params, targets, index_role, shape->nnz, nnz_text, IntegerRange{0, max_minor});
  if (!indices) return std::move(indices).error();
  auto values = target(params, targets, "values", shape->nnz, nnz_text, std::nullopt);
  if (!values) return std::move(values).error();

  auto const pattern = make_pattern(major, minor, shape->nnz, *lengths, alpha, stream.child(0), threads);
  write_integers((*indices)->data, pattern.col_idx, threads);
  if (pointers != nullptr) write_integers(pointers->data, pattern.row_ptr, threads);
  if (expanded != nullptr) {
    for (std::size_t r = 0; r + 1 < pattern.row_ptr.size(); ++r) {
      for (auto k = pattern.row_ptr[r]; k < pattern.row_ptr[r + 1]; ++k) {
        expanded->data.set_integer(static_cast<std::size_t>(k), static_cast<std::int64_t>(r));
      }
    }
  }
  return fill_values(params, stream.child(1), **values, threads);
}

// ELL: `width` slots per row; each row gets a random number of distinct sorted columns in
// [0, min(width, cols)], the rest padded with column -1 and value 0.
Status fill_ell(ParamReader const& params, RandomStream const& stream,
                std::map<std::string, StructuredTarget> const& targets, unsigned threads) {
  auto shape = read_shape(params, "width");
  if (!shape) return std::move(shape).error();
  std::int64_t const slots = shape->rows * shape->nnz;
  std::string const how = "rows * width = " + std::to_string(slots);
  auto indices = target(params, targets, "col_idx", slots, how,
                        IntegerRange{-1, std::max<std::int64_t>(shape->cols - 1, 0)});
  if (!indices) return std::move(indices).error();
  auto values = target(params, targets, "values", slots, how, std::nullopt);
  if (!values) return std::move(values).error();
  if (auto ok = fill_values(params, stream.child(1), **values, threads); !ok) return ok;

  auto const width = static_cast<std::size_t>(shape->nnz);
  std::int64_t const most = std::min(shape->nnz, shape->cols);
  RandomStream const lengths = stream.child(2);
  RandomStream const columns = stream.child(3);
  auto const& index_out = (*indices)->data;
  auto const& value_out = (*values)->data;
  parallel_for(
      static_cast<std::size_t>(shape->rows), threads,
      [&](std::size_t begin, std::size_t end) {
        std::vector<std::int64_t> row(width);
        for (std::size_t r = begin; r < end; ++r) {
          auto const used = static_cast<std::int64_t>(lengths.below(r, static_cast<std::uint64_t>(most) + 1));
          choose_sorted_columns(shape->cols, used, columns.child(r), row.data());
          for (std::size_t j = 0; j < width; ++j) {
            std::size_t const slot = r * width + j;
            if (static_cast<std::int64_t>(j) < used) {
              index_out.set_integer(slot, row[j]);
            } else {
              index_out.set_integer(slot, -1);
              value_out.set_integer(slot, 0);
            }
          }
        }
      },
      std::max<std::size_t>(1, 4096 / std::max<std::size_t>(width, 1)));
  return Ok{};
}

}  // namespace

Status fill_structured(ParamReader const& params, RandomStream const& stream,
                       std::map<std::string, StructuredTarget> const& targets, unsigned threads) {
  std::string const& kind = params.spec().kind;
  if (kind == "csr" || kind == "coo" || kind == "csc")
    return fill_compressed(params, stream, targets, threads);
  if (kind == "ell") return fill_ell(params, stream, targets, threads);
  return params.error("unknown structured kind '" + kind + "'; expected one of csr, coo, csc, ell");
}

}  // namespace kopt
