"""Family inference for a forward that reduces or scans its one floating-point input over one dimension
(kopt_torch.family calls reduction_family).

Over dimension d of an n-D input (n >= 2), the input is viewed as [outer, d, inner]: outer the product of the
dimensions before d, inner the product of those after it.

- Value reductions: torch.sum, torch.mean, torch.amax, torch.amin, torch.prod, torch.logsumexp (function or
  method; `dim` an int or a 1-tuple, negative or not; keepdim either way: the same values in the same order; a
  log-sum-exp combines by log-add-exp, LOG_ADD_EXP, from -inf, and over the last dimension is `row_logsumexp`,
  which the row_reduce strategies serve too), and torch.max /
  torch.min over a `dim` followed by `.values` or `[0]` (as amax / amin). Over the last dimension
  `row_reduce` (rows the leading dimensions, cols the last); over the first `col_reduce` (rows d0, cols the
  rest); over any other `mid_reduce` (batch the outer dimensions, rows d, cols the inner ones). Each with the
  family's `combine`, `identity` and `finish` (`n` in `finish` is the count reduced). Over two or more
  consecutive dimensions (`dim` a list or tuple of them, 2026-12-07) sum, mean, amax, amin, prod and logsumexp
  view them as one (their product): row_reduce (row_logsumexp) when they are the trailing ones, col_reduce the
  leading ones, mid_reduce otherwise.
- Global pooling (2026-12-07, `adaptive_pool_family`): nn.AdaptiveAvgPool1d/2d/3d and AdaptiveMaxPool1d/2d/3d with
  an output of one element per plane, and F.adaptive_avg_pool1d/2d/3d(x, 1), on a batched input: `row_reduce`
  (mean or amax) of each of the N * C planes.
- Index reductions: torch.argmax / torch.argmin (function or method, `dim` given and not None, keepdim either way),
  and torch.max / torch.min over a `dim` followed by `.indices` or `[1]`: `mid_argmax` / `mid_argmin` over any
  dimension but the last, bound like mid_reduce, batch the constant 1 when d is the first; over the last
  `row_argmax` / `row_argmin` (rows the leading dimensions, cols the last; indices of the task's type, int64).
- torch.cumsum over the last dimension: `row_scan`; over the first: `col_scan` (rows d0, cols the rest).
- torch.cumprod over the last dimension: `row_cumprod` (bound as row_scan); over any other, no family.
  (The reverse and the masked cumulative sum, several operators each, are scans.py's.)

A `dtype` argument (a cast), several dimensions not next to each other (or all of them), no dimension, or an
integer input (whose sum PyTorch promotes to int64) gets no family. docs/pytorch.md, "Families".
"""

from __future__ import annotations

import operator
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from .elementwise import call_argument
from .family_guess import Binding, FamilyGuess
from .graph import output_node

# log(exp(a) + exp(b)) without overflow: the larger plus log1p of the smaller's exp relative to it. An operand
# at the identity (-inf: a lane or a piece with nothing to combine) gives the other unchanged, so two of them give
# -inf, not the NaN of -inf - -inf. A NaN operand gives NaN (a + b), as torch.logsumexp and torch.softmax carry it
# (fmaxf and fminf alone would pass over it). Associative and commutative up to rounding (the library's reductions combine
# in any order); each step rounds in the log domain, an absolute error of about half a unit in the last place of
# the result, so a chain of k steps stays within about sqrt(k) of them where k is a thread's share of the row.
LOG_ADD_EXP = ("(a != a || b != b ? a + b : a == -INFINITY ? b : b == -INFINITY ? a : fmaxf(a, b) + log1pf(expf(fminf(a, b) - fmaxf(a, b))))")

# Value reductions: the reduce families' combine, identity and finish (`n`: the count reduced).
_REDUCTIONS = {"sum": ("a + b", "0.0f", "s"), "mean": ("a + b", "0.0f", "s / n"),
               "amax": ("fmaxf(a, b)", "-INFINITY", "s"), "amin": ("fminf(a, b)", "INFINITY", "s"),
               "prod": ("a * b", "1.0f", "s"), "logsumexp": (LOG_ADD_EXP, "-INFINITY", "s")}
