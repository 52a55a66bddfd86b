"""Which strategy family of kopt's library a PyTorch problem is, read off the module's graph.

Families: activation (a forward that is element-wise on its one input: named activations, arithmetic and comparisons
with constants, where, clamp, hardtanh, leaky_relu ..., as one C++ expression `op` over x; elementwise.py),
row_softmax (softmax over the last dimension; mid_softmax over any other), row_reduce (sum, mean, amax, amin, prod,
and max / min values, over the last dimension; row_logsumexp for a log-sum-exp there), col_reduce and mid_reduce
(the same over the first or a middle dimension), mid_argmax and mid_argmin (argmax, argmin, max / min indices over
any dimension but the last), row_scan and col_scan (cumsum over the last or the first dimension), row_cumprod
(cumprod over the last dimension; these reductions.py), row_scan_reverse (the suffix sum, cumsum between two flips,
over the last dimension) and row_scan_masked (cumsum(x * mask) over the last dimension, mask a bool input of x's
shape; these two scans.py; the reduce families also for several consecutive dimensions and for a global pooling,
nn.AdaptiveAvgPool2d(1) and the like), elementwise (a forward element-wise on its two inputs of one shape, `op` over
a and b), gemm (one product of two 2-D inputs), gemm_nt (`a @ b.T` of two 2-D inputs, and nn.Linear without a bias
and with nothing after it), batched_gemm (bmm of two 3-D inputs), transpose (the transposed copy of a matrix),
gather_rows (an embedding lookup), layernorm and rmsnorm (over the last dimension, the module's own or written out;
norms.py), attention (scaled_dot_product_attention, or softmax(q k^T * scale) v written out with bmm/matmul;
attention.py), pool2d (MaxPool2d / AvgPool2d without padding, dilation or ceil mode), linear (nn.Linear, or F.linear
on the module's own parameters, with a bias, on the one input, then element-wise operators on its result, fused into
the family's `op` over `v`, the product plus the bias), conv2d_nchw_bias (nn.Conv2d with its bias, stride 1, then
such operators; conv2d_nchw without a bias and with nothing after it; conv2d_nchw_strided(_bias) for any other
geometry of one group and for nn.Conv1d; conv_transpose2d_nchw(_bias) for nn.ConvTranspose2d and 1d;
conv3d_ncdhw(_bias) and conv_transpose3d_ncdhw(_bias) for nn.Conv3d and nn.ConvTranspose3d of one group;
linear_channel, conv2d_nchw_bias_channel, conv_transpose2d_nchw_bias_channel and conv3d_ncdhw_bias_channel when the
chain also reads one per-channel parameter of the module, `p` in `op`; a layer without a bias whose one use adds
such a parameter has it as its bias), loss (a scalar loss of two same-shape inputs: mse, l1, smooth_l1, huber,
kl_div with reduction mean or sum, or an element-wise expression of both followed by a full mean or sum, as `map`
over x, y and `finish`; losses.py), loss_rows (kl_div with reduction batchmean: `finish` over s, rows and cols),
loss_rows_broadcast (an element-wise expression of a tensor and a target broadcast along its leading dimensions,
then a full mean or sum: KernelBench's hinge loss), cross_entropy_mean (F.cross_entropy / nn.CrossEntropyLoss with
PyTorch's defaults on 2-D logits and 1-D class indices; losses.py).

A forward that no one family serves may be a chain of them: kopt_torch.chain splits it into stages, each inferred
here as a module of its own (docs/pytorch.md, "Chains of families").

A problem whose forward is one operation the library has a family for gets that family (and the family's
`[strategy_params]`, and a `[binding]` of the roles names alone would not decide), so that `kopt optimize`
tries the right strategies without the user naming them. The graph comes from `torch.fx.symbolic_trace`;
anything it cannot trace, or any other graph, gets no family (the user can still pass --family).
docs/pytorch.md, "Families".
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from .attention import attention_family
from .einsum import einsum_family
from .elementwise import call_argument, elementwise_expression, float_literal, node_expression, uses_every_operator
from .family_guess import Binding, FamilyGuess
from .graph import graph_inputs, operator_nodes, output_node
from .losses import cross_entropy_family, loss_family
from .norms import norm_family
from .reductions import (ADAPTIVE_POOLS, LOG_ADD_EXP, adaptive_pool_family, last_dim, reduction_family,
                         rows_binding, single_axis)
from .scans import scan_family

_SOFTMAX = {torch.softmax: "row_softmax", F.softmax: "row_softmax", torch.log_softmax: "row_log_softmax",
            F.log_softmax: "row_log_softmax"}
_SOFTMAX_MODULES = {nn.Softmax: "row_softmax", nn.LogSoftmax: "row_log_softmax"}


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


_POOLS = {nn.MaxPool1d: 1, nn.MaxPool2d: 2, nn.MaxPool3d: 3, nn.AvgPool1d: 1, nn.AvgPool2d: 2, nn.AvgPool3d: 3}


def _pool(sub: nn.Module, ndim: int) -> FamilyGuess | None:
    """pool2d where it serves (_pool2d), else pool3d_ncdhw for nn.MaxPool1d/2d/3d and nn.AvgPool1d/2d/3d on a batched
    input with any window, stride, padding and dilation, floor mode: the N x C x D x H x W view with D = 1 (and
    H = 1) for the 1-D and 2-D layers, the geometry pinned as constants."""
    axes = _POOLS[type(sub)]
    if ndim != axes + 2 or sub.ceil_mode or getattr(sub, "return_indices", False) \
            or getattr(sub, "divisor_override", None) is not None:
        return None
    if axes == 2 and (square := _pool2d(sub, ndim)) is not None:
        return square

    def per_axis(v: Any, fill: int) -> tuple[int, ...] | None:
        v = (v,) * axes if isinstance(v, int) else tuple(v)
        return (fill,) * (3 - axes) + v if len(v) == axes and all(isinstance(e, int) for e in v) else None

    kernel = per_axis(sub.kernel_size, 1)
    stride = per_axis(sub.stride if sub.stride is not None else sub.kernel_size, 1)
    padding = per_axis(sub.padding, 0)
    dilation = per_axis(getattr(sub, "dilation", 1), 1)
    if None in (kernel, stride, padding, dilation):
        return None
    binding: dict[str, Binding] = {"x": (0, None), "N": (0, (0,)), "C": (0, (1,))}
    for i, axis in enumerate("DHW"):
        dim = ndim - 3 + i
        binding[axis] = (0, (dim,)) if dim >= 2 else 1
    for prefix, values in (("K", kernel), ("S", stride), ("P", padding), ("D", dilation)):
        binding.update({f"{prefix}{axis}": int(v) for axis, v in zip("DHW", values)})
    name = type(sub).__name__
    what = f"the module is one {name} (window {kernel[3 - axes:]}, stride {stride[3 - axes:]}, padding " \
           f"{padding[3 - axes:]}, dilation {dilation[3 - axes:]})"
    if name.startswith("Max"):
        return FamilyGuess("pool3d_ncdhw", {"combine": "fmaxf(a, b)", "identity": "-INFINITY", "finish": "s"}, what,
                           binding)
    divisor = "k" if sub.count_include_pad else "v"
    return FamilyGuess("pool3d_ncdhw", {"combine": "a + b", "identity": "0.0f", "finish": f"s / {divisor}"}, what,
                       binding)


_MATMUL = (torch.matmul, torch.mm, operator.matmul)


def _channel_vector(traced: Any, node: Any, channels: int, axis: int, rank: int) -> str | None:
    """The state_dict key of the parameter or buffer that get_attr `node` reads when it holds one value per
    output channel of a layer whose output has `rank` dimensions, laid out to broadcast along the channel axis,
    `axis` from the right (1: a linear layer's features, shape (C,); 3: a 2-D convolution's channels, shape
    (C, 1, 1) or (1, C, 1, 1)); None for anything else."""
    if getattr(node, "op", None) != "get_attr":
        return None
    named = dict(traced.named_parameters()) | dict(traced.named_buffers())
    value = named.get(node.target)
    if value is None:
        return None
    shape = tuple(value.shape)
    if not axis <= len(shape) <= rank or shape[-axis] != channels \
            or any(d != 1 for i, d in enumerate(shape) if i != len(shape) - axis):
        return None
    return str(node.target)


def _bias_add(traced: Any, nodes: list[Any], channels: int, axis: int, rank: int) -> tuple[Any, str] | None:
    """(the add node, the vector's key) when nodes[1] adds a per-channel vector (_channel_vector) to nodes[0]
    (a layer without a bias) and is its one use: the layer's bias, written as a separate parameter."""
    if len(nodes) < 2 or len(nodes[0].users) != 1 or nodes[1] not in nodes[0].users:
        return None
    add = nodes[1]
    name = str(add.target) if add.op == "call_method" else add.target
    if name not in (operator.add, torch.add, "add") or len(add.args) != 2 or add.kwargs:
        return None
    other = add.args[1] if add.args[0] is nodes[0] else add.args[0]
    key = _channel_vector(traced, other, channels, axis, rank)
    return (add, key) if key is not None else None


def _epilogue_chain(traced: Any, nodes: list[Any], layer: tuple[int, int, int], skip: tuple[str, ...] = (),
                    root: Any = None) -> tuple[str, str, str | None] | None:
    """The element-wise operators after the layer (nodes[0], or `root` when it is nodes[1], the layer plus its
    bias), on its result, constants and at most one per-channel vector of the module (_channel_vector; `layer`
    is its channel count, axis and the output's rank; `skip` the layer's own parameters), the last one the
    forward's output: one C++ expression over `v` (the layer's result) and `p` (the vector's value for the
    output's channel), the words that name the steps, and the vector's state_dict key (None when the
    expression reads none); None when the graph is anything else."""
    channel_nodes: dict[Any, str] = {}
    for node in traced.graph.nodes:
        if node.op != "get_attr" or node.target in skip or str(node.target).startswith("_tensor_constant") \
                or any(user is root for user in node.users):
            continue
        key = _channel_vector(traced, node, *layer)
        if key is None:
            return None
        channel_nodes[node] = key
    if len(set(channel_nodes.values())) > 1:
        return None  # two vectors: the families take one
    chain = elementwise_expression(traced, root if root is not None else nodes[0], "v",
                                   before=1 if root is None else 2, constants={n: "p" for n in channel_nodes})
    if chain is None:
        return None
    expr, steps = chain
    vector = next(iter(channel_nodes.values()), None) if re.search(r"\bp\b", expr) else None
    return expr, f" then {', '.join(steps)}" if steps else "", vector


def _transposed_operand(node: Any) -> Any:
    """What `node` transposes when it is `b.T`, `b.t()`, `b.transpose(0, 1)` or `torch.transpose(b, 0, 1)` (or 1, 0)
    of a forward input or a parameter of the module; None otherwise."""
    if getattr(node, "op", None) not in ("call_function", "call_method") or not node.args:
        return None
    operand = node.args[0]
    if getattr(operand, "op", None) not in ("placeholder", "get_attr"):
        return None
    if node.op == "call_function" and node.target is getattr:
        return operand if node.args[1:] in (("T",), ("mT",)) else None
    name = str(node.target) if node.op == "call_method" else getattr(node.target, "__name__", "")
    if name == "t":
        return operand if len(node.args) == 1 else None
    transposes = name == "transpose" and sorted(node.args[1:]) in ([-2, -1], [0, 1], [-1, 0], [-2, 1])
    return operand if transposes else None


def _is_transpose_of_placeholder(node: Any) -> bool:
    """`b.T` (and the other spellings of _transposed_operand) of a forward input."""
    return getattr(_transposed_operand(node), "op", None) == "placeholder"


def _gemm_nt(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """gemm_nt for `a @ b.T` (matmul or mm) of two 2-D forward inputs, b being the second; or of the one 2-D
    forward input and a 2-D parameter of the module (`x @ self.weight.T`: a linear layer without a bias, written
    out)."""
    if len(nodes) != 2 or not 1 <= len(tensors) <= 2 or any(t.dim() != 2 for t in tensors):
        return None
    transpose, product = nodes
    if product.op != "call_function" or product.target not in _MATMUL or len(product.args) != 2 or product.kwargs:
        return None
    placeholders = graph_inputs(product.graph)
    a, b = product.args
    operand = _transposed_operand(b) if b is transpose else None
    if a is not placeholders[0] or operand is None:
        return None
    if len(tensors) == 2 and operand is placeholders[1]:
        return FamilyGuess("gemm_nt", {}, "the module is one product of a matrix and a transposed matrix (a @ b.T)",
                           {"A": (0, None), "B": (1, None), "M": (0, (0,)), "N": (1, (0,)), "K": (0, (1,))})
    if len(tensors) != 1 or operand.op != "get_attr":
        return None
    weight = dict(traced.named_parameters()).get(operand.target)
    if weight is None or weight.dim() != 2:
        return None
    key = str(operand.target)
    return FamilyGuess("gemm_nt", {}, f"the module is one product of its input and a transposed parameter (x @ {key}.T)",
                       {"A": (0, None), "B": (key, None), "M": (0, (0,)), "N": (key, (0,)), "K": (0, (1,))})


def _linear_operands(traced: Any, node: Any) -> tuple[str, str | None] | None:
    """(the weight's state_dict key, the bias's or None) when `node` is x W^T (+ b) of the forward's one input
    with the module's own parameters: an nn.Linear, or F.linear(x, self.weight, self.bias)."""
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        if type(sub) is not nn.Linear or len(node.args) != 1 or node.kwargs:
            return None
        x, weight = node.args[0], f"{node.target}.weight"
        bias = f"{node.target}.bias" if sub.bias is not None else None
    elif node.op == "call_function" and node.target is F.linear:
        x, weight, bias = (call_argument(node, 0, "input"), call_argument(node, 1, "weight"),
                           call_argument(node, 2, "bias"))
        if getattr(weight, "op", None) != "get_attr" or (bias is not None and getattr(bias, "op", None) != "get_attr"):
            return None
        weight, bias = weight.target, (bias.target if bias is not None else None)
    else:
        return None
    return (weight, bias) if getattr(x, "op", None) == "placeholder" else None


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
    weight, bias = operands
    leading = tuple(range(tensors[0].dim() - 1))
    binding: dict[str, Binding] = {"M": (0, leading), "N": (weight, (0,)), "K": (weight, (1,))}
    if bias is None and len(nodes) == 1:
        return FamilyGuess("gemm_nt", {}, "the module is a linear layer without a bias (x @ weight.T)",
                           {"A": (0, None), "B": (weight, None), **binding})
    layer = (int(traced.get_parameter(weight).shape[0]), 1, tensors[0].dim())
    tail = _layer_tail(traced, nodes, weight, bias, layer, "a linear layer", binding)
    # The bias is named in the [binding] only when it is a separate parameter: the module's own is its role's.
    return tail.guess("linear", "linear_channel", pin_bias=tail.folded) if tail is not None else None


def _conv_axes(sub: nn.Module) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """A convolution module's (nn.ConvNd or nn.ConvTransposeNd) strides, zero padding and dilations, one value per
    spatial axis, or None where the padding is not the same on both sides of an axis ("same" with an even dilated
    filter pads one side more)."""
    stride, dilation, kernel = tuple(sub.stride), tuple(sub.dilation), tuple(sub.kernel_size)
    if sub.padding == "valid":
        padding: tuple[int, ...] = (0,) * len(kernel)
    elif sub.padding == "same":
        spans = [d * (k - 1) for d, k in zip(dilation, kernel)]
        if any(span % 2 for span in spans):
            return None
        padding = tuple(span // 2 for span in spans)
    else:
        padding = tuple(sub.padding)
    if not all(isinstance(v, int) for v in (*stride, *padding, *dilation)):
        return None
    return stride, padding, dilation


def _conv_geometry(sub: nn.Module) -> tuple[int, int, int, int, int, int] | None:
    """nn.Conv2d's or nn.ConvTranspose2d's (or their 1-D forms', as one row: H = 1) strides, zero padding and
    dilations per axis, (SH, SW, PH, PW, DH, DW) (_conv_axes)."""
    axes = _conv_axes(sub)
    if axes is None:
        return None
    # A 1-D layer is one row: stride and dilation 1, no padding along its height.
    stride, padding, dilation = ((first, *v) if len(v) == 1 else v for v, first in zip(axes, (1, 0, 1)))
    return (stride[0], stride[1], padding[0], padding[1], dilation[0], dilation[1])


_CONV_3D = (nn.Conv3d, nn.ConvTranspose3d)

# A convolution family's forms with a bias and a chain after it: (the chain over v, the chain that also reads a
# per-channel parameter p: None where the library has no such strategy yet).
_CONV_TAIL_FAMILIES: dict[str, tuple[str, str | None]] = {
    "conv2d_nchw": ("conv2d_nchw_bias", "conv2d_nchw_bias_channel"),
    "conv2d_nchw_strided": ("conv2d_nchw_strided_bias", None),
    "conv_transpose2d_nchw": ("conv_transpose2d_nchw_bias", "conv_transpose2d_nchw_bias_channel"),
    "conv3d_ncdhw": ("conv3d_ncdhw_bias", "conv3d_ncdhw_bias_channel"),
    "conv_transpose3d_ncdhw": ("conv_transpose3d_ncdhw_bias", None),
    "depthwise_conv2d_nchw": ("depthwise_conv2d_nchw_bias", None),
}


def _conv3d_binding(sub: nn.Module, weight: str, transposed: bool) -> dict[str, Binding] | None:
    """The roles of a conv3d_ncdhw or conv_transpose3d_ncdhw binding that are not the 2-D ones: the input's
    D, H, W, the filter's KD, KH, KW, and the geometry per axis as constants (and the output padding)."""
    axes = _conv_axes(sub)
    if axes is None:
        return None
    (sd, sh, sw), (pd, ph, pw), (dd, dh, dw) = axes
    binding: dict[str, Binding] = {
        "D": (0, (2,)), "H": (0, (3,)), "W": (0, (4,)), "KD": (weight, (2,)), "KH": (weight, (3,)),
        "KW": (weight, (4,)), "SD": sd, "SH": sh, "SW": sw, "PD": pd, "PH": ph, "PW": pw, "DD": dd, "DH": dh,
        "DW": dw}
    if transposed:
        opd, oph, opw = tuple(sub.output_padding)
        binding |= {"OPD": opd, "OPH": oph, "OPW": opw}
    return binding


def _conv_chain(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """conv2d_nchw_bias for an nn.Conv2d with its bias on the one 4-D input (stride 1, no dilation, one group,
    square kernel, zero padding the same on every side) followed by element-wise operators, each on the
    previous one's result alone, fused into `op` over v (the convolution plus the bias); without a bias and with
    nothing after it, conv2d_nchw. Every role but the output is pinned: the input's dimensions are N, Cin, H, W,
    the weight's Cout and K, the padding a constant. Any other geometry of one group (rectangular filters,
    strides, padding per axis, dilations), and nn.Conv1d on a 3-D input as one row of height 1, gets
    conv2d_nchw_strided(_bias), its strides, padding and dilations constants of the binding. nn.ConvTranspose2d
    (and nn.ConvTranspose1d as one row) of one group gets conv_transpose2d_nchw(_bias, _bias_channel), its output
    padding constants as well; nn.Conv3d and nn.ConvTranspose3d of one group on a 5-D input conv3d_ncdhw(_bias,
    _bias_channel) and conv_transpose3d_ncdhw(_bias), the input's D, H, W and the filter's KD, KH, KW pinned, the
    geometry per axis constants (_conv3d_binding). An nn.Conv2d (or nn.Conv1d as one row) whose groups equal both
    channel counts gets depthwise_conv2d_nchw(_bias), bound as the strided family but with one channel count, C."""
    if not nodes or len(tensors) != 1:
        return None
    first = nodes[0]
    if first.op != "call_module" or len(first.args) != 1 or first.kwargs \
            or getattr(first.args[0], "op", None) != "placeholder":
        return None
    sub = traced.get_submodule(first.target)
    two = type(sub) in (nn.Conv2d, nn.ConvTranspose2d)
    three = type(sub) in _CONV_3D
    transposed = type(sub) in (nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d)
    depthwise = type(sub) in (nn.Conv1d, nn.Conv2d) and sub.groups > 1 \
        and sub.groups == sub.in_channels == sub.out_channels
    if type(sub) not in (nn.Conv1d, nn.Conv2d, nn.ConvTranspose1d, nn.ConvTranspose2d, *_CONV_3D) \
            or tensors[0].dim() != (5 if three else 4 if two else 3) or (sub.groups != 1 and not depthwise) \
            or sub.padding_mode != "zeros":
        return None
    weight = f"{first.target}.weight"
    # A depthwise layer's filter is C x 1 x KH x KW: one channel count, C.
    binding: dict[str, Binding] = {"x": (0, None), "w": (weight, None), "N": (0, (0,))}
    binding |= {"C": (0, (1,))} if depthwise else {"Cin": (0, (1,)), "Cout": (weight, (1,) if transposed else (0,))}
    if three:
        depth = _conv3d_binding(sub, weight, transposed)
        if depth is None:
            return None
        binding |= depth
        family = "conv_transpose3d_ncdhw" if transposed else "conv3d_ncdhw"
        what = "a 3-D transposed convolution" if transposed else "a 3-D convolution"
        layer = (sub.out_channels, 4, 5)
    else:
        geometry = _conv_geometry(sub)
        if geometry is None:
            return None
        square = two and not transposed and not depthwise and sub.kernel_size[0] == sub.kernel_size[1] \
            and geometry[:2] == (1, 1) and geometry[2] == geometry[3] and geometry[4:] == (1, 1)
        layer = (sub.out_channels, 3 if two else 2, tensors[0].dim())
        if square:
            binding |= {"H": (0, (2,)), "W": (0, (3,)), "K": (weight, (2,)), "pad": geometry[2]}
            family = "conv2d_nchw"
        else:
            sh, sw, ph, pw, dh, dw = geometry
            binding |= {"H": (0, (2,)), "W": (0, (3,)), "KH": (weight, (2,)), "KW": (weight, (3,))} if two else \
                {"H": 1, "W": (0, (2,)), "KH": 1, "KW": (weight, (2,))}
            binding |= {"SH": sh, "SW": sw, "PH": ph, "PW": pw, "DH": dh, "DW": dw}
            family = "depthwise_conv2d_nchw" if depthwise else "conv2d_nchw_strided"
        if transposed:
            oph, opw = tuple(sub.output_padding) if two else (0, sub.output_padding[0])
            binding |= {"OPH": oph, "OPW": opw}
            family = "conv_transpose2d_nchw"
        kind = "transposed " if transposed else "depthwise " if depthwise else ""
        what = f"a {kind}convolution" if two else f"a 1-D {kind}convolution (one row of height 1)"
    bias = f"{first.target}.bias" if sub.bias is not None else None
    if bias is None and len(nodes) == 1:
        return FamilyGuess(family, {}, f"the module is {what} without a bias", binding)
    tail = _layer_tail(traced, nodes, weight, bias, layer, f"{what} with a bias", binding)
    if tail is None:
        return None
    return tail.guess(*_CONV_TAIL_FAMILIES[family])


@dataclass
class _Tail:
    """What follows a layer with its bias (_layer_tail): the chain's `op`, the words that say so, the
    per-channel vector it reads (a state_dict key, or None), the bias's key, whether that bias is a separate
    parameter folded into the layer, and the layer's binding."""
    op: str
    reason: str
    vector: str | None
    bias: str
    folded: bool
    binding: dict[str, Binding]

    def guess(self, family: str, channel_family: str | None, pin_bias: bool = True) -> FamilyGuess | None:
        """`family`, or `channel_family` when the chain reads a per-channel vector (None: no family then)."""
        binding = self.binding | ({"bias": (self.bias, None)} if pin_bias else {})
        if self.vector is None:
            return FamilyGuess(family, {"op": self.op}, self.reason, binding)
        if channel_family is None:
            return None
        return FamilyGuess(channel_family, {"op": self.op}, f"{self.reason}, p the per-channel parameter {self.vector}",
                           binding | {"channel": (self.vector, None)})


def _layer_tail(traced: Any, nodes: list[Any], weight: str, bias: str | None, layer: tuple[int, int, int],
                what: str, binding: dict[str, Binding]) -> _Tail | None:
    """The element-wise chain after a layer (nodes[0], its weight's and bias's state_dict keys; `layer` its
    channel count, axis and rank) with a bias: the module's, or a per-channel vector added right after a
    bias-less layer (_bias_add); None for anything else."""
    root, folded = None, bias is None
    if bias is None:
        added = _bias_add(traced, nodes, *layer)
        if added is None:
            return None  # a bias-less layer with a chain after it: no family yet
        root, bias = added
        what += " (its bias a separate parameter)"
    chain = _epilogue_chain(traced, nodes, layer, (weight, bias), root)
    if chain is None:
        return None
    expr, after, vector = chain
    return _Tail(expr, f"the module is {what}{after}", vector, bias, folded, binding)


def _gemm(nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """gemm for one product (matmul, mm, @) of the two inputs, the first a matrix or a stack of them (a 3-D or 4-D
    tensor times a matrix: its leading dimensions are rows of one matrix, M their product), the second a matrix;
    gemv when the second is a vector or a one-column matrix and the first a matrix."""
    if len(nodes) != 1 or len(tensors) != 2 or nodes[0].op != "call_function" or nodes[0].target not in _MATMUL \
            or len(nodes[0].args) != 2 or nodes[0].kwargs:
        return None
    placeholders = graph_inputs(nodes[0].graph)
    if list(nodes[0].args) != placeholders[:2]:
        return None
    a, b = tensors
    if a.dim() == 2 and (b.dim() == 1 or (b.dim() == 2 and b.shape[1] == 1)) and nodes[0].target is not torch.mm:
        # A matrix times a vector (or a one-column matrix, KernelBench's matrix-vector product): gemv.
        return FamilyGuess("gemv", {}, "the module is one product of a matrix and a vector",
                           {"A": (0, None), "x": (1, None), "M": (0, (0,)), "N": (0, (1,))})
    if b.dim() != 2 or a.dim() < 2 or (a.dim() > 2 and nodes[0].target is torch.mm):
        return None
    if a.dim() == 2:
        return FamilyGuess("gemm", {}, "the module is one product of two matrices")
    return FamilyGuess("gemm", {}, f"the module is one product of a {a.dim()}-D tensor and a matrix (its leading "
                       "dimensions are the rows of one matrix)",
                       {"A": (0, None), "B": (1, None), "M": (0, tuple(range(a.dim() - 1))),
                        "K": (0, (a.dim() - 1,)), "N": (1, (1,))})


def _batched_gemm(nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """batched_gemm for torch.bmm (or matmul, @) of the two 3-D inputs: C[i] = A[i] @ B[i]."""
    if len(nodes) != 1 or len(tensors) != 2 or any(t.dim() != 3 for t in tensors):
        return None
    node = nodes[0]
    if node.op != "call_function" or node.target not in (*_MATMUL, torch.bmm) or len(node.args) != 2 \
            or node.kwargs:
        return None
    placeholders = graph_inputs(node.graph)
    if list(node.args) != placeholders[:2]:
        return None
    return FamilyGuess("batched_gemm", {}, "the module is one batched product of two stacks of matrices (bmm)",
                       {"A": (0, None), "B": (1, None), "batch": (0, (0,)), "M": (0, (1,)), "K": (0, (2,)),
                        "N": (1, (2,))})


def _swaps_two_dims(node: Any) -> bool:
    """`x.t()`, `x.T`, `x.transpose(0, 1)`, `x.permute(1, 0)` (and their function forms) of a 2-D tensor."""
    if _is_transpose_of_placeholder(node):
        return True
    name = str(node.target) if node.op == "call_method" else getattr(node.target, "__name__", "")
    dims = list(node.args[1:]) if len(node.args) > 2 else list(node.args[1]) if len(node.args) == 2 \
        and isinstance(node.args[1], (tuple, list)) else []
    return name == "permute" and not node.kwargs and dims in ([1, 0], [-1, -2], [1, -2], [-1, 0]) \
        and getattr(node.args[0], "op", None) == "placeholder"


def _transpose(nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """transpose for the transposed copy of the one 2-D input (`x.t()`, then `.contiguous()` or not)."""
    if len(tensors) != 1 or tensors[0].dim() != 2 or not nodes or len(nodes) > 2 or not _swaps_two_dims(nodes[0]):
        return None
    if len(nodes) == 2 and not (nodes[1].op == "call_method" and nodes[1].target in ("contiguous", "clone")
                                and nodes[1].args == (nodes[0],) and not nodes[1].kwargs):
        return None
    return FamilyGuess("transpose", {}, "the module is the transposed copy of a matrix",
                       {"in": (0, None), "rows": (0, (0,)), "cols": (0, (1,))})


def _embedding(traced: Any, nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """gather_rows for one nn.Embedding (no max_norm) or F.embedding on the module's own table, looked up
    with the one integer input: a row of the table per index."""
    if len(nodes) != 1 or len(tensors) != 1 or tensors[0].is_floating_point():
        return None
    node = nodes[0]
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        if type(sub) is not nn.Embedding or sub.max_norm is not None or len(node.args) != 1 or node.kwargs:
            return None
        table, ids = f"{node.target}.weight", node.args[0]
    elif node.op == "call_function" and node.target is F.embedding and len(node.args) == 2 \
            and node.kwargs.get("max_norm") is None \
            and set(node.kwargs) <= {"padding_idx", "max_norm", "norm_type", "scale_grad_by_freq", "sparse"}:
        # padding_idx, scale_grad_by_freq and sparse change the gradient only; norm_type needs max_norm.
        ids, weight = node.args
        if getattr(weight, "op", None) != "get_attr":
            return None
        table = weight.target
    else:
        return None
    if getattr(ids, "op", None) != "placeholder":
        return None
    return FamilyGuess("gather_rows", {}, "the module is one embedding lookup (a row of the table per index)",
                       {"table": (table, None), "idx": (0, None), "n": (0, tuple(range(tensors[0].dim()))),
                        "dim": (table, (1,))}, gathered=(table,))


def _activation(traced: Any, nodes: list[Any], inputs: list[Any]) -> FamilyGuess | None:
    """activation for a forward that is element-wise on its one floating-point input (named activations,
    arithmetic and comparisons with constants, where, clamp ...), its `op` one expression over x. A number among
    the forward's inputs (KernelBench's matrix-scalar product passes `s = 3.14` from get_inputs) is a constant
    of the op: the importer keeps such an input fixed, the value get_inputs gives, in every trial."""
    tensors = [(i, x) for i, x in enumerate(inputs) if isinstance(x, torch.Tensor)]
    if not nodes or len(tensors) != 1 or not tensors[0][1].is_floating_point():
        return None
    placeholders = graph_inputs(traced.graph)
    if len(placeholders) != len(inputs):
        return None
    constants = {}
    for i, value in enumerate(inputs):
        if i == tensors[0][0]:
            continue
        literal = float_literal(value)
        if literal is None:
            return None
        constants[placeholders[i]] = literal
    expression = elementwise_expression(traced, placeholders[tensors[0][0]], "x", constants=constants)
    if expression is None:
        return None
    op, steps = expression
    if not steps:
        return None  # the input itself: a copy, no activation
    what = f"one {steps[0]}" if len(steps) == 1 else f"element-wise on its input ({', '.join(steps)})"
    return FamilyGuess("activation", {"op": op}, f"the module is {what}")


def _channel_map(traced: Any, nodes: list[Any], inputs: list[Any]) -> FamilyGuess | None:
    """channel_map for a forward element-wise on its one floating-point input (two dimensions or more) and one
    parameter or buffer of the module holding a value per channel, dimension 1 (shape (C,) on an N x C input,
    (C, 1, 1) or (1, C, 1, 1) on NCHW: _channel_vector), as `x * self.scale` then an activation: `op` over v (the
    element) and p (its channel's value); outer the first dimension, C the second, inner the product of the rest
    (1 for a matrix). A parameter of one value (`x * self.scale` with a scale of shape (1,), KernelBench level 2's
    84 and 97) is the same family with one channel: outer and C the constant 1, inner every element."""
    if not nodes or len(inputs) != 1 or not isinstance(inputs[0], torch.Tensor) \
            or not inputs[0].is_floating_point() or inputs[0].dim() < 1:
        return None
    rank = inputs[0].dim()
    vectors: dict[Any, str] = {}
    scalar = True  # every parameter read holds one value
    for node in traced.graph.nodes:
        if node.op != "get_attr" or str(node.target).startswith("_tensor_constant"):
            continue
        key = _scalar_parameter(traced, node)
        if key is None and rank >= 2:
            key, scalar = _channel_vector(traced, node, int(inputs[0].shape[1]), rank - 1, rank), False
        if key is None:
            return None
        vectors[node] = key
    if len(set(vectors.values())) != 1:
        return None  # none (an activation) or two parameters
    expression = elementwise_expression(traced, graph_inputs(traced.graph)[0], "v", constants={n: "p" for n in vectors})
    if expression is None or not re.search(r"\bp\b", expression[0]):
        return None
    op, steps = expression
    key = next(iter(vectors.values()))
    if scalar:  # one channel of everything: p is the parameter's one value
        return FamilyGuess("channel_map", {"op": op}, f"the module is element-wise on its input and the scalar "
                           f"parameter {key} ({', '.join(steps)})",
                           {"in": (0, None), "channel": (key, None), "outer": 1, "C": 1,
                            "inner": (0, tuple(range(rank)))})
    inner: Binding = (0, tuple(range(2, rank))) if rank > 2 else 1
    return FamilyGuess("channel_map", {"op": op},
                       f"the module is element-wise on its input and the per-channel {key} ({', '.join(steps)})",
                       {"in": (0, None), "channel": (key, None), "outer": (0, (0,)), "C": (0, (1,)), "inner": inner})


def _scalar_parameter(traced: Any, node: Any) -> str | None:
    """The state_dict key of the floating-point parameter or buffer of one element (shape (), (1,), (1, 1) ...:
    `nn.Parameter(torch.tensor(scale))`) that get_attr `node` reads, else None."""
    named = dict(traced.named_parameters()) | dict(traced.named_buffers())
    value = named.get(node.target) if getattr(node, "op", None) == "get_attr" else None
    if value is None or value.numel() != 1 or not value.is_floating_point():
        return None
    return str(node.target)


def _elementwise2(traced: Any, nodes: list[Any], inputs: list[Any]) -> FamilyGuess | None:
    """elementwise for a forward that is element-wise on its two floating-point inputs of one shape (no
    broadcast), both used: the family's `op`, one C++ expression over a and b (the first and the second input),
    c = op(a, b) element by element."""
    if not nodes or len(inputs) != 2 or not all(isinstance(x, torch.Tensor) and x.is_floating_point() for x in inputs) \
            or inputs[0].shape != inputs[1].shape:
        return None
    placeholders = graph_inputs(traced.graph)
    output = output_node(traced.graph).args[0]
    if len(placeholders) != 2 or not isinstance(output, torch.fx.Node):
        return None
    expression = node_expression(traced, output, {placeholders[0]: "a", placeholders[1]: "b"})
    if expression is None:
        return None
    op, steps, used = expression
    if not set(placeholders) <= used or not uses_every_operator(traced.graph, used):
        return None
    ndim = inputs[0].dim()
    return FamilyGuess("elementwise", {"op": op}, f"the module is element-wise on its two inputs ({', '.join(steps)})",
                       {"a": (0, None), "b": (1, None), "n": (0, tuple(range(ndim)))})


# A problem whose Model is itself a pooling, convolution or normalisation module is traced inside a Sequential,
# so that the module is a call_module node like anywhere else (fx would trace its forward into F.max_pool2d,
# F.conv2d). (A Model that is an nn.Linear traces into F.linear on its own parameters, which _linear_operands
# reads.)
_ROOT_MODULES = (*_POOLS, nn.Conv1d, nn.Conv2d, nn.ConvTranspose1d, nn.ConvTranspose2d, *_CONV_3D,
                 nn.LayerNorm, nn.RMSNorm, nn.GroupNorm, nn.InstanceNorm1d, nn.InstanceNorm2d, nn.InstanceNorm3d,
                 nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d,
                 nn.Embedding, *ADAPTIVE_POOLS)


def infer_family(model: nn.Module, inputs: list[Any]) -> FamilyGuess | None:
    """The library family of a one-operator module, or None. `inputs` are example inputs (for ranks)."""
    if type(model) in _ROOT_MODULES:
        model = nn.Sequential(model)
    try:
        traced = torch.fx.symbolic_trace(model)
    except Exception:  # noqa: BLE001 - a module fx cannot trace simply gets no family
        return None
    nodes = operator_nodes(traced.graph)
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
    for match in (lambda: _linear_chain(traced, nodes, tensors), lambda: _conv_chain(traced, nodes, tensors),
                  lambda: _gemm_nt(traced, nodes, tensors), lambda: _batched_gemm(nodes, tensors),
                  lambda: _transpose(nodes, tensors), lambda: _embedding(traced, nodes, tensors),
                  lambda: norm_family(traced, nodes, tensors)):
        if (guess := match()) is not None:
            return guess
    if (gemm := _gemm(nodes, tensors) or einsum_family(nodes, tensors)) is not None:
        return gemm
    if (attention := attention_family(nodes, tensors)) is not None:
        return attention
    if (loss := loss_family(traced, nodes, tensors)) is not None:
        return loss
    if (cross_entropy := cross_entropy_family(traced, nodes, tensors)) is not None:
        return cross_entropy
    if (activation := _activation(traced, nodes, inputs) or _elementwise2(traced, nodes, inputs)
            or _channel_map(traced, nodes, inputs)) is not None:
        return activation
    if (reduction := reduction_family(nodes, tensors) or scan_family(traced, nodes, tensors)
            or adaptive_pool_family(traced, nodes, tensors)) is not None:
        return reduction
    if len(nodes) != 1 or len(tensors) != 1:
        return None
    node, ndim = nodes[0], tensors[0].dim()
    if node.op == "call_module":
        sub = traced.get_submodule(node.target)
        if type(sub) in _SOFTMAX_MODULES and ndim >= 2:
            return _softmax_guess(_SOFTMAX_MODULES[type(sub)], ndim, sub.dim)
        if type(sub) in _POOLS:
            return _pool(sub, ndim)
        return None
    if node.op == "call_method":
        if str(node.target) in ("softmax", "log_softmax"):
            return _softmax_call(node, f"row_{node.target}", ndim)
        return None
    target = node.target
    if target in _SOFTMAX:
        return _softmax_call(node, _SOFTMAX[target], ndim)
    return None


def _softmax_guess(family: str, ndim: int, dim: Any) -> FamilyGuess | None:
    """Over the last dimension: the rows are the product of the leading dimensions (one for a matrix), the row
    length the last one. A softmax over any other dimension d is mid_softmax: batch the dimensions before d (1 when
    none), rows d, cols those after it, and the column's log-sum-exp as the statistic (LOG_ADD_EXP). A
    log-softmax over another dimension, or no `dim`, gets no family."""
    what = "log-softmax" if family == "row_log_softmax" else "softmax"
    if last_dim(dim, ndim):
        return FamilyGuess(family, {}, f"the module is one {what} over the last dimension",
                           rows_binding(ndim, "N", "C"))
    d = single_axis(dim, ndim)
    if family != "row_softmax" or d is None:
        return None
    batch: Binding = (0, tuple(range(d))) if d > 0 else 1
    return FamilyGuess("mid_softmax", {"map": "v", "combine": LOG_ADD_EXP, "identity": "-INFINITY", "finish": "s"},
                       f"the module is one softmax over dimension {d} of {ndim}",
                       {"in": (0, None), "batch": batch, "rows": (0, (d,)), "cols": (0, tuple(range(d + 1, ndim)))})


def _softmax_call(node: Any, family: str, ndim: int) -> FamilyGuess | None:
    """row_softmax or row_log_softmax for a (log-)softmax call over the last dimension of a matrix or a stack of
    them, mid_softmax for a softmax over another dimension, in FP32 or the input's precision (a `dtype` argument
    casts: no family)."""
    if ndim < 2 or node.kwargs.get("dtype") is not None \
            or set(node.kwargs) - {"dim", "_stacklevel", "dtype"} or len(node.args) > 2:
        return None
    return _softmax_guess(family, ndim, call_argument(node, 1, "dim"))
