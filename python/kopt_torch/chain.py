"""Chains of families: a forward that is several library families run one after another (docs/pytorch.md,
"Chains of families").

KernelBench's level 2 problems are chains of operators (`x = self.linear(x); x = gelu(x); x = softmax(x, dim=1)`)
that no one family serves. `infer_chain` splits the operators of the module's graph (`torch.fx.symbolic_trace`)
into consecutive segments between which exactly one tensor flows (the segment's result, which the next segment
reads: an intermediate buffer of the chain's own), each of which `infer_family` gives a family when it is traced
as a module of its own. A segment may also read the forward's own inputs and the module's parameters and buffers
directly. Reshapes that keep the elements in order (view, reshape, flatten, squeeze, unsqueeze, contiguous) at a
segment's edges are not the family's: a stage reads and writes flat buffers, so `x.unsqueeze(1)` before a pooling
layer or `.squeeze(-1)` after a global pooling only says how the next family sees the elements. The split takes
the longest first segment that has a family and after which the rest splits too (the longest next segment
likewise, and so on), and gives up (None) when no split has a family for every segment, when every cut would carry
more than one value, or when more than six stages would be needed.

Each stage's FamilyGuess refers to its inputs by position among the segment's inputs (`ChainStage.inputs` says
which forward input or intermediate each is, `ChainStage.views` which node's shape the family saw) and to
parameters by state_dict key, the same keys as the whole module's (the segment's module is rooted at the traced
module and keeps its attribute paths). The importer turns both into the launcher's and the intermediates' names
and sizes the intermediates over the task's size names from their shapes at every size case (`chain_shapes`,
`symbolic_shape`).
"""

from __future__ import annotations

import contextlib
import io
import math
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.nn as nn
from torch.fx.passes.shape_prop import ShapeProp, TensorMetadata

from .family import infer_family
from .family_guess import FamilyGuess
from .graph import output_node

MAX_STAGES = 6

# Where a stage's input comes from, or where its result goes: ("input", i) the forward's i-th input,
# ("intermediate", k) the chain's k-th intermediate, ("output", 0) the forward's output.
Ref = tuple[str, int]

# Reshapes that keep a contiguous tensor's elements in order (with constant arguments).
_VIEW_METHODS = {"view", "reshape", "flatten", "squeeze", "unsqueeze", "contiguous"}
_VIEW_FUNCTIONS = {torch.reshape, torch.flatten, torch.squeeze, torch.unsqueeze}


@dataclass
class ChainStage:
    """One stage: the family of its segment, where each of the segment's inputs comes from (by position, as the
    guess's binding refers to them) and the fx node whose shape the family saw for it (the value itself, or a
    reshape of it), the parameters and buffers it reads (state_dict keys, the module's order), where its result
    goes, and the segment's operators in words and as a module."""

    guess: FamilyGuess
    inputs: list[Ref]
    views: list[str]
    keys: list[str]
    output: Ref
    operators: list[str] = field(default_factory=list)
    module: Any = None  # the segment as a torch.fx.GraphModule (what infer_family read; tests run it)


@dataclass
class ChainGuess:
    """A forward as stages run in order, the values between them the chain's intermediates: the names of the fx
    nodes that compute them (to find them again at other sizes, `chain_shapes`) and their dtypes, and the traced
    graph's operators (which must be the same at other sizes)."""

    stages: list[ChainStage]
    nodes: list[str]
    dtypes: list[torch.dtype]
    signature: tuple[str, ...]

    @property
    def reason(self) -> str:
        """The stages in words: `linear (the module is ...) then row_softmax (...)`."""
        return " then ".join(f"{s.guess.family} ({s.guess.reason})" for s in self.stages)

    def shape_nodes(self) -> list[str]:
        """Every node whose shape the importer needs: the intermediates and what each stage saw of its inputs."""
        names = list(self.nodes)
        for stage in self.stages:
            names += [n for n in stage.views if n not in names]
        return names


