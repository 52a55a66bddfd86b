"""Activations with constants of their own (alpha, beta, threshold, lambda), as one C++ float expression over `x`.

PyTorch's definitions, with the constants of the call or the module (their defaults when not given):
ELU and CELU (alpha), SELU, Softplus (beta, threshold: linear above it), Softsign, Mish, LogSigmoid,
Hardshrink and Softshrink (lambd), Tanhshrink, Threshold (threshold, value). `exp(x) - 1` is written
`expm1f(x)` and `log(1 + exp(x))` `log1pf(expf(x))`, as PyTorch's kernels compute them. elementwise.py calls
`parametrized_activation` for every node it translates. docs/pytorch.md, "Families".
"""

from __future__ import annotations

from typing import Any, Callable

import torch
import torch.nn as nn
import torch.nn.functional as F

# SELU's fixed constants (torch.nn.SELU's documentation).
_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def _f(c: Any) -> str | None:
    from .elementwise import float_literal  # elementwise imports this module

    return float_literal(c)


def _elu(alpha: str) -> str:
    return f"x > 0.0f ? x : {alpha} * expm1f(x)"


# name -> (its constants with their defaults, in call order after the input; the op over x from their literals)
_KINDS: dict[str, tuple[tuple[tuple[str, float], ...], Callable[..., str]]] = {
    "elu": ((("alpha", 1.0),), _elu),
    "celu": ((("alpha", 1.0),), lambda a: f"x > 0.0f ? x : {a} * expm1f(x / {a})"),
    "selu": ((), lambda: f"{_f(_SELU_SCALE)} * (x > 0.0f ? x : {_f(_SELU_ALPHA)} * expm1f(x))"),
    "softplus": ((("beta", 1.0), ("threshold", 20.0)),
                 lambda b, t: f"x * {b} > {t} ? x : log1pf(expf(x * {b})) / {b}"),
    "softsign": ((), lambda: "x / (1.0f + fabsf(x))"),
    "mish": ((), lambda: "x * tanhf(x > 20.0f ? x : log1pf(expf(x)))"),
    "logsigmoid": ((), lambda: "fminf(x, 0.0f) - log1pf(expf(-fabsf(x)))"),
    "hardshrink": ((("lambd", 0.5),), lambda l: f"(x > {l} || x < -{l}) ? x : 0.0f"),
    "softshrink": ((("lambd", 0.5),), lambda l: f"x > {l} ? x - {l} : (x < -{l} ? x + {l} : 0.0f)"),
    "tanhshrink": ((), lambda: "x - tanhf(x)"),
    "threshold": ((("threshold", None), ("value", None)), lambda t, v: f"x > {t} ? x : {v}"),
}
_FUNCTIONS = {F.elu: "elu", F.celu: "celu", F.selu: "selu", torch.selu: "selu", F.softplus: "softplus",
              F.softsign: "softsign", F.mish: "mish", F.logsigmoid: "logsigmoid", F.hardshrink: "hardshrink",
              F.softshrink: "softshrink", F.tanhshrink: "tanhshrink", F.threshold: "threshold"}
_MODULES = {nn.ELU: "elu", nn.CELU: "celu", nn.SELU: "selu", nn.Softplus: "softplus", nn.Softsign: "softsign",
            nn.Mish: "mish", nn.LogSigmoid: "logsigmoid", nn.Hardshrink: "hardshrink", nn.Softshrink: "softshrink",
            nn.Tanhshrink: "tanhshrink", nn.Threshold: "threshold"}


def _op(kind: str, values: list[Any]) -> tuple[str, str] | None:
    literals = [_f(v) for v in values]
    if any(c is None for c in literals):
        return None
    if kind in ("celu", "softplus") and values[0] == 0:  # a division by zero PyTorch would not do either
        return None
    return _KINDS[kind][1](*literals), kind


def parametrized_activation(traced: Any, node: Any) -> tuple[str, str] | None:
    """(op over x, name) when `node` is one of the activations above of its first argument alone, with
    constant arguments; else None."""
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        kind = _MODULES.get(type(sub))
        if kind is None or len(node.args) != 1 or node.kwargs:
            return None
        return _op(kind, [getattr(sub, name) for name, _ in _KINDS[kind][0]])
    if node.op != "call_function" or node.target not in _FUNCTIONS:
        return None
    kind = _FUNCTIONS[node.target]
    constants = _KINDS[kind][0]
    allowed = {name for name, _ in constants} | {"inplace"}
    if set(node.kwargs) - allowed or len(node.args) > 1 + len(constants) + 1:
        return None
    values = []
    for i, (name, default) in enumerate(constants):
        value = node.kwargs.get(name, node.args[1 + i] if len(node.args) > 1 + i else default)
        if value is None or isinstance(value, torch.fx.Node):
            return None
        values.append(value)
    return _op(kind, values)
