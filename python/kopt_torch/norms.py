"""LayerNorm and RMSNorm over the last dimension, read off a module's graph: the layernorm and rmsnorm
families, with the parameters and eps they take (docs/pytorch.md, "Families").

Recognised: nn.LayerNorm / F.layer_norm with a weight and a bias, nn.RMSNorm / F.rms_norm with a weight and an
eps, and RMSNorm written out as people write it (`x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) *
self.weight`, its factors in any order, `x * x` or `torch.square` for the square, a division by `torch.sqrt`
for the reciprocal square root, `.float()` and `.type_as(x)` casts anywhere).

Also (decided 2026-12-06): nn.InstanceNorm1d/2d/3d without running statistics and nn.LayerNorm without affine
parameters (`row_standardize`: rows the planes, or the leading dimensions), nn.GroupNorm and nn.InstanceNorm with
affine parameters (`group_norm`, G = C for the instance norm; since 2026-12-07 a GroupNorm of an N x C input too,
planes of one element), and the input scaled by a statistic of itself over
one dimension, the trailing ones or all of them (`row_normalize` over the last or trailing dimensions and over
everything, `mid_normalize` over another one): x / torch.norm(x, p, dim, keepdim=True) for p = 1, 2, inf or
'fro', torch.linalg.vector_norm, F.normalize, x / x.abs().mean(dim, keepdim=True), x / torch.sqrt(torch.mean(x **
2, dim=1, keepdim=True) + eps), with `map`, `combine`, `identity` and `finish` (the multiplier) read off the
expression.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from .family_guess import Binding, FamilyGuess
from .graph import graph_inputs, output_node

_MUL = {operator.mul, torch.mul, "mul"}
_DIV = {operator.truediv, torch.div, "div"}
_ADD = {operator.add, torch.add, "add"}
_CASTS = {"float", "contiguous", "type_as", "to"}

Tree = tuple[Any, ...]


def _rows(tensors: list[Any], ndim_at_least: int = 2) -> tuple[int, ...] | None:
    """The leading dimensions of the one floating-point input (N is their product), or None."""
    if len(tensors) != 1 or not tensors[0].is_floating_point() or tensors[0].dim() < ndim_at_least:
        return None
    return tuple(range(tensors[0].dim() - 1))


def _normalized_dims(shape: Any, tensor: Any) -> int | None:
    """How many trailing dimensions of `tensor` a normalized_shape covers (nn.LayerNorm((C, H, W)) over an
    [N, C, H, W] input: 3), leaving at least one leading dimension; None when it is not the input's trailing
    dimensions. The library's rows are then the leading dimensions' product, each row the trailing ones' product
    of contiguous values, and the weights of that many elements."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    k = len(shape)
    return k if 0 < k < tensor.dim() and tuple(tensor.shape[-k:]) == shape else None


def _guess(family: str, what: str, tensors: list[Any], pointers: dict[str, str], eps: float,
           normalized: int = 1) -> FamilyGuess:
    ndim = tensors[0].dim()
    binding: dict[str, Any] = {"in": (0, None)}
    binding.update({role: (key, None) for role, key in pointers.items()})
    binding.update({"N": (0, tuple(range(ndim - normalized))), "C": (0, tuple(range(ndim - normalized, ndim))),
                    "eps": float(eps)})
    over = "the last dimension" if normalized == 1 else f"the last {normalized} dimensions"
    return FamilyGuess(family, {}, f"the module is {what} over {over} (eps {eps:g})", binding)


def _module_on_input(traced: Any, node: Any) -> nn.Module | None:
    """The submodule a call_module node applies to the forward's input itself (its one argument), else None."""
    if node.op != "call_module" or len(node.args) != 1 or node.kwargs \
            or getattr(node.args[0], "op", None) != "placeholder":
        return None
    return traced.get_submodule(node.target)


