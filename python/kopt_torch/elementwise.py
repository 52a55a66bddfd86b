"""Element-wise parts of a module's graph as one C++ expression in float.

The activation family's `op` is such an expression over `x` (the forward's one input), and the linear and
convolution families' epilogue `op` one over `v` (the layer's result). An expression is built from the
operators below, constants (module attributes are constants at trace time, and so is a one-element
`torch.tensor(c)`) and the root values (the caller's: the layer's result, and for the channel families a
per-channel parameter as `p`); anything else (a second tensor, another parameter, a reduction, a broadcast)
makes it none. The loss family's `map` is one over
two roots, `x` and `y` (the forward's two inputs; losses.py reads it with node_expression). docs/pytorch.md,
"Families".
"""

from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from .activations import parametrized_activation
from .graph import operator_nodes, output_node

# One-argument activations: a C++ expression in float over `x`.
GELU_ERF = "0.5f * x * (1.0f + erff(x * 0.70710678118654752f))"
GELU_TANH = "0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)))"
ACTIVATION_OPS = {
    "relu": "x > 0.0f ? x : 0.0f",
    "silu": "x / (1.0f + expf(-x))",
    "sigmoid": "1.0f / (1.0f + expf(-x))",
    "tanh": "tanhf(x)",
    "sqrt": "sqrtf(x)",
    "exp": "expf(x)",
    "abs": "fabsf(x)",
}
# Operators an element-wise expression may use beyond the named activations (not a family of their own).
_MORE_OPS = {
    "rsqrt": "rsqrtf(x)",
    "log": "logf(x)",
    "sin": "sinf(x)",
    "cos": "cosf(x)",
    "neg": "-x",
    "reciprocal": "1.0f / x",
    "square": "x * x",
    "relu6": "fminf(fmaxf(x, 0.0f), 6.0f)",
    "hardsigmoid": "fminf(fmaxf(x / 6.0f + 0.5f, 0.0f), 1.0f)",
    "hardswish": "x * fminf(fmaxf(x + 3.0f, 0.0f), 6.0f) / 6.0f",
    "erf": "erff(x)",
    "expm1": "expm1f(x)",
    "log1p": "log1pf(x)",
    "floor": "floorf(x)",
    "ceil": "ceilf(x)",
    "trunc": "truncf(x)",
    "round": "rintf(x)",
}
ACTIVATION_MODULES = {nn.ReLU: "relu", nn.SiLU: "silu", nn.Sigmoid: "sigmoid", nn.Tanh: "tanh"}
_MORE_MODULES = {nn.ReLU6: "relu6", nn.Hardsigmoid: "hardsigmoid", nn.Hardswish: "hardswish"}
ACTIVATION_FUNCTIONS = {torch.relu: "relu", F.relu: "relu", F.silu: "silu", torch.sigmoid: "sigmoid",
                        F.sigmoid: "sigmoid", torch.tanh: "tanh", F.tanh: "tanh", torch.sqrt: "sqrt",
                        torch.exp: "exp", torch.abs: "abs"}
_MORE_FUNCTIONS = {torch.rsqrt: "rsqrt", torch.log: "log", torch.sin: "sin", torch.cos: "cos", torch.neg: "neg",
                   operator.neg: "neg", torch.reciprocal: "reciprocal", torch.square: "square", F.relu6: "relu6",
                   F.hardsigmoid: "hardsigmoid", F.hardswish: "hardswish", torch.erf: "erf", torch.expm1: "expm1",
                   torch.log1p: "log1p", torch.floor: "floor", torch.ceil: "ceil", torch.trunc: "trunc",
                   torch.round: "round"}
# Arithmetic and comparisons: the operator's C++ symbol, for function and method calls.
_ARITHMETIC = {operator.mul: "*", torch.mul: "*", "mul": "*", operator.add: "+", torch.add: "+", "add": "+",
               operator.sub: "-", torch.sub: "-", "sub": "-", operator.truediv: "/", torch.div: "/", "div": "/",
               # PyTorch's aliases (torch.multiply(a, b) is torch.mul(a, b))
               torch.multiply: "*", "multiply": "*", torch.subtract: "-", "subtract": "-", torch.divide: "/",
               "divide": "/", torch.true_divide: "/", "true_divide": "/"}
_COMPARISONS = {operator.gt: ">", torch.gt: ">", "gt": ">", operator.lt: "<", torch.lt: "<", "lt": "<",
                operator.ge: ">=", torch.ge: ">=", "ge": ">=", operator.le: "<=", torch.le: "<=", "le": "<=",
                operator.eq: "==", torch.eq: "==", "eq": "==", operator.ne: "!=", torch.ne: "!=", "ne": "!="}