REDUCTION_FUNCTIONS = {torch.sum: "sum", torch.mean: "mean", torch.amax: "amax", torch.amin: "amin",
                       torch.prod: "prod", torch.logsumexp: "logsumexp", torch.cumsum: "cumsum",
                       torch.cumprod: "cumprod", torch.argmax: "argmax", torch.argmin: "argmin"}
# torch.max / torch.min over a dimension return (values, indices): what each of the two selects.
_VALUES_INDICES = {"max": ("amax", "argmax"), "min": ("amin", "argmin")}
_EXTREMA_FUNCTIONS = {torch.max: "max", torch.min: "min"}


def last_dim(dim: Any, ndim: int) -> bool:
    return isinstance(dim, int) and (dim == -1 or dim == ndim - 1)


def rows_binding(ndim: int, rows: str, cols: str, tensor: int = 0) -> dict[str, Binding]:
    """A row-wise family's roles on one input (the forward's `tensor`-th, its one by default): its rows the
    product of the leading dimensions, its row length the last dimension (names alone would not tell
    `batch_size` from `dim`)."""
    return {"in": (tensor, None), rows: (tensor, tuple(range(ndim - 1))), cols: (tensor, (ndim - 1,))}


def call_name(node: Any, functions: dict[Any, str]) -> str | None:
    """A call's name: a method's own, a function's from `functions` (None for any other function or node)."""
    if node.op == "call_method":
        return str(node.target)
    return functions.get(node.target) if node.op == "call_function" else None


def one_dim(node: Any, ndim: int) -> int | None:
    """The one dimension (0 .. ndim-1) a call reduces over, when it reduces over exactly one in the input's own
    precision (no `dtype` cast, no `out`, keepdim a constant); else None."""
    if set(node.kwargs) - {"dim", "keepdim", "dtype"} or node.kwargs.get("dtype") is not None \
            or len(node.args) > 3 or not isinstance(call_argument(node, 2, "keepdim", False), bool):
        return None
    return single_axis(call_argument(node, 1, "dim"), ndim)


def single_axis(dim: Any, ndim: int) -> int | None:
    """`dim` (an int, negative or not, or a list or tuple of one) as 0 .. ndim-1, else None."""
    if isinstance(dim, (list, tuple)) and len(dim) == 1:
        dim = dim[0]
    if not isinstance(dim, int) or isinstance(dim, bool) or not -ndim <= dim < ndim:
        return None
    return dim % ndim


def axis_span(node: Any, ndim: int) -> tuple[int, int] | None:
    """The first and last of two or more consecutive dimensions (0 .. ndim-1) a value reduction reduces over (`dim` a
    list or tuple of them, in any order, negative or not), in the input's own precision; else None."""
    if set(node.kwargs) - {"dim", "keepdim", "dtype"} or node.kwargs.get("dtype") is not None \
            or len(node.args) > 3 or not isinstance(call_argument(node, 2, "keepdim", False), bool):
        return None
    dims = call_argument(node, 1, "dim")
    if not isinstance(dims, (list, tuple)) or len(dims) < 2 \
            or any(not isinstance(d, int) or isinstance(d, bool) or not -ndim <= d < ndim for d in dims):
        return None
    axes = sorted(d % ndim for d in dims)
    if axes != list(range(axes[0], axes[0] + len(axes))):
        return None
    return axes[0], axes[-1]


