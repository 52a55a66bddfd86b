"""Which strategy family of kopt's library a PyTorch problem is, read off the module's graph.

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


def infer_family(model: nn.Module, inputs: list[Any]) -> FamilyGuess | None:
    """The library family of a one-operator module, or None. `inputs` are example inputs (for ranks)."""
    try:
        traced = torch.fx.symbolic_trace(model)
    except Exception:  # noqa: BLE001 - a module fx cannot trace simply gets no family
        return None
    nodes = _operator_nodes(traced.graph)
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
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
        return None
    target = node.target
    if target in _ACTIVATION_FUNCTIONS:
        name = _ACTIVATION_FUNCTIONS[target]
        return FamilyGuess("activation", {"op": _ACTIVATION_OPS[name]}, f"the module is one {name}")
    if target is F.gelu:
        return _gelu(node.kwargs.get("approximate", "none"))
    if target in _SOFTMAX and ndim == 2:
        dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
        if _last_dim(dim, ndim):
            return FamilyGuess("row_softmax", {}, "the module is one softmax over the last of two dimensions")
    return None
