"""Which strategy family of kopt's library a PyTorch problem is, read off the module's graph.

Families: activation (one element-wise function, with its op), row_softmax (softmax over the last of two
dimensions), row_reduce (sum, mean, amax, amin over the last dimension), row_scan (cumsum over the last
dimension), gemm (one product of two 2-D inputs), gemm_nt (`a @ b.T` of two 2-D inputs, and nn.Linear without a
bias and with nothing after it), attention (scaled_dot_product_attention on 4-D
[batch, heads, seq, head_dim] inputs, causal or not, with the contract's BH bound to batch * heads),
pool2d (MaxPool2d / AvgPool2d without padding, dilation or ceil mode), linear (nn.Linear, or F.linear on the
module's own parameters, with a bias, on the one input, then a chain of element-wise operators on its result: activations and arithmetic with constants,
fused into the family's `op` over `v`, the product plus the bias), conv2d_nchw_bias (nn.Conv2d with its bias,
stride 1, then such a chain; conv2d_nchw without a bias and with nothing after it).

A problem whose forward is one operator the library has a family for gets that family (and the family's
`[strategy_params]`), so that `kopt optimize` tries the right strategies without the user naming them. The
graph comes from `torch.fx.symbolic_trace`; anything it cannot trace, or any graph of more than one
operator, gets no family (the user can still pass --family). docs/pytorch.md, "Families".
"""

from __future__ import annotations

import math
import operator
import re
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
    # Roles of the family's contract that no launcher parameter is, or that names alone would not decide (the
    # task's `[binding]`): role -> (a tensor: the forward's input by position, or a parameter by its
    # state_dict key; and the dimensions of it whose product the role is, or None for the tensor itself).
    # A role may also be a constant (an int: a convolution's padding).
    binding: dict[str, tuple[int | str, tuple[int, ...] | None] | int] = field(default_factory=dict)


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


def _attention(node: Any, tensors: list[Any]) -> FamilyGuess | None:
    """attention for scaled_dot_product_attention(q, k, v) on equal 4-D inputs, causal or not; None for a
    mask, dropout, a scale of the caller's or grouped heads."""
    if len(tensors) != 3 or any(t.dim() != 4 or t.shape != tensors[0].shape for t in tensors):
        return None
    if len(node.args) != 3 or not all(getattr(a, "op", None) == "placeholder" for a in node.args):
        return None
    kwargs = dict(node.kwargs)
    causal = kwargs.pop("is_causal", False)
    if kwargs.pop("attn_mask", None) is not None or kwargs.pop("dropout_p", 0.0) != 0.0 \
            or kwargs.pop("scale", None) is not None or kwargs.pop("enable_gqa", False) or kwargs \
            or not isinstance(causal, bool):
        return None
    form = "causal" if causal else "non-causal"
    return FamilyGuess("attention", {"causal": "1" if causal else "0"},
                       f"the module is one {form} scaled_dot_product_attention on [batch, heads, seq, head_dim]",
                       {"Q": (0, None), "K": (1, None), "V": (2, None), "BH": (0, (0, 1)), "S": (0, (2,)),
                        "D": (0, (3,))})


def _pool2d(sub: nn.Module, ndim: int) -> FamilyGuess | None:
    """pool2d for MaxPool2d / AvgPool2d on NCHW input with square windows, no padding, dilation or ceil mode."""
    def square(v: Any) -> int | None:
        if isinstance(v, int):
            return v
        return v[0] if isinstance(v, (tuple, list)) and len(v) == 2 and v[0] == v[1] else None

    if ndim != 4 or getattr(sub, "ceil_mode", False) or square(sub.padding) != 0:
        return None
    kernel, stride = square(sub.kernel_size), square(sub.stride if sub.stride is not None else sub.kernel_size)
    if kernel is None or stride is None:
        return None
    if type(sub) is nn.MaxPool2d and square(sub.dilation) == 1 and not sub.return_indices:
        return FamilyGuess("pool2d", {"combine": "fmaxf(a, b)", "identity": "-INFINITY", "finish": "s"},
                           f"the module is one MaxPool2d ({kernel} x {kernel}, stride {stride})")
    if type(sub) is nn.AvgPool2d and sub.divisor_override is None:
        return FamilyGuess("pool2d", {"combine": "a + b", "identity": "0.0f", "finish": "s / k"},
                           f"the module is one AvgPool2d ({kernel} x {kernel}, stride {stride})")
    return None