_CLAMPS = {torch.clamp, torch.clip, "clamp", "clip", torch.clamp_min, "clamp_min", torch.clamp_max, "clamp_max"}
# Calls that keep the value as it is: a copy, or a cast to the type it has (the family computes in float).
_IDENTITY_METHODS = {"contiguous", "clone", "detach", "float"}
# Element-wise minimum and maximum of two values (torch.min / torch.max with a second tensor).
_EXTREMA = {torch.minimum: "fminf", torch.maximum: "fmaxf", "minimum": "fminf", "maximum": "fmaxf", torch.min: "fminf",
            torch.max: "fmaxf", "min": "fminf", "max": "fmaxf"}


def float_literal(c: Any) -> str | None:
    """A Python number as a C++ float literal, or None (a bool, anything else, a non-finite value)."""
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(float(c)):
        return None
    return repr(float(c)) + "f"


_LITERAL = re.compile(r"-?[0-9][0-9.e+-]*f")


def is_name(e: str) -> bool:
    return re.fullmatch(r"[A-Za-z_]\w*", e) is not None


def operand(e: str) -> str:
    """`e` as an operand of a binary operator: parenthesized unless it is a name or a literal."""
    return e if is_name(e) or _LITERAL.fullmatch(e) else f"({e})"


def apply_op(op_over_x: str, e: str) -> str:
    """An operator's expression over `x` applied to expression `e`: substituted when `e` is a name, else an
    immediately called lambda (the expression may read its argument more than once)."""
    if is_name(e):
        return re.sub(r"\bx\b", e, op_over_x)
    return f"[](float x) {{ return {op_over_x}; }}({e})"


@dataclass(frozen=True)
class _Term:
    text: str
    boolean: bool = False  # a comparison: a condition, not a value


def activation_op(traced: Any, node: Any) -> tuple[str, str] | None:
    """(op over x, name) when `node` is one of the named activations of its first argument alone, else None."""
    extra = list(node.args[1:]) + [v for k, v in node.kwargs.items() if k not in ("inplace", "approximate")]
    if extra:
        return None
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        for cls, name in ACTIVATION_MODULES.items():
            if type(sub) is cls:
                return ACTIVATION_OPS[name], name
        if type(sub) is nn.GELU:
            return (GELU_TANH if sub.approximate == "tanh" else GELU_ERF), "gelu"
        return None
    if node.op == "call_method" and str(node.target) in ACTIVATION_OPS:
        return ACTIVATION_OPS[str(node.target)], str(node.target)
    if node.op == "call_function":
        if node.target in ACTIVATION_FUNCTIONS:
            name = ACTIVATION_FUNCTIONS[node.target]
            return ACTIVATION_OPS[name], name
        if node.target is F.gelu:
            return (GELU_TANH if node.kwargs.get("approximate", "none") == "tanh" else GELU_ERF), "gelu"
    return None


def call_argument(node: Any, position: int, name: str, default: Any = None) -> Any:
    """A call's argument by keyword or position (counting the tensor itself for a method call)."""
    if name in node.kwargs:
        return node.kwargs[name]
    return node.args[position] if len(node.args) > position else default