def infer_chain(model: nn.Module, inputs: list[Any]) -> ChainGuess | None:
    """The stages of a module that is a chain of library families, or None (see the module docstring). `inputs`
    are example inputs: tensors on the model's device (any device when the model is on the meta device) and
    numbers."""
    found = chain_or_reason(model, inputs)
    return found if isinstance(found, ChainGuess) else None


def _describe(node: Any, traced: Any) -> str:
    """An operator node in words: a module's class name, a function's or a method's name."""
    if node.op == "call_module":
        return type(traced.get_submodule(node.target)).__name__
    if node.op == "call_method":
        return f".{node.target}()"
    return getattr(node.target, "__name__", str(node.target))


def _operators(graph: Any) -> list[Any]:
    return [n for n in graph.nodes if n.op in ("call_function", "call_method", "call_module")]


def _signature(traced: Any, ops: list[Any]) -> tuple[str, ...]:
    return tuple(f"{n.name}:{_describe(n, traced)}" for n in ops)


def _is_view(node: Any) -> bool:
    """A reshape of one tensor that keeps its elements in order, its other arguments constants."""
    if node.op == "call_method":
        named = str(node.target) in _VIEW_METHODS
    else:
        named = node.op == "call_function" and node.target in _VIEW_FUNCTIONS
    return named and bool(node.args) and isinstance(node.args[0], torch.fx.Node) \
        and len(node.all_input_nodes) == 1


def _propagate(model: nn.Module, inputs: list[Any]) -> tuple[Any, list[Any]] | str:
    """The module traced by fx with every node's result's shape (ShapeProp's `tensor_meta`), or why not."""
    try:
        traced = torch.fx.symbolic_trace(model)
    except Exception:  # noqa: BLE001 - a module fx cannot trace gets no chain
        return "fx cannot trace the module"
    device = next((t.device for t in (*model.parameters(), *model.buffers())), None)
    args = [x.to(device) if isinstance(x, torch.Tensor) and device is not None and device.type == "meta" else x
            for x in inputs]
    try:
        # ShapeProp prints the traceback of a node that raises before it raises itself: not the importer's output.
        with torch.no_grad(), contextlib.redirect_stderr(io.StringIO()):
            ShapeProp(traced).propagate(*args)
    except Exception:  # noqa: BLE001 - no shapes, no chain
        return "the forward does not run on the example inputs"
    return traced, args


def _tensor_meta(node: Any) -> TensorMetadata | None:
    meta = node.meta.get("tensor_meta")
    return meta if isinstance(meta, TensorMetadata) else None


def _meta_like(node: Any) -> torch.Tensor:
    """An empty tensor on the meta device of a node's shape and dtype (what infer_family reads of an input)."""
    meta = _tensor_meta(node)
    return torch.empty(tuple(meta.shape), dtype=meta.dtype, device="meta")  # type: ignore[union-attr]


def _segment(traced: Any, ops: list[Any], result: Any) -> tuple[Any, list[Any]] | None:
    """The operators `ops` as a GraphModule of their own, rooted at the traced module (call_module and get_attr
    nodes keep their targets, so its state_dict keys are the module's), whose placeholders are the values the
    operators take from outside (in the order they are first used) and whose output is `result`; with those
    values' nodes. None when fx refuses the graph."""
    inside = set(ops)
    outside: list[Any] = []
    for node in ops:
        for arg in node.all_input_nodes:
            if arg not in inside and arg.op != "get_attr" and arg not in outside:
                outside.append(arg)
    graph = torch.fx.Graph()
    env: dict[Any, Any] = {node: graph.placeholder(node.name) for node in outside}

    def value(node: Any) -> Any:
        if node not in env:  # a get_attr node: a parameter, a buffer or a constant of the module
            env[node] = graph.get_attr(node.target)
        return env[node]

    for node in ops:
        env[node] = graph.node_copy(node, value)
    graph.output(env[result])
    try:
        return torch.fx.GraphModule(traced, graph), outside
    except Exception:  # noqa: BLE001
        return None