# Arithmetic with a constant in an epilogue chain: the operator's C++ symbol, for function and method calls.
_ARITHMETIC = {operator.mul: "*", torch.mul: "*", "mul": "*", operator.add: "+", torch.add: "+", "add": "+",
               operator.sub: "-", torch.sub: "-", "sub": "-", operator.truediv: "/", torch.div: "/", "div": "/"}


def _apply(op_over_x: str, e: str) -> str:
    """An activation's op (over `x`) applied to expression `e`: substituted when `e` is a name, else an
    immediately called lambda (the op may read its argument more than once)."""
    if re.fullmatch(r"[A-Za-z_]\w*", e):
        return re.sub(r"\bx\b", e, op_over_x)
    return f"[](float x) {{ return {op_over_x}; }}({e})"


def _float_literal(c: Any) -> str | None:
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(float(c)):
        return None
    return repr(float(c)) + "f"


def _activation_op(traced: Any, node: Any) -> tuple[str, str] | None:
    """(op over x, name) when `node` is one activation of its first argument alone, else None."""
    extra = list(node.args[1:]) + [v for k, v in node.kwargs.items() if k not in ("inplace", "approximate")]
    if extra:
        return None
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        for cls, name in _ACTIVATION_MODULES.items():
            if type(sub) is cls:
                return _ACTIVATION_OPS[name], name
        if type(sub) is nn.GELU:
            return (_GELU_TANH if sub.approximate == "tanh" else _GELU_ERF), "gelu"
        return None
    if node.op == "call_method" and str(node.target) in _ACTIVATION_OPS:
        return _ACTIVATION_OPS[str(node.target)], str(node.target)
    if node.op == "call_function":
        if node.target in _ACTIVATION_FUNCTIONS:
            name = _ACTIVATION_FUNCTIONS[node.target]
            return _ACTIVATION_OPS[name], name
        if node.target is F.gelu:
            return (_GELU_TANH if node.kwargs.get("approximate", "none") == "tanh" else _GELU_ERF), "gelu"
    return None


def _epilogue_step(traced: Any, node: Any, prev: Any, e: str) -> tuple[str, str] | None:
    """`e` (the chain's expression so far, the value of `prev`) through `node`, and the step's name; None
    when `node` is not an element-wise operator of `prev` alone (with constants)."""
    if not node.args or all(a is not prev for a in node.args):
        return None
    if node.args[0] is prev:
        activation = _activation_op(traced, node)
        if activation is not None:
            return _apply(activation[0], e), activation[1]
    key = str(node.target) if node.op == "call_method" else node.target
    symbol = _ARITHMETIC.get(key) if node.op in ("call_method", "call_function") else None
    if symbol is None or len(node.args) != 2 or node.kwargs:
        return None
    first, second = node.args
    operand = e if re.fullmatch(r"[A-Za-z_]\w*", e) else f"({e})"
    if first is prev and (c := _float_literal(second)) is not None:
        return f"{operand} {symbol} {c}", f"{symbol} {c}"
    if second is prev and (c := _float_literal(first)) is not None and node.op == "call_function":
        return f"{c} {symbol} {operand}", f"{c} {symbol}"
    return None


_MATMUL = (torch.matmul, torch.mm, operator.matmul)


def _epilogue_chain(traced: Any, nodes: list[Any]) -> tuple[str, str] | None:
    """The element-wise operators after nodes[0], each on the previous one's result alone and the last one the
    forward's output, as one C++ expression over `v` (nodes[0]'s result) and the words that name them; None
    when the graph is anything else."""
    expr, steps, prev = "v", [], nodes[0]
    for node in nodes[1:]:
        if len(prev.users) != 1:
            return None
        step = _epilogue_step(traced, node, prev, expr)
        if step is None:
            return None
        expr, prev = step[0], node
        steps.append(step[1])
    output = next(n for n in traced.graph.nodes if n.op == "output")
    if output.args[0] is not prev:
        return None
    return expr, f" then {', '.join(steps)}" if steps else ""