def _library_norm(traced: Any, node: Any, tensors: list[Any]) -> FamilyGuess | None:
    """nn.LayerNorm, nn.RMSNorm, F.layer_norm or F.rms_norm of the one input with the module's parameters."""
    if node.op == "call_module":
        sub = _module_on_input(traced, node)
        if type(sub) not in (nn.LayerNorm, nn.RMSNorm) or not sub.elementwise_affine:
            return None
        k = _normalized_dims(sub.normalized_shape, tensors[0])
        if k is None:
            return None
        if type(sub) is nn.LayerNorm:
            if sub.bias is None:
                return None
            return _guess("layernorm", "one LayerNorm", tensors,
                          {"gamma": f"{node.target}.weight", "beta": f"{node.target}.bias"}, sub.eps, k)
        if sub.eps is None:  # torch.finfo(dtype).eps: depends on the precision; no family
            return None
        return _guess("rmsnorm", "one RMSNorm", tensors, {"weight": f"{node.target}.weight"}, sub.eps, k)
    if node.op != "call_function" or node.target not in (F.layer_norm, F.rms_norm):
        return None
    layer = node.target is F.layer_norm
    names = ("input", "normalized_shape", "weight", "bias", "eps") if layer else \
        ("input", "normalized_shape", "weight", "eps")
    if any(k not in names for k in node.kwargs) or len(node.args) > len(names):
        return None
    arg = {n: node.kwargs.get(n, node.args[i] if i < len(node.args) else None) for i, n in enumerate(names)}
    params = [arg["weight"], arg["bias"]] if layer else [arg["weight"]]
    k = _normalized_dims(arg["normalized_shape"], tensors[0])
    if getattr(arg["input"], "op", None) != "placeholder" or any(getattr(p, "op", None) != "get_attr" for p in params) \
            or k is None:
        return None
    eps = arg["eps"] if arg["eps"] is not None else (1e-5 if layer else None)
    if not isinstance(eps, (int, float)) or isinstance(eps, bool):
        return None
    if layer:
        return _guess("layernorm", "one layer_norm", tensors, {"gamma": params[0].target, "beta": params[1].target},
                      eps, k)
    return _guess("rmsnorm", "one rms_norm", tensors, {"weight": params[0].target}, eps, k)


def _last_dim(dim: Any, ndim: int) -> bool:
    if isinstance(dim, (tuple, list)) and len(dim) == 1:
        dim = dim[0]
    return isinstance(dim, int) and not isinstance(dim, bool) and dim in (-1, ndim - 1)


def _tree(node: Any, ndim: int) -> Tree | None:
    """A canonical form of the value `node` computes, for the arithmetic a hand-written norm uses: products
    flattened into sorted factors (a division is a product with the reciprocal, 1/sqrt is rsqrt, x*x a
    square), sums into sorted terms, casts dropped; None for anything else."""
    if not isinstance(node, torch.fx.Node):
        return ("c", float(node)) if isinstance(node, (int, float)) and not isinstance(node, bool) else None
    if node.op == "placeholder":
        return ("in", node.name)
    if node.op == "get_attr":
        return ("param", node.target)
    if node.op not in ("call_function", "call_method"):
        return None
    key = str(node.target) if node.op == "call_method" else node.target
    if key in _CASTS:  # the family computes in float and writes the task's precision
        return _tree(node.args[0], ndim) if node.args else None
    if not node.args:
        return None
    if key in _REDUCING:  # their arguments after the input are dimensions, flags and a p, not values
        arg = _tree(node.args[0], ndim)
        return _REDUCING[key](node, arg, ndim) if arg is not None else None
    args = [_tree(a, ndim) for a in node.args]
    if any(a is None for a in args):
        return None
    if key in _MUL and len(args) == 2 and not node.kwargs:
        return _product(args)
    if key in _DIV and len(args) == 2 and not node.kwargs:
        return _product([args[0], _reciprocal(args[1])])
    if key in _ADD and len(args) == 2 and not node.kwargs:
        return ("add", *sorted(args, key=repr))
    if key in (torch.rsqrt, "rsqrt") and len(args) == 1:
        return ("rsqrt", args[0])
    if key in (torch.sqrt, "sqrt") and len(args) == 1:
        return ("sqrt", args[0])
    if key in (torch.reciprocal, "reciprocal") and len(args) == 1:
        return _reciprocal(args[0])
    if (key in (torch.pow, operator.pow, "pow") and len(args) == 2 and args[1] == ("c", 2.0)) \
            or (key in (torch.square, "square") and len(args) == 1):
        return ("square", args[0])
    if key in (torch.abs, "abs") and len(args) == 1 and not node.kwargs:
        return ("abs", args[0])
    return None