def _keys(traced: Any, ops: list[Any]) -> list[str]:
    """The state_dict keys (and non-persistent buffers' paths) of the parameters and buffers the operators read:
    get_attr targets and the parameters and buffers of the modules they call, in the module's order."""
    wanted: set[str] = set()
    for node in ops:
        if node.op == "call_module":
            sub = traced.get_submodule(node.target)
            wanted |= {f"{node.target}.{k}" for k, _ in (*sub.named_parameters(), *sub.named_buffers())}
        for arg in node.all_input_nodes:
            if arg.op == "get_attr":
                wanted.add(str(arg.target))
    order = [k for k, _ in (*traced.named_parameters(), *traced.named_buffers())]
    return [k for k in order if k in wanted]


def _core(ops: list[Any], result: Any) -> tuple[list[Any], Any]:
    """A segment without the reshapes at its edges: those of the values it takes (leading) and those of its result
    (trailing, each its operand's one use); and the result before its trailing reshapes."""
    inside = set(ops)
    leading: set[Any] = set()
    for node in ops:
        if _is_view(node) and (node.args[0] not in inside or node.args[0] in leading):
            leading.add(node)
    trailing: set[Any] = set()
    while _is_view(result) and result.args[0] in inside and result.args[0] not in leading \
            and len(result.args[0].users) == 1:
        trailing.add(result)
        result = result.args[0]
    return [n for n in ops if n not in leading and n not in trailing], result


def _base(node: Any, inside: set[Any]) -> Any:
    """The value a leading reshape chain of a segment starts from (the node itself when it is none)."""
    while node in inside and _is_view(node):
        node = node.args[0]
    return node


def _pin_shapes(guess: FamilyGuess, sub: Any, example: list[Any]) -> None:
    """Pins the roles a family guess leaves to kopt's binder, which fills them with launcher scalars that match by
    name or by a buffer's length (docs/strategies.md, "Binding"): a stage's intermediate has no scalar of its own,
    so an activation's n, a matrix product's M, K, N and a pooling's N, C, H, W (and its window and stride) come
    from the shapes the stage reads, as the other families' guesses already give them."""
    tensors = [i for i, x in enumerate(example) if isinstance(x, torch.Tensor)]
    pinned: dict[str, Any] = {}
    if guess.family == "activation" and len(tensors) == 1:
        pinned = {"in": (tensors[0], None), "n": (tensors[0], tuple(range(example[tensors[0]].dim())))}
    elif guess.family == "gemm" and len(tensors) == 2 and all(example[i].dim() == 2 for i in tensors):
        a, b = tensors
        pinned = {"A": (a, None), "B": (b, None), "M": (a, (0,)), "K": (a, (1,)), "N": (b, (1,))}
    elif guess.family == "pool2d" and len(tensors) == 1:
        layer = next(n for n in sub.graph.nodes if n.op == "call_module")
        pool = sub.get_submodule(layer.target)
        kernel = pool.kernel_size if isinstance(pool.kernel_size, int) else pool.kernel_size[0]
        stride = pool.stride if pool.stride is not None else kernel
        stride = stride if isinstance(stride, int) else stride[0]
        x = tensors[0]
        pinned = {"in": (x, None), "N": (x, (0,)), "C": (x, (1,)), "H": (x, (2,)), "W": (x, (3,)), "K": int(kernel),
                  "S": int(stride)}
    guess.binding = {**pinned, **guess.binding}