def _is_transpose_of_placeholder(node: Any) -> bool:
    """`b.T`, `b.t()`, `b.transpose(0, 1)` or `torch.transpose(b, 0, 1)` (or 1, 0) of a forward input."""
    if getattr(node, "op", None) not in ("call_function", "call_method") or not node.args:
        return False
    if getattr(node.args[0], "op", None) != "placeholder":
        return False
    if node.op == "call_function" and node.target is getattr:
        return node.args[1:] in (("T",), ("mT",))
    name = str(node.target) if node.op == "call_method" else getattr(node.target, "__name__", "")
    if name == "t":
        return len(node.args) == 1
    return name == "transpose" and sorted(node.args[1:]) in ([-2, -1], [0, 1], [-1, 0], [-2, 1])


def _gemm_nt(nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """gemm_nt for `a @ b.T` (matmul or mm) of two 2-D forward inputs, b being the second."""
    if len(nodes) != 2 or len(tensors) != 2 or any(t.dim() != 2 for t in tensors):
        return None
    transpose, product = nodes
    if product.op != "call_function" or product.target not in _MATMUL or len(product.args) != 2 or product.kwargs:
        return None
    placeholders = [n for n in product.graph.nodes if n.op == "placeholder"]
    a, b = product.args
    if a is not placeholders[0] or b is not transpose or not _is_transpose_of_placeholder(b) \
            or b.args[0] is not placeholders[1]:
        return None
    return FamilyGuess("gemm_nt", {}, "the module is one product of a matrix and a transposed matrix (a @ b.T)",
                       {"A": (0, None), "B": (1, None), "M": (0, (0,)), "N": (1, (0,)), "K": (0, (1,))})


def _linear_operands(traced: Any, node: Any) -> tuple[str, bool] | None:
    """(the weight's state_dict key, whether there is a bias) when `node` is x W^T (+ b) of the forward's one
    input with the module's own parameters: an nn.Linear, or F.linear(x, self.weight, self.bias)."""
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        if type(sub) is not nn.Linear or len(node.args) != 1 or node.kwargs:
            return None
        x, weight, has_bias = node.args[0], f"{node.target}.weight", sub.bias is not None
    elif node.op == "call_function" and node.target is F.linear:
        x, weight, bias = _argument(node, 0, "input"), _argument(node, 1, "weight"), _argument(node, 2, "bias")
        if getattr(weight, "op", None) != "get_attr" or (bias is not None and getattr(bias, "op", None) != "get_attr"):
            return None
        weight, has_bias = weight.target, bias is not None
    else:
        return None
    return (weight, has_bias) if getattr(x, "op", None) == "placeholder" else None


def _linear_chain(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """linear for x W^T + b on the one input (nn.Linear, or F.linear with the module's parameters) followed by
    element-wise operators, each on the previous one's result alone; the product's leading dimensions are M
    (their product when there are several). Without a bias and with nothing after it: gemm_nt."""
    if not nodes or len(tensors) != 1 or tensors[0].dim() < 2:
        return None
    first = nodes[0]
    operands = _linear_operands(traced, first)
    if operands is None:
        return None
    weight, has_bias = operands
    leading = tuple(range(tensors[0].dim() - 1))
    if not has_bias:  # x W^T alone is gemm_nt; with an epilogue after it, no family yet
        if len(nodes) != 1:
            return None
        return FamilyGuess("gemm_nt", {}, "the module is a linear layer without a bias (x @ weight.T)",
                           {"A": (0, None), "B": (weight, None), "M": (0, leading), "N": (weight, (0,)),
                            "K": (weight, (1,))})
    chain = _epilogue_chain(traced, nodes)
    if chain is None:
        return None
    expr, after = chain
    return FamilyGuess("linear", {"op": expr}, f"the module is a linear layer{after}",
                       {"M": (0, leading), "N": (weight, (0,)), "K": (weight, (1,))})


def _conv_padding(sub: nn.Conv2d) -> int | None:
    """The one zero padding of every side that conv2d_nchw's contract takes, or None."""
    k = sub.kernel_size[0]
    if sub.padding == "valid":
        return 0
    if sub.padding == "same":
        return k // 2 if k % 2 == 1 else None
    p = sub.padding
    return p[0] if isinstance(p, tuple) and len(p) == 2 and p[0] == p[1] and isinstance(p[0], int) else None


def _conv_chain(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """conv2d_nchw_bias for an nn.Conv2d with its bias on the one 4-D input (stride 1, no dilation, one group,
    square kernel, zero padding the same on every side) followed by element-wise operators, each on the
    previous one's result alone, fused into `op` over v (the convolution plus the bias); without a bias and with
    nothing after it, conv2d_nchw. Every role but the output is pinned: the input's dimensions are N, Cin, H, W,
    the weight's Cout and K, the padding a constant."""
    if not nodes or len(tensors) != 1 or tensors[0].dim() != 4:
        return None
    first = nodes[0]
    if first.op != "call_module" or len(first.args) != 1 or first.kwargs \
            or getattr(first.args[0], "op", None) != "placeholder":
        return None
    sub = traced.get_submodule(first.target)
    if type(sub) is not nn.Conv2d or sub.groups != 1 or sub.stride != (1, 1) or sub.dilation != (1, 1) \
            or sub.kernel_size[0] != sub.kernel_size[1] or sub.padding_mode != "zeros":
        return None
    pad = _conv_padding(sub)
    if pad is None:
        return None
    weight = f"{first.target}.weight"
    binding: dict[str, tuple[int | str, tuple[int, ...] | None] | int] = {
        "x": (0, None), "w": (weight, None), "N": (0, (0,)), "Cin": (0, (1,)), "H": (0, (2,)), "W": (0, (3,)),
        "Cout": (weight, (0,)), "K": (weight, (2,)), "pad": pad}
    if sub.bias is None:
        if len(nodes) != 1:
            return None
        return FamilyGuess("conv2d_nchw", {}, "the module is a convolution without a bias", binding)
    chain = _epilogue_chain(traced, nodes)
    if chain is None:
        return None
    expr, after = chain
    binding["bias"] = (f"{first.target}.bias", None)
    return FamilyGuess("conv2d_nchw_bias", {"op": expr}, f"the module is a convolution with a bias{after}",
                       binding)


# A problem whose Model is itself a pooling or convolution module is traced inside a Sequential, so that the
# module is a call_module node like anywhere else (fx would trace its forward into F.max_pool2d, F.conv2d). (A Model that is an
# nn.Linear traces into F.linear on its own parameters, which _linear_operands reads.)
_ROOT_MODULES = (nn.MaxPool2d, nn.AvgPool2d, nn.Conv2d)


def infer_family(model: nn.Module, inputs: list[Any]) -> FamilyGuess | None:
    """The library family of a one-operator module, or None. `inputs` are example inputs (for ranks)."""
    if type(model) in _ROOT_MODULES:
        model = nn.Sequential(model)
    try:
        traced = torch.fx.symbolic_trace(model)
    except Exception:  # noqa: BLE001 - a module fx cannot trace simply gets no family
        return None
    nodes = _operator_nodes(traced.graph)
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
    if (linear := _linear_chain(traced, nodes, tensors)) is not None:
        return linear
    if (conv := _conv_chain(traced, nodes, tensors)) is not None:
        return conv
    if (nt := _gemm_nt(nodes, tensors)) is not None:
        return nt
    if len(nodes) == 1 and len(tensors) == 2 and nodes[0].op == "call_function" \
            and nodes[0].target in _MATMUL and all(t.dim() == 2 for t in tensors) \
            and all(a.op == "placeholder" for a in nodes[0].args[:2]):
        return FamilyGuess("gemm", {}, "the module is one product of two matrices")
    if len(nodes) == 1 and nodes[0].op == "call_function" and nodes[0].target is F.scaled_dot_product_attention:
        return _attention(nodes[0], tensors)
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
        if type(sub) in (nn.MaxPool2d, nn.AvgPool2d):
            return _pool2d(sub, ndim)
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