def _span_family(name: str, first: int, last: int, ndim: int, what: str) -> FamilyGuess | None:
    """The family of value reduction `name` over the consecutive dimensions first .. last of an ndim-D input, viewed
    as one dimension (their product): row_reduce when they are the trailing ones (rows the dimensions before them),
    col_reduce when they are the leading ones, mid_reduce otherwise; None over every dimension."""
    if name not in _REDUCTIONS or (first == 0 and last == ndim - 1):
        return None
    combine, identity, finish = _REDUCTIONS[name]
    params = {"combine": combine, "identity": identity, "finish": finish}
    span, before, after = tuple(range(first, last + 1)), tuple(range(first)), tuple(range(last + 1, ndim))
    if last == ndim - 1:
        return FamilyGuess(_row_family(name), params,
                           f"the module is one {what} over the trailing dimensions {list(span)}",
                           {"in": (0, None), "rows": (0, before), "cols": (0, span)})
    if first == 0:
        return FamilyGuess("col_reduce", params, f"the module is one {what} over the leading dimensions {list(span)}",
                           {"in": (0, None), "rows": (0, span), "cols": (0, after)})
    return FamilyGuess("mid_reduce", params, f"the module is one {what} over the dimensions {list(span)} of {ndim}",
                       {"in": (0, None), "batch": (0, before), "rows": (0, span), "cols": (0, after)})


def _row_family(name: str) -> str:
    """row_logsumexp for a log-sum-exp over the trailing dimensions (its own online strategy, and the row_reduce
    ones with LOG_ADD_EXP), row_reduce for any other value reduction."""
    return "row_logsumexp" if name == "logsumexp" else "row_reduce"


def _reduce_binding(d: int, ndim: int, batch_one: bool = False) -> dict[str, Binding]:
    """mid_reduce's and mid_argmax's roles: batch the dimensions before d (the constant 1 when there are none
    and `batch_one`), rows d, cols the dimensions after it."""
    batch: Binding = (0, tuple(range(d))) if d > 0 or not batch_one else 1
    return {"in": (0, None), "batch": batch, "rows": (0, (d,)), "cols": (0, tuple(range(d + 1, ndim)))}


def _axis_family(name: str, d: int, ndim: int) -> FamilyGuess | None:
    """The family of reduction or scan `name` over dimension d (normalised) of an ndim-D input, or None."""
    last = d == ndim - 1
    if name in _REDUCTIONS:
        combine, identity, finish = _REDUCTIONS[name]
        params = {"combine": combine, "identity": identity, "finish": finish}
        if last:
            return FamilyGuess(_row_family(name), params, f"the module is one {name} over the last dimension",
                               rows_binding(ndim, "rows", "cols"))
        if d == 0:
            return FamilyGuess("col_reduce", params, f"the module is one {name} over the first dimension",
                               {"in": (0, None), "rows": (0, (0,)), "cols": (0, tuple(range(1, ndim)))})
        return FamilyGuess("mid_reduce", params, f"the module is one {name} over dimension {d} of {ndim}",
                           _reduce_binding(d, ndim))
    if name in ("argmax", "argmin"):
        if last:
            return FamilyGuess(f"row_{name}", {}, f"the module is one {name} over the last dimension",
                               rows_binding(ndim, "rows", "cols"))
        where = "the first dimension" if d == 0 else f"dimension {d} of {ndim}"
        return FamilyGuess(f"mid_{name}", {}, f"the module is one {name} over {where}",
                           _reduce_binding(d, ndim, batch_one=True))
    if name == "cumsum" and last:
        return FamilyGuess("row_scan", {}, "the module is one cumulative sum over the last dimension",
                           rows_binding(ndim, "rows", "cols"))
    if name == "cumprod" and last:
        return FamilyGuess("row_cumprod", {}, "the module is one cumulative product over the last dimension",
                           rows_binding(ndim, "rows", "cols"))
    if name == "cumsum" and d == 0:
        return FamilyGuess("col_scan", {}, "the module is one cumulative sum over the first dimension",
                           {"in": (0, None), "rows": (0, (0,)), "cols": (0, tuple(range(1, ndim)))})
    return None


def _selected(node: Any, call: Any) -> int | None:
    """0 when `node` is `call.values` or `call[0]`, 1 when it is `call.indices` or `call[1]`, else None."""
    if node.op != "call_function" or node.kwargs or len(node.args) != 2 or node.args[0] is not call:
        return None
    if node.target is getattr:
        return {"values": 0, "indices": 1}.get(node.args[1])
    if node.target is operator.getitem and node.args[1] in (0, 1) and not isinstance(node.args[1], bool):
        return node.args[1]
    return None


