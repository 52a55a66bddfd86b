"""Family inference for the scans of several operators: the reverse, the exclusive and the masked cumulative sum (kopt_torch.family
calls scan_family; one cumsum or cumprod is reductions.py's row_scan, col_scan and row_cumprod).

- `row_scan_reverse`, the suffix sum along the last dimension of the forward's one floating-point input (n >= 2
  dimensions), as PyTorch writes it: a flip, a cumulative sum and a flip back, each over that dimension alone,
  torch.cumsum(x.flip(d), dim=d).flip(d) or x.flip(d).cumsum(d).flip(d) (flip as a method or torch.flip(x, dims),
  its dimension an int, negative or not, or a list or tuple of one; cumsum's as reductions.py reads it, no
  `dtype` cast). Bound as row_scan: in the input, rows the product of the leading dimensions, cols the last.
- `row_scan_masked`, torch.cumsum(x * mask, dim=d) (or mask * x, torch.mul, x.mul(mask); cumsum as a function
  or a method) over the last dimension, the forward's two inputs (in either order) x a floating-point tensor of
  n >= 2 dimensions and mask a bool tensor of the same shape. Contract `void (T* out, const T* in, const uint8_t*
  mask, int rows, int cols)`: in and mask the inputs by position, rows and cols x's as row_scan's.
  torch.where(mask, x, 0) and x.masked_fill(~mask, 0) get no family: where x is infinite or NaN and the mask
  false they give 0, x * mask (what the library's strategy computes) NaN.

- `row_scan_exclusive`, the exclusive cumulative sum along the last dimension (0 in the first column) as PyTorch
  writes it: torch.cumsum(x, d) - x (or x.cumsum(d) - x, torch.sub), x the forward's one floating-point input of
  n >= 2 dimensions. The strategy computes the exclusive sums without the subtraction's cancellation (an element
  taken back off a much larger sum): the problem's own outputs are the rounded ones. Bound as row_scan.

A flip, a scan or a mask over any other dimension, a mask of another type or shape (broadcast), a float second
factor, or anything more in the graph gets no family. docs/pytorch.md, "Families".
"""

from __future__ import annotations

import operator
from typing import Any

import torch

from .elementwise import call_argument
from .family_guess import FamilyGuess
from .graph import graph_inputs, output_node
from .reductions import REDUCTION_FUNCTIONS, call_name, one_dim, rows_binding, single_axis

_MULTIPLY = {operator.mul: "mul", torch.mul: "mul"}
_SUBTRACT = {operator.sub: "sub", torch.sub: "sub"}


def _flip_dim(node: Any, ndim: int) -> int | None:
    """The one dimension (0 .. ndim-1) `node` flips: torch.flip(x, dims), x.flip(dims) or x.flip(d); else None."""
    if call_name(node, {torch.flip: "flip"}) != "flip" or set(node.kwargs) - {"dims"} \
            or len(node.args) + len(node.kwargs) != 2:
        return None  # x.flip(1, 2): several dimensions
    return single_axis(call_argument(node, 1, "dims"), ndim)


def _cumsum_over_last(node: Any, operand: Any, ndim: int) -> bool:
    """Whether `node` is one cumulative sum of `operand` over the last of its ndim dimensions."""
    return call_name(node, REDUCTION_FUNCTIONS) == "cumsum" and bool(node.args) and node.args[0] is operand \
        and one_dim(node, ndim) == ndim - 1


def _reverse_scan(nodes: list[Any], x: Any, ndim: int) -> FamilyGuess | None:
    """row_scan_reverse for flip, cumsum, flip over the last dimension of the placeholder x; else None."""
    if len(nodes) != 3:
        return None
    flip, scan, back = nodes
    last = ndim - 1
    if _flip_dim(flip, ndim) != last or flip.args[0] is not x or not _cumsum_over_last(scan, flip, ndim) \
            or _flip_dim(back, ndim) != last or back.args[0] is not scan:
        return None
    return FamilyGuess("row_scan_reverse", {}, "the module is one reverse cumulative sum (a suffix sum: flip, "
                       "cumsum, flip) over the last dimension", rows_binding(ndim, "rows", "cols"))


def _exclusive_scan(nodes: list[Any], x: Any, ndim: int) -> FamilyGuess | None:
    """row_scan_exclusive for cumsum(x) - x over the last dimension of the placeholder x; else None."""
    if len(nodes) != 2:
        return None
    scan, difference = nodes
    if not _cumsum_over_last(scan, x, ndim) or call_name(difference, _SUBTRACT) != "sub" or difference.kwargs \
            or tuple(difference.args) != (scan, x):
        return None
    return FamilyGuess("row_scan_exclusive", {}, "the module is one exclusive cumulative sum (cumsum(x) - x) over "
                       "the last dimension", rows_binding(ndim, "rows", "cols"))


def _masked_scan(nodes: list[Any], placeholders: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """row_scan_masked for cumsum(x * mask) over the last dimension, x a floating-point input and mask a bool
    one of the same shape; else None."""
    floats = [i for i, t in enumerate(tensors) if t.is_floating_point()]
    masks = [i for i, t in enumerate(tensors) if t.dtype == torch.bool]
    if len(nodes) != 2 or len(floats) != 1 or len(masks) != 1:
        return None
    xi, mi = floats[0], masks[0]
    ndim = tensors[xi].dim()
    if ndim < 2 or tuple(tensors[xi].shape) != tuple(tensors[mi].shape):
        return None  # a mask broadcast along some dimension: not one byte per element
    product, scan = nodes
    if call_name(product, _MULTIPLY) != "mul" or product.kwargs \
            or tuple(product.args) not in (tuple(placeholders), tuple(placeholders[::-1])) \
            or not _cumsum_over_last(scan, product, ndim):
        return None
    return FamilyGuess("row_scan_masked", {}, "the module is one cumulative sum over the last dimension of its "
                       "floating-point input times its bool mask",
                       rows_binding(ndim, "rows", "cols", xi) | {"mask": (mi, None)})


def scan_family(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """row_scan_reverse, row_scan_exclusive or row_scan_masked for a forward that is one reverse, exclusive or masked
    cumulative sum over the last dimension (`nodes`: the graph's operators; `tensors`: the example tensor inputs),
    or None."""
    placeholders = graph_inputs(traced.graph)
    if not nodes or len(placeholders) != len(tensors) or output_node(traced.graph).args[0] is not nodes[-1]:
        return None
    if len(tensors) == 1:
        if not tensors[0].is_floating_point() or tensors[0].dim() < 2:
            return None
        return _reverse_scan(nodes, placeholders[0], tensors[0].dim()) \
            or _exclusive_scan(nodes, placeholders[0], tensors[0].dim())
    return _masked_scan(nodes, placeholders, tensors) if len(tensors) == 2 else None