def _sum_tree(node: Any, arg: Tree, ndim: int) -> Tree | None:
    """torch.sum / torch.mean (function or method) over dims with keepdim, or over everything."""
    dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
    keepdim = node.kwargs.get("keepdim", node.args[2] if len(node.args) > 2 else False)
    if set(node.kwargs) - {"dim", "keepdim"} or len(node.args) > 3:
        return None
    name = "mean" if node.target in (torch.mean, "mean") else "sum"
    if name == "mean" and _last_dim(dim, ndim) and keepdim is True:
        return ("mean_last", arg)
    return _reduce(name, dim, keepdim, arg, ndim)


def _dims(dim: Any, ndim: int) -> tuple[int, ...] | str | None:
    """A reduction's dimensions, normalised and sorted, or "all" for none given; None when not constants."""
    if dim is None:
        return "all"
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    if not dims or any(not isinstance(d, int) or isinstance(d, bool) or not -ndim <= d < ndim for d in dims):
        return None
    return tuple(sorted({d % ndim for d in dims}))


def _reduce(name: str, dim: Any, keepdim: Any, arg: Tree, ndim: int) -> Tree | None:
    """("reduce", sum | mean | max, dims, arg): over dims with keepdim (a value broadcast back over them), or
    over everything (a scalar)."""
    dims = _dims(dim, ndim)
    if dims is None or (dims != "all" and keepdim is not True):
        return None
    return ("reduce", name, dims, arg)


# torch.norm(x, p, dim, keepdim), x.norm(...), torch.linalg.norm and torch.linalg.vector_norm: (p, dim, keepdim)
# by position after the input (linalg.norm's p is `ord`).
_NORMS = {torch.norm: "p", "norm": "p", torch.linalg.vector_norm: "ord", torch.linalg.norm: "ord"}


def _norm_tree(node: Any, arg: Tree, ndim: int) -> Tree | None:
    """A vector norm of `arg` as a tree: p = 2 (or None, 'fro') sqrt(sum x^2), p = 1 sum |x|, p = inf max |x|."""
    key = str(node.target) if node.op == "call_method" else node.target
    p_name = _NORMS[key]
    names = (p_name, "dim", "keepdim")
    unset = {k for k in ("out", "dtype") if node.kwargs.get(k, 0) is None}  # fx writes torch.norm's defaults
    if set(node.kwargs) - set(names) - unset or len(node.args) > 4:
        return None
    given = {n: node.kwargs.get(n, node.args[i + 1] if len(node.args) > i + 1 else None) for i, n in enumerate(names)}
    p, keepdim = given[p_name], given["keepdim"] or False
    if key is torch.linalg.norm and given["dim"] is None and p is not None:
        return None  # a matrix norm of a matrix, over everything only as the Frobenius one
    if p in (2, 2.0, None, "fro"):
        inner = _reduce("sum", given["dim"], keepdim, ("square", arg), ndim)
        return ("sqrt", inner) if inner is not None else None
    if p in (1, 1.0):
        return _reduce("sum", given["dim"], keepdim, ("abs", arg), ndim)
    if p == float("inf"):
        return _reduce("max", given["dim"], keepdim, ("abs", arg), ndim)
    return None