def reduction_family(nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """The family of a forward that is one reduction or scan of its one floating-point input over one of its
    dimensions (`nodes`: the graph's operators; `tensors`: the example tensor inputs), or None."""
    if len(tensors) != 1 or tensors[0].dim() < 2 or not tensors[0].is_floating_point() or not 1 <= len(nodes) <= 2:
        return None
    ndim, call = tensors[0].dim(), nodes[0]
    if not call.args or getattr(call.args[0], "op", None) != "placeholder":
        return None
    output = output_node(call.graph)
    if output.args[0] is not nodes[-1]:
        return None
    if len(nodes) == 1:
        name = call_name(call, REDUCTION_FUNCTIONS)
        if name not in _REDUCTIONS and name not in ("cumsum", "cumprod", "argmax", "argmin"):
            return None
        if (span := axis_span(call, ndim)) is not None:
            return _span_family(name, *span, ndim, name)
    else:  # torch.max / torch.min over a dim, then its values or its indices
        extremum = call_name(call, _EXTREMA_FUNCTIONS)
        which = _selected(nodes[1], call)
        if extremum not in _VALUES_INDICES or which is None:
            return None
        name = _VALUES_INDICES[extremum][which]
    d = one_dim(call, ndim)  # None without a dim: torch.max(x) is a maximum of everything
    return _axis_family(name, d, ndim) if d is not None else None


# Global poolings: the reduction and the number of spatial axes.
ADAPTIVE_POOLS = {nn.AdaptiveAvgPool1d: ("mean", 1), nn.AdaptiveAvgPool2d: ("mean", 2),
                  nn.AdaptiveAvgPool3d: ("mean", 3), nn.AdaptiveMaxPool1d: ("amax", 1),
                  nn.AdaptiveMaxPool2d: ("amax", 2), nn.AdaptiveMaxPool3d: ("amax", 3)}
_ADAPTIVE_FUNCTIONS = {F.adaptive_avg_pool1d: ("mean", 1), F.adaptive_avg_pool2d: ("mean", 2),
                       F.adaptive_avg_pool3d: ("mean", 3)}


def adaptive_pool_family(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """row_reduce for a global pooling of the one batched input: nn.AdaptiveAvgPool1d/2d/3d or AdaptiveMaxPool1d/2d/3d
    (without indices) with an output size of 1 on every axis, or F.adaptive_avg_pool1d/2d/3d(x, 1): the mean or the
    maximum of each of the N * C planes (rows the batch and channel dimensions, cols the spatial ones; the output,
    N x C x 1 ..., holds them in that order)."""
    if len(nodes) != 1 or len(tensors) != 1 or not tensors[0].is_floating_point():
        return None
    node, ndim = nodes[0], tensors[0].dim()
    if not node.args or getattr(node.args[0], "op", None) != "placeholder" \
            or output_node(node.graph).args[0] is not node:
        return None
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        if type(sub) not in ADAPTIVE_POOLS or len(node.args) != 1 or node.kwargs \
                or getattr(sub, "return_indices", False):
            return None
        (name, axes), size = ADAPTIVE_POOLS[type(sub)], sub.output_size
    elif node.op == "call_function" and node.target in _ADAPTIVE_FUNCTIONS and len(node.args) <= 2 \
            and set(node.kwargs) <= {"output_size"}:
        (name, axes), size = _ADAPTIVE_FUNCTIONS[node.target], call_argument(node, 1, "output_size")
    else:
        return None
    sizes = (size,) * axes if isinstance(size, int) else tuple(size) if isinstance(size, (list, tuple)) else ()
    if ndim != axes + 2 or len(sizes) != axes or any(v != 1 or isinstance(v, bool) for v in sizes):
        return None
    combine, identity, finish = _REDUCTIONS[name]
    what = "average" if name == "mean" else "maximum"
    return FamilyGuess("row_reduce", {"combine": combine, "identity": identity, "finish": finish},
                       f"the module is one global {what} pooling (of each of the N * C planes)",
                       {"in": (0, None), "rows": (0, (0, 1)), "cols": (0, tuple(range(2, ndim)))})