class _Translator:
    """Turns the nodes between the roots (a dict node -> the name of its value) and a node into one expression
    over the roots' names."""

    def __init__(self, traced: Any, roots: dict[Any, str]) -> None:
        self.traced, self.roots = traced, roots
        self.terms: dict[Any, _Term | None] = {}
        self.steps: list[str] = []
        self.used_roots: set[Any] = set()

    def term(self, a: Any) -> _Term | None:
        if not isinstance(a, torch.fx.Node):
            c = float_literal(a)
            return _Term(c) if c is not None else None
        if a in self.roots:
            self.used_roots.add(a)
            return _Term(self.roots[a])
        if a not in self.terms and (c := self._tensor_constant(a)) is not None:
            self.terms[a] = _Term(c)
        if a not in self.terms:
            self.terms[a] = self._call(a)
        return self.terms[a]

    def _tensor_constant(self, node: Any) -> str | None:
        """A one-element tensor the trace made a constant, as a C++ float literal: `torch.tensor(c)` in the
        forward (a constant of the traced module, or a call with a number and at most a device and a dtype)."""
        if node.op == "get_attr" and node.target.startswith("_tensor_constant"):
            value = getattr(self.traced, node.target, None)
            if isinstance(value, torch.Tensor) and value.numel() == 1 and not value.is_meta:
                return float_literal(value.item())
            return None
        if node.op == "call_function" and node.target is torch.tensor and len(node.args) == 1 \
                and set(node.kwargs) <= {"device", "dtype"} and node.kwargs.get("dtype") in (None, torch.float32):
            device = node.kwargs.get("device")
            if isinstance(device, torch.fx.Node):  # `device=x.device`: read by this call alone
                if device.op != "call_function" or device.target is not getattr or device.args[1:] != ("device",):
                    return None
                self.terms[device] = None
            return float_literal(node.args[0])
        return None

    def _value(self, a: Any) -> str | None:
        t = self.term(a)
        return None if t is None or t.boolean else t.text

    def _one(self, node: Any, op_over_x: str, step: str) -> _Term | None:
        e = self._value(node.args[0]) if node.args and isinstance(node.args[0], torch.fx.Node) else None
        if e is None:
            return None
        self.steps.append(step)
        return _Term(apply_op(op_over_x, e))

    def _call(self, node: Any) -> _Term | None:
        if node.op not in ("call_function", "call_method", "call_module"):
            return None
        key = str(node.target) if node.op == "call_method" else node.target
        if node.op == "call_method" and key in _IDENTITY_METHODS and len(node.args) == 1 and not node.kwargs:
            return self.term(node.args[0])
        if (activation := activation_op(self.traced, node)) is not None:
            return self._one(node, *activation)
        if (activation := parametrized_activation(self.traced, node)) is not None:
            return self._one(node, *activation)
        if node.op == "call_module":
            return self._module(node)
        if (name := _MORE_FUNCTIONS.get(key) if node.op == "call_function" else
                (key if key in _MORE_OPS else None)) is not None:
            plain = len(node.args) == 1 and set(node.kwargs) <= {"inplace"}
            return self._one(node, _MORE_OPS[name], name) if plain else None
        if key in _ARITHMETIC or key in _COMPARISONS:
            return self._binary(node, key)
        if key in (torch.where, "where"):
            return self._where(node)
        if key in _EXTREMA and len(node.args) == 2 and not node.kwargs and isinstance(node.args[1], torch.fx.Node):
            return self._extremum(node, _EXTREMA[key])
        if key in _CLAMPS or key is F.hardtanh:
            return self._clamp(node, key)
        if key is F.leaky_relu:
            return self._leaky(node, call_argument(node, 1, "negative_slope", 0.01))
        if key in (torch.pow, operator.pow, "pow"):
            return self._pow(node)
        return None

    def _module(self, node: Any) -> _Term | None:
        sub = self.traced.get_submodule(node.target)
        if len(node.args) != 1 or node.kwargs:
            return None
        if type(sub) in _MORE_MODULES:
            return self._one(node, _MORE_OPS[_MORE_MODULES[type(sub)]], _MORE_MODULES[type(sub)])
        if type(sub) is nn.Hardtanh:
            return self._bounded(node, sub.min_val, sub.max_val, "hardtanh")
        if type(sub) is nn.LeakyReLU:
            return self._leaky(node, sub.negative_slope)
        return None

    def _binary(self, node: Any, key: Any) -> _Term | None:
        if len(node.args) != 2 or node.kwargs:
            return None
        a, b = node.args
        if not isinstance(a, torch.fx.Node) and not isinstance(b, torch.fx.Node):
            return None
        ta, tb = self.term(a), self.term(b)
        if ta is None or tb is None:
            return None
        if key in _COMPARISONS:
            if ta.boolean or tb.boolean:
                return None
            symbol = _COMPARISONS[key]
            self.steps.append(symbol)
            return _Term(f"{operand(ta.text)} {symbol} {operand(tb.text)}", boolean=True)
        symbol = _ARITHMETIC[key]
        # A condition in arithmetic is 0 or 1, as in PyTorch: (x > 0) * x.
        self.steps.append(f"{symbol} {tb.text}" if isinstance(a, torch.fx.Node) and not isinstance(b, torch.fx.Node)
                          else f"{ta.text} {symbol}" if not isinstance(a, torch.fx.Node) else symbol)
        return _Term(f"{operand(ta.text)} {symbol} {operand(tb.text)}")

    def _where(self, node: Any) -> _Term | None:
        if len(node.args) != 3 or node.kwargs:
            return None
        cond, a, b = (self.term(x) for x in node.args)
        if cond is None or a is None or b is None or not cond.boolean or a.boolean or b.boolean:
            return None
        self.steps.append("where")
        return _Term(f"({cond.text}) ? {operand(a.text)} : {operand(b.text)}")

    def _extremum(self, node: Any, function: str) -> _Term | None:
        a, b = (self.term(x) for x in node.args)
        if a is None or b is None or a.boolean or b.boolean:
            return None
        self.steps.append(function[1:4])
        return _Term(f"{function}({a.text}, {b.text})")

    def _constant(self, v: Any) -> str | None:
        """A number as a C++ float literal: a Python number, or a root that stands for a fixed input's value."""
        if isinstance(v, torch.fx.Node):
            text = self.roots.get(v)
            return text if text is not None and _LITERAL.fullmatch(text) else None
        return float_literal(v)

    def _bounded(self, node: Any, lo: Any, hi: Any, step: str) -> _Term | None:
        e = self._value(node.args[0]) if node.args else None
        lo_c = None if lo is None else self._constant(lo)
        hi_c = None if hi is None else self._constant(hi)
        if e is None or (lo is None and hi is None) or (lo is not None and lo_c is None) \
                or (hi is not None and hi_c is None):
            return None
        text = e
        if lo_c is not None:
            text = f"fmaxf({text}, {lo_c})"
        if hi_c is not None:
            text = f"fminf({text}, {hi_c})"
        self.steps.append(step)
        return _Term(text)

    def _clamp(self, node: Any, key: Any) -> _Term | None:
        if key is F.hardtanh:
            extra = {k for k in node.kwargs if k not in ("min_val", "max_val", "inplace")}
            if extra or len(node.args) > 3:
                return None
            return self._bounded(node, call_argument(node, 1, "min_val", -1.0),
                                 call_argument(node, 2, "max_val", 1.0), "hardtanh")
        if any(k not in ("min", "max") for k in node.kwargs) or len(node.args) > 3:
            return None
        if key in (torch.clamp_min, "clamp_min"):
            return self._bounded(node, call_argument(node, 1, "min"), None, "clamp_min")
        if key in (torch.clamp_max, "clamp_max"):
            return self._bounded(node, None, call_argument(node, 1, "max"), "clamp_max")
        return self._bounded(node, call_argument(node, 1, "min"), call_argument(node, 2, "max"), "clamp")

    def _leaky(self, node: Any, slope: Any) -> _Term | None:
        c = float_literal(slope)
        if c is None or any(k not in ("negative_slope", "inplace") for k in node.kwargs) or len(node.args) > 3:
            return None
        return self._one(node, f"x > 0.0f ? x : {c} * x", "leaky_relu")

    def _pow(self, node: Any) -> _Term | None:
        if len(node.args) != 2 or node.kwargs or not isinstance(node.args[0], torch.fx.Node):
            return None
        exponent = node.args[1]
        if isinstance(exponent, bool) or not isinstance(exponent, (int, float)):
            return None
        if exponent == 2:
            return self._one(node, "x * x", "pow 2")
        if exponent == 0.5:
            return self._one(node, "sqrtf(x)", "pow 0.5")
        c = float_literal(exponent)
        return self._one(node, f"powf(x, {c})", f"pow {exponent}") if c is not None else None