def _normalize_tree(node: Any, arg: Tree, ndim: int) -> Tree | None:
    """F.normalize(x, p=2.0, dim=1, eps=1e-12): x / max(norm_p(x over dim), eps)."""
    names = ("input", "p", "dim", "eps")
    if set(node.kwargs) - set(names) - ({"out"} if node.kwargs.get("out", 0) is None else set()) \
            or len(node.args) > 4:
        return None
    given = {n: node.kwargs.get(n, node.args[i] if len(node.args) > i else None) for i, n in enumerate(names)}
    p = 2.0 if given["p"] is None else given["p"]
    dim = 1 if given["dim"] is None else given["dim"]
    eps = 1e-12 if given["eps"] is None else given["eps"]
    if p not in (1, 1.0, 2, 2.0) or not isinstance(eps, (int, float)) or isinstance(eps, bool):
        return None
    inner = _reduce("sum", dim, True, ("square", arg) if p in (2, 2.0) else ("abs", arg), ndim)
    if inner is None:
        return None
    norm = ("sqrt", inner) if p in (2, 2.0) else inner
    return _product([arg, ("inv", ("fmax", norm, ("c", float(eps))))])


# Calls whose first argument is the value and whose others configure the reduction.
_REDUCING = {torch.mean: _sum_tree, "mean": _sum_tree, torch.sum: _sum_tree, "sum": _sum_tree,
             **{key: _norm_tree for key in _NORMS}, F.normalize: _normalize_tree}


def _reciprocal(t: Tree) -> Tree:
    return ("rsqrt", t[1]) if t[0] == "sqrt" else ("inv", t)


def _product(factors: list[Tree]) -> Tree:
    flat: list[Tree] = []
    for f in factors:
        flat.extend(f[1:] if f[0] == "mul" else [f])
    if len(flat) == 2 and flat[0] == flat[1]:
        return ("square", flat[0])
    return ("mul", *sorted(flat, key=repr))


