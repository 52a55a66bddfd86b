"""Attention read off a module's graph: the attention family (docs/pytorch.md, "Families").

Two forms: `F.scaled_dot_product_attention(q, k, v)` on three equal 4-D inputs [batch, heads, seq, head_dim],
causal or not, with or without a scale of the caller's; and attention written out with products and a
softmax, as models and benchmarks write it: `bmm(softmax(bmm(q, k.transpose(1, 2)) * scale, dim=-1), v)` on
3-D inputs [batch * heads, seq, head_dim] (or `matmul` / `@` on 4-D ones, the transpose of the last two
dimensions, a division by a constant for the scale). The library's contract takes the (batch * heads) slices
flat: BH is bound to the product of the leading dimensions, S and D to the last two, and a scale that is a
constant of the module (1/sqrt(head_dim) or any other) to the `scale` of the family's scaled strategies.
"""

from __future__ import annotations

import operator
from typing import Any

import torch
import torch.nn.functional as F

from .elementwise import call_argument, float_literal
from .family_guess import Binding, FamilyGuess
from .graph import graph_inputs, output_node

_MATMUL = {torch.matmul, torch.bmm, operator.matmul}
_SOFTMAX = {torch.softmax, F.softmax, "softmax"}


def _binding(ndim: int, scale: float | None) -> dict[str, Binding]:
    leading = tuple(range(ndim - 2))
    binding: dict[str, Binding] = {"Q": (0, None), "K": (1, None), "V": (2, None), "BH": (0, leading),
                                   "S": (0, (ndim - 2,)), "D": (0, (ndim - 1,))}
    if scale is not None:
        binding["scale"] = float(scale)
    return binding


def _sdpa(node: Any, tensors: list[Any]) -> FamilyGuess | None:
    """scaled_dot_product_attention(q, k, v) on equal 4-D inputs, causal or not; None for a mask, dropout or
    grouped heads."""
    if any(t.dim() != 4 for t in tensors):
        return None
    if len(node.args) != 3 or not all(getattr(a, "op", None) == "placeholder" for a in node.args):
        return None
    kwargs = dict(node.kwargs)
    causal = kwargs.pop("is_causal", False)
    scale = kwargs.pop("scale", None)
    if kwargs.pop("attn_mask", None) is not None or kwargs.pop("dropout_p", 0.0) != 0.0 \
            or kwargs.pop("enable_gqa", False) or kwargs or not isinstance(causal, bool) \
            or (scale is not None and float_literal(scale) is None):
        return None
    form = "causal" if causal else "non-causal"
    scaled = f", scale {scale:g}" if scale is not None else ""
    return FamilyGuess("attention", {"causal": "1" if causal else "0"},
                       f"the module is one {form} scaled_dot_product_attention on [batch, heads, seq, head_dim]"
                       f"{scaled}", _binding(4, scale))


def _is_product(node: Any) -> bool:
    return getattr(node, "op", None) == "call_function" and node.target in _MATMUL and len(node.args) == 2 \
        and not node.kwargs


def _transposes_last_two(node: Any, ndim: int) -> bool:
    """`k.transpose(-2, -1)` (or 1, 2 on 3-D; ndim-2, ndim-1), `k.mT`, `torch.transpose(k, ...)`."""
    if getattr(node, "op", None) not in ("call_method", "call_function") or not node.args:
        return False
    if node.op == "call_function" and node.target is getattr:
        return node.args[1:] == ("mT",)
    name = str(node.target) if node.op == "call_method" else getattr(node.target, "__name__", "")
    dims = sorted(d % ndim for d in node.args[1:] if isinstance(d, int))
    return name == "transpose" and len(node.args) == 3 and not node.kwargs and dims == [ndim - 2, ndim - 1]


def _scaled_scores(node: Any) -> tuple[Any, float] | None:
    """(the product node, its scale) for `product * c`, `c * product` or `product / c`; (node, 1.0) for the
    product itself."""
    if _is_product(node):
        return node, 1.0
    if getattr(node, "op", None) not in ("call_function", "call_method") or len(node.args) != 2 or node.kwargs:
        return None
    key = str(node.target) if node.op == "call_method" else node.target
    a, b = node.args
    if key in (operator.mul, torch.mul, "mul"):
        product, c = (a, b) if isinstance(a, torch.fx.Node) else (b, a)
        if _is_product(product) and float_literal(c) is not None:
            return product, float(c)
    if key in (operator.truediv, torch.div, "div") and _is_product(a) and float_literal(b) is not None \
            and float(b) != 0.0:
        return a, 1.0 / float(b)
    return None


def _written_out(nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """softmax(q @ k^T * scale over the last dimension) @ v, each a product of the forward's inputs."""
    ndim = tensors[0].dim()
    if ndim < 3 or any(t.shape != tensors[0].shape for t in tensors):
        return None
    output = output_node(nodes[0].graph)
    last = output.args[0]
    if not _is_product(last):
        return None
    probs, v = last.args
    placeholders = graph_inputs(nodes[0].graph)
    if v is not placeholders[2] or getattr(probs, "op", None) not in ("call_function", "call_method"):
        return None
    key = str(probs.target) if probs.op == "call_method" else probs.target
    dim = call_argument(probs, 1, "dim")
    if key not in _SOFTMAX or not isinstance(dim, int) or dim % ndim != ndim - 1 \
            or set(probs.kwargs) - {"dim", "_stacklevel", "dtype"} or probs.kwargs.get("dtype") is not None \
            or len(probs.args) > 2:
        return None
    scored = _scaled_scores(probs.args[0])
    if scored is None:
        return None
    product, scale = scored
    q, kt = product.args
    if q is not placeholders[0] or not _transposes_last_two(kt, ndim) or kt.args[0] is not placeholders[1]:
        return None
    if len(nodes) != len({last, probs, probs.args[0], product, kt}):
        return None  # another operator somewhere in the graph
    return FamilyGuess("attention", {"causal": "0"},
                       f"the module is attention written out (softmax(q k^T * {scale:g}) v) on "
                       f"[{'batch * heads' if ndim == 3 else 'batch, heads'}, seq, head_dim]", _binding(ndim, scale))


def attention_family(nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """attention for the module's forward on its three inputs q, k, v, in either form; else None."""
    if len(tensors) != 3 or not nodes:
        return None
    if len(nodes) == 1 and nodes[0].op == "call_function" and nodes[0].target is F.scaled_dot_product_attention:
        return _sdpa(nodes[0], tensors)
    return _written_out(nodes, tensors)
