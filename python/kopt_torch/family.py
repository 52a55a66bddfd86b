"""Which strategy family of kopt's library a PyTorch problem is, read off the module's graph.

Families: activation (one element-wise function, with its op), row_softmax (softmax over the last of two
dimensions), row_reduce (sum, mean, amax, amin over the last dimension), row_scan (cumsum over the last
dimension), gemm (one product of two 2-D inputs).

A problem whose forward is one operator the library has a family for gets that family (and the family's
`[strategy_params]`), so that `kopt optimize` tries the right strategies without the user naming them. The
graph comes from `torch.fx.symbolic_trace`; anything it cannot trace, or any graph of more than one
operator, gets no family (the user can still pass --family). docs/pytorch.md, "Families".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

# Element-wise activations: the activation family's `op`, a C++ expression in float over `x`.
_GELU_ERF = "0.5f * x * (1.0f + erff(x * 0.70710678118654752f))"
_GELU_TANH = "0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)))"
_ACTIVATION_OPS = {
    "relu": "x > 0.0f ? x : 0.0f",
    "silu": "x / (1.0f + expf(-x))",
    "sigmoid": "1.0f / (1.0f + expf(-x))",
    "tanh": "tanhf(x)",
    "sqrt": "sqrtf(x)",
    "exp": "expf(x)",
    "abs": "fabsf(x)",
}
_ACTIVATION_MODULES = {nn.ReLU: "relu", nn.SiLU: "silu", nn.Sigmoid: "sigmoid", nn.Tanh: "tanh"}
_ACTIVATION_FUNCTIONS = {torch.relu: "relu", F.relu: "relu", F.silu: "silu", torch.sigmoid: "sigmoid",
                         F.sigmoid: "sigmoid", torch.tanh: "tanh", F.tanh: "tanh", torch.sqrt: "sqrt",
                         torch.exp: "exp", torch.abs: "abs"}
_SOFTMAX = {torch.softmax, F.softmax}
# Reductions over the last dimension: the row_reduce family's combine, identity and finish (`n`: the count).
_REDUCTIONS = {"sum": ("a + b", "0.0f", "s"), "mean": ("a + b", "0.0f", "s / n"),
               "amax": ("fmaxf(a, b)", "-INFINITY", "s"), "amin": ("fminf(a, b)", "INFINITY", "s")}
_REDUCTION_FUNCTIONS = {torch.sum: "sum", torch.mean: "mean", torch.amax: "amax", torch.amin: "amin"}


@dataclass
class FamilyGuess:
    family: str
    params: dict[str, str] = field(default_factory=dict)
    reason: str = ""


def _operator_nodes(graph: Any) -> list[Any]:
    return [n for n in graph.nodes if n.op in ("call_function", "call_method", "call_module")]


def _gelu(approximate: Any) -> FamilyGuess:
    tanh = approximate == "tanh"
    return FamilyGuess("activation", {"op": _GELU_TANH if tanh else _GELU_ERF},
                       f"the module is one GELU ({'tanh' if tanh else 'erf'} form)")


def _last_dim(dim: Any, ndim: int) -> bool:
    return isinstance(dim, int) and (dim == -1 or dim == ndim - 1)


def _argument(node: Any, position: int, name: str) -> Any:
    """A call's argument by keyword or position (counting the tensor itself for a method call)."""
    if name in node.kwargs:
        return node.kwargs[name]
    return node.args[position] if len(node.args) > position else None


def _axis_family(node: Any, name: str | None, ndim: int) -> FamilyGuess | None:
    """row_reduce or row_scan for a reduction or cumulative sum over the last dimension, else None."""
    dim = _argument(node, 1, "dim")
    if isinstance(dim, (list, tuple)) and len(dim) == 1:
        dim = dim[0]
    if ndim < 2 or not _last_dim(dim, ndim) or _argument(node, 2, "keepdim"):
        return None
    if name in _REDUCTIONS:
        combine, identity, finish = _REDUCTIONS[name]
        return FamilyGuess("row_reduce", {"combine": combine, "identity": identity, "finish": finish},
                           f"the module is one {name} over the last dimension")
    if name == "cumsum":
        return FamilyGuess("row_scan", {}, "the module is one cumulative sum over the last dimension")
    return None


def infer_family(model: nn.Module, inputs: list[Any]) -> FamilyGuess | None:
    """The library family of a one-operator module, or None. `inputs` are example inputs (for ranks)."""
    try:
        traced = torch.fx.symbolic_trace(model)
    except Exception:  # noqa: BLE001 - a module fx cannot trace simply gets no family
        return None
    nodes = _operator_nodes(traced.graph)
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
    if len(nodes) == 1 and len(tensors) == 2 and nodes[0].op == "call_function" \
            and nodes[0].target in (torch.matmul, torch.mm) and all(t.dim() == 2 for t in tensors) \
            and all(a.op == "placeholder" for a in nodes[0].args[:2]):
        return FamilyGuess("gemm", {}, "the module is one product of two matrices")
    if len(nodes) != 1 or len(tensors) != 1:
        return None
    node, ndim = nodes[0], tensors[0].dim()
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        for cls, name in _ACTIVATION_MODULES.items():
            if type(sub) is cls:
                return FamilyGuess("activation", {"op": _ACTIVATION_OPS[name]}, f"the module is one {cls.__name__}")
        if type(sub) is nn.GELU:
            return _gelu(sub.approximate)
        if type(sub) is nn.Softmax and _last_dim(sub.dim, ndim) and ndim == 2:
            return FamilyGuess("row_softmax", {}, "the module is one softmax over the last of two dimensions")
        return None
    if node.op == "call_method":
        name = str(node.target)
        if name in _ACTIVATION_OPS:
            return FamilyGuess("activation", {"op": _ACTIVATION_OPS[name]}, f"the module is one Tensor.{name}")
        return _axis_family(node, name, ndim)
    target = node.target
    if target in _ACTIVATION_FUNCTIONS:
        name = _ACTIVATION_FUNCTIONS[target]
        return FamilyGuess("activation", {"op": _ACTIVATION_OPS[name]}, f"the module is one {name}")
    if target in _REDUCTION_FUNCTIONS or target is torch.cumsum:
        return _axis_family(node, _REDUCTION_FUNCTIONS.get(target, "cumsum"), ndim)
    if target is F.gelu:
        return _gelu(node.kwargs.get("approximate", "none"))
    if target in _SOFTMAX and ndim == 2:
        dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
        if _last_dim(dim, ndim):
            return FamilyGuess("row_softmax", {}, "the module is one softmax over the last of two dimensions")
    return None