def _written_rmsnorm(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """RMSNorm written out: x * rsqrt(mean(x^2 over the last dimension, keepdim) + eps) * weight."""
    output = output_node(traced.graph)
    x = graph_inputs(traced.graph)
    if len(x) != 1 or not isinstance(output.args[0], torch.fx.Node):
        return None
    tree = _tree(output.args[0], tensors[0].dim())
    if tree is None or tree[0] != "mul" or len(tree) != 4:
        return None
    factors = list(tree[1:])
    xt = ("in", x[0].name)
    params = [f for f in factors if f[0] == "param"]
    scales = [f for f in factors if f[0] == "rsqrt" and f[1][0] == "add" and len(f[1]) == 3]
    if xt not in factors or len(params) != 1 or len(scales) != 1:
        return None
    terms = list(scales[0][1][1:])
    mean = ("mean_last", ("square", xt))
    eps = [t for t in terms if t[0] == "c"]
    if mean not in terms or len(eps) != 1:
        return None
    weight = traced.get_parameter(params[0][1]) if params[0][1] in dict(traced.named_parameters()) else None
    if weight is None or tuple(weight.shape) != (tensors[0].shape[-1],):
        return None
    return _guess("rmsnorm", "RMSNorm written out", tensors, {"weight": params[0][1]}, eps[0][1])


_INSTANCE_NORMS = {nn.InstanceNorm1d: 3, nn.InstanceNorm2d: 4, nn.InstanceNorm3d: 5}
_BATCH_NORMS = {nn.BatchNorm1d: (2, 3), nn.BatchNorm2d: (4,), nn.BatchNorm3d: (5,)}


def _batch_norm(traced: Any, node: Any, tensors: list[Any]) -> FamilyGuess | None:
    """batchnorm_train for one nn.BatchNorm1d/2d/3d with affine parameters that normalises by the batch's statistics
    (in training mode, as KernelBench's harness and kopt's reference run a module, or without running
    statistics); batchnorm (given statistics) for one in eval mode with running statistics. The input is viewed
    as N x C x H x W: H the spatial dimensions but the last (1 when there are none), W the last one (1 likewise)."""
    sub, ndim = _module_on_input(traced, node), tensors[0].dim()
    if sub is None:
        return None
    if type(sub) not in _BATCH_NORMS or ndim not in _BATCH_NORMS[type(sub)] or not sub.affine:
        return None
    name, eps, key = type(sub).__name__, float(sub.eps), node.target
    shape: dict[str, Binding] = {"N": (0, (0,)), "C": (0, (1,)),
                                 "H": (0, tuple(range(2, ndim - 1))) if ndim > 3 else 1,
                                 "W": (0, (ndim - 1,)) if ndim > 2 else 1}
    binding: dict[str, Binding] = {"x": (0, None), "gamma": (f"{key}.weight", None), "beta": (f"{key}.bias", None),
                                   "eps": eps, **shape}
    running = (f"{key}.running_mean", f"{key}.running_var", f"{key}.num_batches_tracked")
    if sub.training or not sub.track_running_stats:
        return FamilyGuess("batchnorm_train", {}, f"the module is one {name} normalising by the batch's statistics "
                           f"(training mode; eps {eps:g})", binding,
                           unused=running if sub.track_running_stats else ())
    return FamilyGuess("batchnorm", {}, f"the module is one {name} in eval mode (its running statistics; eps {eps:g})",
                       {**binding, "mean": (running[0], None), "var": (running[1], None)}, unused=running[2:])


def _segment_norm(traced: Any, node: Any, tensors: list[Any]) -> FamilyGuess | None:
    """row_standardize or group_norm for one nn.InstanceNorm*, nn.GroupNorm or affine-free nn.LayerNorm of the
    one input: each (sample, channel) plane, (sample, group) slab or row standardised with the biased variance."""
    sub, ndim = _module_on_input(traced, node), tensors[0].dim()
    if sub is None:
        return None
    name, eps = type(sub).__name__, float(getattr(sub, "eps", 0.0) or 0.0)
    plain = {"x": (0, None), "eps": eps}
    if type(sub) is nn.LayerNorm and not sub.elementwise_affine:
        k = _normalized_dims(sub.normalized_shape, tensors[0])
        if k is None:
            return None
        return FamilyGuess("row_standardize", {}, f"the module is one LayerNorm without affine parameters (eps {eps:g})",
                           {**plain, "rows": (0, tuple(range(ndim - k))), "cols": (0, tuple(range(ndim - k, ndim)))})
    spatial = tuple(range(2, ndim))
    affine = {"gamma": (f"{node.target}.weight", None), "beta": (f"{node.target}.bias", None),
              "N": (0, (0,)), "C": (0, (1,)), "HW": (0, spatial)}
    if type(sub) in _INSTANCE_NORMS:
        # With running statistics the module reads (in eval mode) or updates (in training) buffers; without
        # them both modes normalise each plane by its own statistics.
        if ndim != _INSTANCE_NORMS[type(sub)] or sub.track_running_stats:
            return None
        if not sub.affine:
            return FamilyGuess("row_standardize", {}, f"the module is one {name} without affine parameters "
                               f"(eps {eps:g}): each of the N * C planes standardised",
                               {**plain, "rows": (0, (0, 1)), "cols": (0, spatial)})
        return FamilyGuess("group_norm", {}, f"the module is one {name} with affine parameters (eps {eps:g}): a "
                           "GroupNorm of one channel per group", {**plain, **affine, "G": (0, (1,))})
    if type(sub) is nn.GroupNorm and ndim >= 2 and sub.affine:  # an N x C input: planes of one element, HW 1
        return FamilyGuess("group_norm", {}, f"the module is one GroupNorm of {sub.num_groups} groups (eps {eps:g})",
                           {**plain, **affine, "G": int(sub.num_groups)})
    return None


def _finish(t: Tree, statistic: Tree) -> str | None:
    """The multiplier `t` as a C++ expression in FP32 over `s` (the combined value) and `n` (the count), where
    `statistic` is the one reduction in it; None for anything else."""
    if t == statistic:
        return "(s / n)" if statistic[1] == "mean" else "s"
    parts = [_finish(a, statistic) for a in t[1:]] if t[0] in ("sqrt", "rsqrt", "inv", "add", "mul", "fmax") else []
    if t[0] == "c":
        return f"{t[1]!r}f" if math.isfinite(t[1]) else None
    if not parts or any(p is None for p in parts):
        return None
    if t[0] in ("sqrt", "rsqrt"):
        return f"{t[0]}f({parts[0]})"
    if t[0] == "inv":
        return f"(1.0f / {parts[0]})"
    if t[0] == "fmax":
        return f"fmaxf({parts[0]}, {parts[1]})"
    return "(" + (" + " if t[0] == "add" else " * ").join(parts) + ")"


def _statistics(t: Tree) -> set[Tree]:
    if not isinstance(t, tuple) or not t:
        return set()
    if t[0] == "reduce":
        return {t}
    return set().union(*(_statistics(a) for a in t[1:] if isinstance(a, tuple)))


def _scaled_by_statistic(traced: Any, tensors: list[Any]) -> FamilyGuess | None:
    """row_normalize or mid_normalize: the one input times (or divided by) a function of one reduction of it over
    the last or trailing dimensions, everything, or one other dimension."""
    output, x = output_node(traced.graph), graph_inputs(traced.graph)
    if len(x) != 1 or len(tensors) != 1 or not isinstance(output.args[0], torch.fx.Node) \
            or not tensors[0].is_floating_point():
        return None
    ndim = tensors[0].dim()
    tree = _tree(output.args[0], ndim)
    xt = ("in", x[0].name)
    if tree is None or tree[0] != "mul" or len(tree) != 3 or xt not in tree[1:]:
        return None
    factor = tree[2] if tree[1] == xt else tree[1]
    factor = _canonical_reductions(factor, ndim)
    found = _statistics(factor)
    if len(found) != 1:
        return None
    statistic = found.pop()
    _, name, dims, mapped = statistic
    map_expr = {xt: "v", ("square", xt): "v * v", ("abs", xt): "fabsf(v)"}.get(mapped)
    finish = _finish(factor, statistic)
    if map_expr is None or finish is None:
        return None
    combine, identity = ("fmaxf(a, b)", "-INFINITY") if name == "max" else ("a + b", "0.0f")
    params = {"map": map_expr, "combine": combine, "identity": identity, "finish": finish}
    what = f"the input scaled by {finish} of the {name} of {map_expr} over"
    if dims == "all" or dims == tuple(range(ndim)):
        return FamilyGuess("row_normalize", params, f"{what} the whole tensor (one row)",
                           {"in": (0, None), "rows": 1, "cols": (0, tuple(range(ndim)))})
    if dims == tuple(range(dims[0], ndim)):
        return FamilyGuess("row_normalize", params, f"{what} the trailing dimensions {list(dims)}",
                           {"in": (0, None), "rows": (0, tuple(range(dims[0]))), "cols": (0, dims)})
    if len(dims) != 1:
        return None
    d = dims[0]
    batch: Binding = (0, tuple(range(d))) if d > 0 else 1
    return FamilyGuess("mid_normalize", params, f"{what} dimension {d} of {ndim}",
                       {"in": (0, None), "batch": batch, "rows": (0, (d,)), "cols": (0, tuple(range(d + 1, ndim)))})


def _canonical_reductions(t: Tree, ndim: int) -> Tree:
    """The tree with `mean_last` (the RMSNorm matcher's form) as the reduce node it is."""
    if not isinstance(t, tuple) or not t:
        return t
    if t[0] == "mean_last":
        return ("reduce", "mean", (ndim - 1,), _canonical_reductions(t[1], ndim))
    return tuple(_canonical_reductions(a, ndim) if isinstance(a, tuple) else a for a in t)


def norm_family(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """layernorm or rmsnorm for one normalisation over the last dimension of the one input, row_standardize or
    group_norm for an instance, group or affine-free layer norm, row_normalize or mid_normalize for the input
    scaled by a statistic of itself; else None."""
    if len(tensors) == 1 and tensors[0].is_floating_point() and nodes \
            and (scaled := _scaled_by_statistic(traced, tensors)) is not None:
        return scaled
    if _rows(tensors) is None or not nodes:
        return None
    if len(nodes) == 1 and (guess := _library_norm(traced, nodes[0], tensors) or
                            _segment_norm(traced, nodes[0], tensors) or
                            _batch_norm(traced, nodes[0], tensors)) is not None:
        return guess
    return _written_rmsnorm(traced, nodes, tensors)