def chain_or_reason(model: nn.Module, inputs: list[Any]) -> ChainGuess | str:
    """infer_chain's answer, or a line saying why there is none (for surveys of many problems)."""
    propagated = _propagate(model, inputs)
    if isinstance(propagated, str):
        return propagated
    traced, args = propagated
    graph = traced.graph
    ops = _operators(graph)
    result = output_node(graph).args[0]
    if not isinstance(result, torch.fx.Node) or _tensor_meta(result) is None:
        return "the forward does not return one tensor"
    if result not in ops or len(ops) < 2:
        return "fewer than two operators"
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(args):
        return "the forward's inputs are not its example inputs one for one"
    position = {op: i for i, op in enumerate(ops)}
    last_use = {op: max((position.get(u, len(ops)) for u in op.users), default=-1) for op in ops}

    def crossing(cut: int) -> list[Any]:
        """The operators' values computed before `cut` and used at or after it (the output counts as after)."""
        return [op for op in ops[:cut] if last_use[op] >= cut]

    stuck: dict[int, str] = {}  # why no stage starts at an operator
    memo: dict[tuple[int, int], list[ChainStage] | None] = {}
    intermediates: dict[Any, int] = {}

    def stage_at(start: int, end: int, value: Any) -> tuple[ChainStage, Any] | None:
        """The stage of operators start .. end-1 whose result is `value` (its output node, still without a place),
        or None when the segment gets no family."""
        segment = ops[start:end]
        core, core_result = _core(segment, value)
        if not core:
            return None
        built = _segment(traced, core, core_result)
        if built is None:
            return None
        sub, outside = built
        incoming = crossing(start)
        bases = [_base(node, set(segment)) for node in outside]
        if len(set(bases)) != len(bases):
            return None  # one buffer as two of the family's inputs
        example: list[Any] = []
        for node, base in zip(outside, bases):
            if base.op == "placeholder":
                given = args[placeholders.index(base)]
                example.append(_meta_like(node) if isinstance(given, torch.Tensor) else given)
            elif base in incoming and _tensor_meta(node) is not None:
                example.append(_meta_like(node))
            else:
                return None
        guess = infer_family(sub, example)
        if guess is None:
            return None
        _pin_shapes(guess, sub, example)
        refs: list[Ref] = [("input", placeholders.index(b)) if b.op == "placeholder" else
                           ("intermediate", intermediates.setdefault(b, len(intermediates))) for b in bases]
        return ChainStage(guess, refs, [n.name for n in outside], _keys(traced, core), ("output", 0),
                          [_describe(n, traced) for n in core], sub), value

    def split(start: int, depth: int) -> list[ChainStage] | None:
        """The stages from operator `start` on (the longest first segment first), or None."""
        if (start, depth) in memo:
            return memo[start, depth]
        memo[start, depth] = None
        if depth >= MAX_STAGES:
            stuck.setdefault(start, f"more than {MAX_STAGES} stages")
            return None
        one_cut = False
        for end in range(len(ops), start, -1):
            values = crossing(end) if end < len(ops) else [result]
            if len(values) != 1 or position[values[0]] < start or _tensor_meta(values[0]) is None:
                continue
            one_cut = True
            found = stage_at(start, end, values[0])
            if found is None:
                continue
            rest = split(end, depth + 1) if end < len(ops) else []
            if rest is None:
                continue
            stage, value = found
            if end < len(ops):
                stage.output = ("intermediate", intermediates.setdefault(value, len(intermediates)))
            memo[start, depth] = [stage, *rest]
            return memo[start, depth]
        first = _describe(ops[start], traced)
        words = ", ".join(_describe(n, traced) for n in ops[start:start + 4]) + (", ..." if len(ops) - start > 4 else "")
        stuck.setdefault(start, f"no family for the operators from {first} on ({words})" if one_cut
                         else f"more than one value flows past every cut after {first}")
        return None

    stages = split(0, 0)
    if stages is None:
        return stuck[max(stuck)] if stuck else "no split"
    if len(stages) < 2:
        return "one family for the whole forward"
    # Number the intermediates in the order the stages write them.
    by_number = {k: node for node, k in intermediates.items()}
    order = [s.output[1] for s in stages[:-1]]
    renumber = {old: new for new, old in enumerate(order)}
    for s in stages:
        s.inputs = [(kind, renumber[i]) if kind == "intermediate" else (kind, i) for kind, i in s.inputs]
        if s.output[0] == "intermediate":
            s.output = ("intermediate", renumber[s.output[1]])
    nodes = [by_number[old] for old in order]
    dtypes = [_tensor_meta(n).dtype for n in nodes]  # type: ignore[union-attr]
    return ChainGuess(stages, [n.name for n in nodes], dtypes, _signature(traced, ops))


