"""Family inference for a scalar loss of two tensors: the `loss`, `loss_rows` and `loss_rows_broadcast` families
(kopt_torch.family calls loss_family).

The library's loss strategies compute `*out = finish(sum_i map(x[i], y[i]))` over two vectors of n elements
(contract `void (T* out, const T* x, const T* y, int n)`): `map` a C++ float expression over x and y, `finish` one
over s (the FP32 sum of map) and n (the element count as a float). A forward with exactly two floating-point
tensor inputs of the same shape gets the family when it is

- an element-wise expression of both inputs (every operator of the graph in it, both inputs read) followed by
  one full reduction, torch.mean(e) / e.mean() / torch.sum(e) / e.sum() with no dim and no dtype: `map` the
  expression (elementwise.py's translation, over x the forward's first input and y its second), `finish`
  `s / n` for the mean, `s` for the sum. torch.mean((p - t) ** 2), torch.mean(torch.clamp(1 - p * t, min=0))
  (hinge), (p - t).abs().sum();
- F.mse_loss, F.l1_loss, F.smooth_l1_loss (beta, default 1.0; beta 0 is l1), F.huber_loss (delta, default 1.0)
  of the two inputs in either order, or the modules nn.MSELoss, nn.L1Loss, nn.SmoothL1Loss, nn.HuberLoss called
  on them, with reduction "mean" or "sum" (and no weight, no legacy size_average / reduce): `map` as PyTorch
  defines the loss (d = input - target: mse d * d, l1 |d|, smooth_l1 |d| < beta ? 0.5 |d|^2 / beta :
  |d| - 0.5 beta, huber |d| < delta ? 0.5 |d|^2 : delta * (|d| - 0.5 delta));
- F.kl_div(input, target) or nn.KLDivLoss, input and target each an element-wise expression of the inputs (both
  read: KernelBench's F.kl_div(torch.log(p), t)), with reduction "mean" or "sum": `map` PyTorch's pointwise term,
  xlogy(t, t) - t * input (`(y == 0.0f ? 0.0f : y * logf(y)) - y * logf(x)` for KernelBench's), or
  exp(t) * (t - input) with log_target=True. Reduction "batchmean" divides the sum by the first dimension
  alone, which `finish` over s and n cannot say: a 1-D pair keeps the loss family (`s / n`), a pair of two or
  more dimensions gets `loss_rows` (contract `void (T* out, const T* x, const T* y, int rows, int cols)`, both
  rows * cols elements, `finish` over s, rows and cols: `s / rows`), rows the first dimension and cols the product
  of the others.

The `[binding]` names x and y (the forward's inputs by position) and n (the product of every dimension of the
first input), or rows and cols for loss_rows. reduction="none" (a tensor, not a scalar) and anything else get no
family.

A forward whose two floating-point inputs differ in shape gets `loss_rows_broadcast` (the loss_rows contract with
y of cols elements: term (i, j) is map(x[i][j], y[j])) when one input's shape, leading 1s dropped, is a proper
trailing part of the other's (PyTorch broadcasts it along the leading dimensions: KernelBench's hinge loss,
torch.mean(torch.clamp(1 - predictions * targets, min=0)) with predictions (B, N) and targets (N,)) and the
forward is an element-wise expression of both followed by a full mean (`finish` `s / (rows * cols)`) or sum
(`s`): x is the larger input, y the smaller, cols the product of x's dimensions that y covers and rows the
product of the others. Broadcasting along any other dimension (targets (B, 1) against (B, N)), both inputs
broadcast, or PyTorch's named losses on inputs of different shapes (which PyTorch warns about) get no family.

cross_entropy_family: F.cross_entropy(logits, targets) or nn.CrossEntropyLoss() with PyTorch's defaults (reduction
"mean", no weight, ignore_index -100, no label smoothing) on 2-D floating-point logits [N, C] and 1-D integer
class targets [N] gets `cross_entropy_mean` (contract `void (T* loss, const T* logits, const I* labels, int N,
int C)`: the mean over the rows whose label is not -100 of each row's loss), its `[binding]` naming logits,
labels, N and C by the forward's inputs (in whichever order the forward takes them). Any other reduction, a
weight, label smoothing, another ignore_index, class-probability targets or logits of another rank get no
family. docs/pytorch.md, "Families".
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from .elementwise import float_literal, is_name, node_expression, operand, uses_every_operator
from .family_guess import FamilyGuess
from .graph import graph_inputs, output_node

_FINISH = {"mean": "s / n", "sum": "s"}
_FINISH_ROWS = {"mean": "s / (rows * cols)", "sum": "s"}
_FULL_REDUCTION_FUNCTIONS = {torch.mean: "mean", torch.sum: "sum"}
_FULL_REDUCTION_METHODS = {"mean": "mean", "sum": "sum"}
_LOSS_FUNCTIONS = {F.mse_loss: "mse", F.l1_loss: "l1", F.smooth_l1_loss: "smooth_l1", F.huber_loss: "huber"}
_LOSS_MODULES = {nn.MSELoss: "mse", nn.L1Loss: "l1", nn.SmoothL1Loss: "smooth_l1", nn.HuberLoss: "huber"}
_WORDS = {"mse": "mean squared error", "l1": "L1 loss", "smooth_l1": "smooth L1 loss", "huber": "Huber loss"}


def _loss_map(kind: str, d: str, constant: Any) -> str | None:
    """PyTorch's per-element loss `kind` of the difference `d` (a C++ expression: input - target) as one C++
    float expression, `constant` smooth_l1's beta or huber's delta; None for a constant PyTorch refuses or a
    C++ float cannot hold."""
    if kind == "mse":
        return f"({d}) * ({d})"
    if kind == "l1" or (kind == "smooth_l1" and constant == 0):
        return f"fabsf({d})"
    c = float_literal(constant)
    if c is None or constant < 0 or (kind == "huber" and constant == 0):
        return None
    if kind == "smooth_l1":
        body = f"z < {c} ? 0.5f * z * z / {c} : z - 0.5f * {c}"
    else:
        body = f"z < {c} ? 0.5f * z * z : {c} * (z - 0.5f * {c})"
    return f"[](float z) {{ return {body}; }}(fabsf({d}))"


def _bound(fn: Any, node: Any) -> dict[str, Any] | None:
    """The call's arguments by parameter name, defaults included, or None when they do not fit `fn`."""
    try:
        bound = inspect.signature(fn).bind(*node.args, **node.kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    return dict(bound.arguments)


def _named_loss(traced: Any, node: Any) -> tuple[str, Any, Any, str, Any] | None:
    """(kind, input, target, reduction, beta or delta) when `node` is one of the losses above, called as a
    function or as a module; else None."""
    if node.op == "call_function" and node.target in _LOSS_FUNCTIONS:
        args = _bound(node.target, node)
        if args is None or args.get("weight") is not None or args.get("size_average") is not None \
                or args.get("reduce") is not None:
            return None
        kind = _LOSS_FUNCTIONS[node.target]
        reduction = args["reduction"]
        constant = args.get("beta", args.get("delta"))
    elif node.op == "call_module" and type(sub := traced.get_submodule(node.target)) in _LOSS_MODULES:
        args = _bound(sub.forward, node)
        if args is None:
            return None
        kind = _LOSS_MODULES[type(sub)]
        reduction = sub.reduction
        constant = getattr(sub, "beta", getattr(sub, "delta", None))
    else:
        return None
    return kind, args["input"], args["target"], reduction, constant


def _float_pair(traced: Any, tensors: list[Any]) -> list[Any] | None:
    """The two placeholders when the forward takes exactly two floating-point tensors, else None."""
    placeholders = graph_inputs(traced.graph)
    if len(placeholders) != 2 or len(tensors) != 2 or any(not t.is_floating_point() for t in tensors):
        return None
    return placeholders


def _full_reduction(last: Any) -> str | None:
    """"mean" or "sum" when `last` is one of them over every element (no dim, no dtype), else None."""
    reduction = _FULL_REDUCTION_METHODS.get(str(last.target)) if last.op == "call_method" else \
        _FULL_REDUCTION_FUNCTIONS.get(last.target) if last.op == "call_function" else None
    if reduction is None or len(last.args) != 1 or last.kwargs or not isinstance(last.args[0], torch.fx.Node):
        return None  # a dim (over part of the elements) or a dtype (a cast): no family
    return reduction


def _reduced_expression(traced: Any, last: Any, names: dict[Any, str]) -> tuple[str, str, list[str]] | None:
    """(map, "mean" or "sum", the steps) when `last` is a full mean or sum of an element-wise expression that reads
    both inputs (`names`: placeholder -> x or y) and every operator of the graph; else None."""
    reduction = _full_reduction(last)
    if reduction is None:
        return None
    expression = node_expression(traced, last.args[0], names)
    if expression is None:
        return None
    loss_map, steps, used = expression
    if not set(names) <= used or not uses_every_operator(traced.graph, used, {last}):
        return None
    return loss_map, reduction, steps


def _factor(e: str) -> str:
    """`e` as an operand of `*` or `-`: as it is when one function call (`logf(x)`), else as elementwise's
    operand (a name or a literal as it is, anything else parenthesized)."""
    call = re.fullmatch(r"[A-Za-z_]\w*\((.*)\)", e)
    return e if call is not None and _balanced(call.group(1)) else operand(e)


def _balanced(e: str) -> bool:
    depth = 0
    for c in e:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth < 0:
            return False
    return depth == 0


def _kl_call(traced: Any, node: Any) -> tuple[Any, Any, str, bool] | None:
    """(input, target, reduction, log_target) when `node` is F.kl_div or an nn.KLDivLoss module without the legacy
    size_average / reduce; else None."""
    if node.op == "call_function" and node.target is F.kl_div:
        args = _bound(F.kl_div, node)
        if args is None or args["size_average"] is not None or args["reduce"] is not None:
            return None
        return args["input"], args["target"], args["reduction"], args["log_target"]
    if node.op == "call_module" and type(sub := traced.get_submodule(node.target)) is nn.KLDivLoss:
        args = _bound(sub.forward, node)
        if args is None:
            return None
        return args["input"], args["target"], sub.reduction, sub.log_target
    return None


def _kl_map(target: str, value: str, log_target: bool) -> str:
    """PyTorch's pointwise KL divergence term of `target` against the input `value` (C++ expressions): xlogy(t, t)
    - t * input, or exp(t) * (t - input) with log_target. A target that is not a name goes to a lambda once (the
    term reads it several times)."""
    def term(t: str, v: str) -> str:
        return f"expf({t}) * ({t} - {v})" if log_target else f"({t} == 0.0f ? 0.0f : {t} * logf({t})) - {t} * {v}"
    if is_name(target):
        return term(target, _factor(value))
    return f"[](float t, float i) {{ return {term('t', 'i')}; }}({target}, {value})"


def _kl_family(traced: Any, last: Any, placeholders: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """loss or loss_rows for one F.kl_div / nn.KLDivLoss of element-wise expressions of the two same-shape
    inputs, reduction mean, sum or batchmean; else None."""
    call = _kl_call(traced, last)
    if call is None:
        return None
    value_node, target_node, reduction, log_target = call
    if reduction not in ("mean", "sum", "batchmean") or not isinstance(log_target, bool) \
            or not isinstance(value_node, torch.fx.Node) or not isinstance(target_node, torch.fx.Node):
        return None
    names = {placeholders[0]: "x", placeholders[1]: "y"}
    value = node_expression(traced, value_node, names)
    target = node_expression(traced, target_node, names)
    if value is None or target is None:
        return None
    used = value[2] | target[2]
    if not set(placeholders) <= used or not uses_every_operator(traced.graph, used, {last}):
        return None
    loss_map = _kl_map(target[0], value[0], log_target)
    ndim = tensors[0].dim()
    what = (f"the module is one KL divergence of its two inputs (input {value[0]}, target {target[0]}"
            f"{', log_target' if log_target else ''}), reduction {reduction}")
    if reduction != "batchmean" or ndim == 1:  # batchmean of a vector: the sum over its length, a mean
        return FamilyGuess("loss", {"map": loss_map, "finish": "s" if reduction == "sum" else "s / n"}, what,
                           {"x": (0, None), "y": (1, None), "n": (0, tuple(range(ndim)))})
    return FamilyGuess("loss_rows", {"map": loss_map, "finish": "s / rows"},
                       what + " (the sum divided by the first dimension)",
                       {"x": (0, None), "y": (1, None), "rows": (0, (0,)), "cols": (0, tuple(range(1, ndim)))})


def _broadcast_split(tensors: list[Any]) -> tuple[int, int, int] | None:
    """(the larger input, the smaller, k) when the smaller's shape without its leading 1s is the larger's shape
    from dimension k on, 1 <= k < the larger's rank: PyTorch broadcasts it along the larger's first k dimensions
    and y[j] beside x[i][j] reads it, rows the product of those k dimensions and cols of the rest; else None."""
    for big, small in ((0, 1), (1, 0)):
        shape, other = tuple(tensors[big].shape), tuple(tensors[small].shape)
        if len(other) > len(shape):
            continue
        trimmed = other
        while trimmed and trimmed[0] == 1:
            trimmed = trimmed[1:]
        k = len(shape) - len(trimmed)
        if trimmed and 1 <= k < len(shape) and shape[k:] == trimmed:
            return big, small, k
    return None


def _broadcast_family(traced: Any, last: Any, placeholders: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """loss_rows_broadcast for the full mean or sum of an element-wise expression of a tensor and one broadcast
    along its leading dimensions; else None."""
    split = _broadcast_split(tensors)
    if split is None:
        return None
    big, small, k = split
    reduced = _reduced_expression(traced, last, {placeholders[big]: "x", placeholders[small]: "y"})
    if reduced is None:
        return None
    loss_map, reduction, steps = reduced
    ndim = tensors[big].dim()
    return FamilyGuess("loss_rows_broadcast", {"map": loss_map, "finish": _FINISH_ROWS[reduction]},
                       f"the module is the {reduction} of an element-wise expression of its two inputs "
                       f"({', '.join(steps)}), the {('first', 'second')[small]} broadcast along the other's "
                       "leading dimensions",
                       {"x": (big, None), "y": (small, None), "rows": (big, tuple(range(k))),
                        "cols": (big, tuple(range(k, ndim)))})


def loss_family(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """loss, loss_rows or loss_rows_broadcast for a scalar loss of the forward's two floating-point inputs (`nodes`:
    the graph's operators; `tensors`: the example tensor inputs), or None."""
    placeholders = _float_pair(traced, tensors)
    if placeholders is None or not nodes:
        return None
    output = output_node(traced.graph)
    last = output.args[0]
    if last is not nodes[-1]:
        return None
    if tuple(tensors[0].shape) != tuple(tensors[1].shape):
        return _broadcast_family(traced, last, placeholders, tensors)
    if tensors[0].dim() < 1:
        return None
    names = {placeholders[0]: "x", placeholders[1]: "y"}
    binding = {"x": (0, None), "y": (1, None), "n": (0, tuple(range(tensors[0].dim())))}
    if (kl := _kl_family(traced, last, placeholders, tensors)) is not None:
        return kl
    if len(nodes) == 1 and (named := _named_loss(traced, last)) is not None:
        kind, a, b, reduction, constant = named
        if reduction not in _FINISH or not ((a is placeholders[0] and b is placeholders[1])
                                            or (a is placeholders[1] and b is placeholders[0])):
            return None
        loss_map = _loss_map(kind, f"{names[a]} - {names[b]}", constant)
        if loss_map is None:
            return None
        what = _WORDS[kind] if kind not in ("smooth_l1", "huber") else \
            f"{_WORDS[kind]} ({'beta' if kind == 'smooth_l1' else 'delta'} {constant})"
        return FamilyGuess("loss", {"map": loss_map, "finish": _FINISH[reduction]},
                           f"the module is one {what} of its two inputs, reduction {reduction}", binding)
    # An element-wise expression of both inputs, then its mean or its sum over every element.
    reduced = _reduced_expression(traced, last, names)
    if reduced is None:
        return None
    loss_map, reduction, steps = reduced
    return FamilyGuess("loss", {"map": loss_map, "finish": _FINISH[reduction]},
                       f"the module is the {reduction} of an element-wise expression of its two inputs "
                       f"({', '.join(steps)})", binding)


def _cross_entropy_call(traced: Any, node: Any) -> tuple[Any, Any, dict[str, Any]] | None:
    """(input, target, the loss's settings) when `node` is F.cross_entropy or an nn.CrossEntropyLoss module, else
    None. The settings: weight, size_average, reduce, ignore_index, reduction, label_smoothing."""
    if node.op == "call_function" and node.target is F.cross_entropy:
        args = _bound(F.cross_entropy, node)
        if args is None:
            return None
        return args["input"], args["target"], args
    if node.op == "call_module" and type(sub := traced.get_submodule(node.target)) is nn.CrossEntropyLoss:
        args = _bound(sub.forward, node)
        if args is None:
            return None
        settings = {"weight": sub.weight, "size_average": None, "reduce": None, "ignore_index": sub.ignore_index,
                    "reduction": sub.reduction, "label_smoothing": sub.label_smoothing}
        return args["input"], args["target"], settings
    return None


def cross_entropy_family(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """cross_entropy_mean for one F.cross_entropy / nn.CrossEntropyLoss with PyTorch's defaults of the forward's
    two inputs: 2-D floating-point logits [N, C] and 1-D integer class indices [N], in either order; else None."""
    placeholders = graph_inputs(traced.graph)
    if len(nodes) != 1 or len(placeholders) != 2 or len(tensors) != 2:
        return None
    output = output_node(traced.graph)
    if output.args[0] is not nodes[0] or (call := _cross_entropy_call(traced, nodes[0])) is None:
        return None
    logits, targets, settings = call
    if logits not in placeholders or targets not in placeholders or logits is targets:
        return None
    if settings["weight"] is not None or settings["size_average"] is not None or settings["reduce"] is not None \
            or settings["reduction"] != "mean" or settings["ignore_index"] != -100 \
            or settings["label_smoothing"] != 0.0:
        return None
    li, ti = placeholders.index(logits), placeholders.index(targets)
    x, t = tensors[li], tensors[ti]
    if not x.is_floating_point() or x.dim() != 2 or t.is_floating_point() or t.is_complex() \
            or t.dtype == torch.bool or t.dim() != 1 or t.shape[0] != x.shape[0]:
        return None  # class probabilities, other ranks, or targets that do not match the rows
    return FamilyGuess("cross_entropy_mean", {},
                       "the module is one cross-entropy loss of logits against class indices, reduction mean",
                       {"logits": (li, None), "labels": (ti, None), "N": (li, (0,)), "C": (li, (1,))})