def node_expression(traced: Any, node: Any, roots: dict[Any, str]) -> tuple[str, list[str], set[Any]] | None:
    """The value of `node` as one C++ float expression over the names of `roots` (a dict node -> name), the
    names of its steps in the order they are applied, and the nodes it reads (the operator nodes between the
    roots and `node`, and the roots it uses); None unless each of those is an element-wise step of the roots
    and constants, the value being a value (not a condition)."""
    translator = _Translator(traced, roots)
    result = translator.term(node)
    if result is None or result.boolean:
        return None
    return result.text, translator.steps, set(translator.terms) | translator.used_roots


def uses_every_operator(graph: Any, used: set[Any], but: Any = ()) -> bool:
    """Whether every operator node of the graph is in `used`, except those in `but` (nodes outside the
    expression: a reduction after it, a layer before it)."""
    return all(n in used or n in but for n in operator_nodes(graph))


def elementwise_expression(traced: Any, root: Any, name: str, before: int = 0,
                           constants: dict[Any, str] | None = None) -> tuple[str, list[str]] | None:
    """The forward's output as one C++ float expression over `name` (the value of node `root`), and the names
    of its steps in the order they are applied; None unless every operator node of the graph after the first
    `before` ones is an element-wise step of `root` and constants that the output uses, the output being a
    value (not a condition). `constants`: other placeholders with a fixed value (a C++ float literal)."""
    output = output_node(traced.graph)
    if not isinstance(output.args[0], torch.fx.Node):
        return None
    expression = node_expression(traced, output.args[0], {**(constants or {}), root: name})
    if expression is None:
        return None
    text, steps, used = expression
    if not uses_every_operator(traced.graph, used, {root, *operator_nodes(traced.graph)[:before]}):
        return None  # a node the output does not use
    return text, steps