def chain_shapes(model: nn.Module, inputs: list[Any], chain: ChainGuess) -> dict[str, tuple[int, ...]] | None:
    """The shapes of the nodes the importer sizes (ChainGuess.shape_nodes) for this model and these inputs (the
    problem at another size case), or None when its graph is not the one the chain was read off."""
    propagated = _propagate(model, inputs)
    if isinstance(propagated, str):
        return None
    traced, _ = propagated
    if _signature(traced, _operators(traced.graph)) != chain.signature:
        return None
    by_name = {n.name: n for n in traced.graph.nodes}
    shapes = {}
    for name in chain.shape_nodes():
        meta = _tensor_meta(by_name[name]) if name in by_name else None
        if meta is None:
            return None
        shapes[name] = tuple(meta.shape)
    return shapes


def symbolic_shape(abi: Any, points: list[tuple[dict[str, int], tuple[int, ...]]], perturb: dict[str, list[int]],
                   cases: list[int], prefer: str | None = None) -> list[Any] | None:
    """A shape over the task's size names for a tensor whose shape is points[i][1] where the size names have the
    values points[i][0] (the task's size cases, and where the ABI has no dimension parameters, points where one
    size constant differs from the first point: `perturb[p]` lists those for p, as abi.fit_dimension takes them):
    an ABI tensor's own symbolic shape where that tensor has this shape at every point (`prefer`, the name of an
    ABI tensor, first, then the output, the inputs, the parameters and buffers); else, dimension by dimension, the
    product of one or more consecutive dimensions of an ABI tensor (the fewest, in that order of tensors) that gives
    the dimension at every point, or an expression fitted as the ABI's dimensions are (abi.fit_dimension: a literal,
    a size name, a*p + b, a product, a quotient ...) at every point, else at the size cases alone (`cases`, their
    indices among the points: the values the task runs, which is all a length must be right at; a conv-then-pool
    height such as (385 - kernel_size - pool_kernel_size)/pool_kernel_size + 1 fits no form of fit_dimension, and
    is 95 at every case where both kernel sizes stay 3 and 4); None when some dimension fits nothing."""
    from . import expr as kexpr
    from .abi import fit_dimension, shapes_at

    if not points or len({len(shape) for _, shape in points}) != 1:
        return None
    order = {"output": 0, "input": 1, "parameter": 2, "buffer": 3}
    tensors = sorted(abi.tensors, key=lambda t: (t["name"] != prefer, order[t["kind"]]))
    concrete = [dict(zip((t["name"] for t in abi.tensors), shapes_at(abi.tensors, env))) for env, _ in points]
    for t in tensors:
        if all(at[t["name"]] == shape for at, (_, shape) in zip(concrete, points)):
            return list(t["shape"])
    dims: list[Any] = []
    for k in range(len(points[0][1])):
        ys = [shape[k] for _, shape in points]
        found: Any = None
        for width in range(1, max((len(t["shape"]) for t in tensors), default=0) + 1):
            for t in tensors:
                for first in range(len(t["shape"]) - width + 1):
                    span = range(first, first + width)
                    if all(math.prod(at[t["name"]][d] for d in span) == y for at, y in zip(concrete, ys)):
                        found = kexpr.product([t["shape"][d] for d in span])
                        break
                if found is not None:
                    break
            if found is not None:
                break
        for where, hints in ((range(len(points)), perturb), (cases, {})):
            if found is None:
                envs, values = [points[i][0] for i in where], [ys[i] for i in where]
                fitted = fit_dimension(envs, values, list(abi.size_params), hints)
                if fitted is not None and all(kexpr.evaluate(fitted, env) == y for env, y in zip(envs, values)):
                    found = fitted
        if found is None:
            return None
        dims.append(found)
    return dims
