"""LayerNorm and RMSNorm over the last dimension, read off a module's graph: the layernorm and rmsnorm
families, with the parameters and eps they take (docs/pytorch.md, "Families").

Recognised: nn.LayerNorm / F.layer_norm with a weight and a bias, nn.RMSNorm / F.rms_norm with a weight and an
eps, and RMSNorm written out as people write it (`x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) *
self.weight`, its factors in any order, `x * x` or `torch.square` for the square, a division by `torch.sqrt`
for the reciprocal square root, `.float()` and `.type_as(x)` casts anywhere).
"""

from __future__ import annotations

import operator
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from .family_guess import FamilyGuess
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


def _library_norm(traced: Any, node: Any, tensors: list[Any]) -> FamilyGuess | None:
    """nn.LayerNorm, nn.RMSNorm, F.layer_norm or F.rms_norm of the one input with the module's parameters."""
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        if len(node.args) != 1 or node.kwargs or getattr(node.args[0], "op", None) != "placeholder" \
                or type(sub) not in (nn.LayerNorm, nn.RMSNorm) or not sub.elementwise_affine:
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
    args = [_tree(a, ndim) for a in node.args]
    if any(a is None for a in args) or not args:
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
    if key in (torch.mean, "mean"):
        dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
        keepdim = node.kwargs.get("keepdim", node.args[2] if len(node.args) > 2 else False)
        if set(node.kwargs) - {"dim", "keepdim"} or len(node.args) > 3 or not _last_dim(dim, ndim) or keepdim is not True:
            return None
        return ("mean_last", args[0])
    return None


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


def norm_family(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """layernorm or rmsnorm for one normalisation over the last dimension of the one input, else None."""
    if _rows(tensors) is None or not nodes:
        return None
    if len(nodes) == 1 and (guess := _library_norm(traced, nodes[0], tensors)) is not None:
        return guess
    return _written_rmsnorm(traced, nodes, tensors)
