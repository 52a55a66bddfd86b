"""The candidate's ABI for a PyTorch problem (docs/pytorch.md, "The candidate's ABI").

`derive_abi(path, precision)` runs the problem's own functions at its constants and at perturbed
constants, on the meta device where it can (no memory, no arithmetic), and derives:

- the tensor list in ABI order: inputs (named after ``Model.forward``'s parameters, ``*args`` ->
  ``arg<k>``), the ``state_dict`` entries (parameters and persistent buffers, in its order), the
  non-persistent buffers (``named_buffers()`` entries not in the state_dict), and the outputs;
- the size parameters: the constants some shape depends on (each constant ``c`` is changed to ``c + 1``
  and ``2c + 3``, and to ``2c`` when both of those fail; a change that makes the problem fail is skipped; a constant whose change alters the
  tensor list itself, or only moves existing dimension values around, such as a reduction axis, is not
  a size parameter and keeps its value in every size case);
- every dimension as an expression over the size parameters, tried in order: a literal, a parameter,
  ``a*p + b``, a product ``k*p*q(*r)``, ``(p + b)/a + d``, a linear form over several parameters; each
  must reproduce the dimension at every evaluated point. A dimension nothing fits becomes a size
  parameter of its own, ``<tensor>_dim<k>``, whose values are read off the shapes;
- the size cases ``problem``, ``small`` and ``odd`` (docs/pytorch.md), each kept only when the problem
  runs at its constants and every tensor is non-empty;
- the flops of one forward (``torch.utils.flop_counter``) as a monomial over the size parameters, when
  one fits every point; a causal ``scaled_dot_product_attention`` counts half of its two products (the
  counter counts the whole score matrix, but a kernel computes only the lower triangle: with the whole
  matrix the speed-of-light bound would be twice too tight and refuse a good causal kernel as implausibly
  fast).

Evaluation order per point: the meta device; if the problem does not run on meta at its own constants,
the CPU at "tiny" constants (every constant >= 32 divided by 16) and then the CPU at full size.
"""

from __future__ import annotations

import inspect
import itertools
import json
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import torch

from . import expr as kexpr
from .errors import ProblemError
from .problem import Problem, host_device, load_problem, one_line, problem_constants

SCHEMA = "kopt.torch_abi/1"

# torch dtype -> (kopt dtype for fp32 tasks, element size); floating dtypes follow the precision.
_FLOATING = (torch.float32, torch.float16, torch.bfloat16)
_INTEGER = {torch.int64: "i64", torch.int32: "i32", torch.bool: "u8", torch.uint8: "u8"}
ELEMENT_SIZE = {"f32": 4, "bf16": 2, "i64": 8, "i32": 4, "u8": 1}
C_TYPE = {"f32": "float", "bf16": "__nv_bfloat16", "i64": "long long", "i32": "int", "u8": "uint8_t"}
TORCH_DTYPE = {"f32": torch.float32, "bf16": torch.bfloat16, "i64": torch.int64, "i32": torch.int32,
               "u8": torch.uint8}

_CXX_RESERVED = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern false
float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or
or_eq private protected public register reinterpret_cast requires return short signed sizeof static
static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename
union unsigned using virtual void volatile wchar_t while xor xor_eq forward dim3 min max ceil_div abs log2
pow sqrt""".split())

PRECISIONS = {"fp32": "f32", "bf16": "bf16"}


def kopt_dtype(dt: torch.dtype, precision: str, where: str) -> str:
    """kopt's dtype name for a tensor of torch dtype `dt` in a task of `precision` ("fp32"|"bf16")."""
    if dt in _FLOATING:
        return PRECISIONS[precision]
    if dt in _INTEGER:
        return _INTEGER[dt]
    raise ProblemError(f"{where}: dtype {str(dt).replace('torch.', '')} is not supported; expected "
                       "float32/float16/bfloat16, int64, int32, uint8 or bool")


@dataclass
class TensorSpec:
    """One tensor of the ABI at one evaluated point (shape is concrete here)."""

    name: str
    kind: str  # input | parameter | buffer | output
    torch_dtype: torch.dtype
    shape: tuple[int, ...]
    index: int | None = None  # inputs: position in get_inputs(); outputs: position in the tuple
    key: str | None = None  # parameters and buffers: state_dict key (attribute path if not persistent)


@dataclass
class Snapshot:
    """The problem evaluated at one set of constants."""

    values: dict[str, int]
    tensors: list[TensorSpec]
    fixed_inputs: list[tuple[int, Any]]
    flops: int | None
    mode: str
    notes: list[str] = field(default_factory=list)

    def structure(self) -> tuple:
        """What must not change between points: names, kinds, dtypes, ranks, non-tensor input slots."""
        return (tuple((t.name, t.kind, t.torch_dtype, len(t.shape), t.index, t.key) for t in self.tensors),
                tuple(i for i, _ in self.fixed_inputs))

    def dim_values(self) -> set[int]:
        return {d for t in self.tensors for d in t.shape}


def _c_name(raw: str, taken: set[str]) -> str:
    """A C identifier for `raw`, unique among `taken` (which it joins)."""
    name = "".join(ch if (ch.isalnum() or ch == "_") and ch.isascii() else "_" for ch in raw) or "t"
    if name[0].isdigit():
        name = "t_" + name
    while name in _CXX_RESERVED or name in taken or name.startswith("__"):
        name = name.lstrip("_") + "_" if name.startswith("__") else name + "_"
    taken.add(name)
    return name


def _input_names(model_cls: type, count: int, path: Path) -> list[str]:
    """Names of the forward arguments 0..count-1 from Model.forward's signature."""
    try:
        sig = inspect.signature(model_cls.forward)
    except (TypeError, ValueError):
        return [f"arg{k}" for k in range(count)]
    params = list(sig.parameters.values())[1:]  # drop self
    names: list[str] = []
    varargs = False
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind == p.VAR_POSITIONAL:
            varargs = True
            break
    if count > len(names):
        if not varargs:
            raise ProblemError(f"{path}: get_inputs() returns {count} values but Model.forward takes "
                               f"{len(names)} positional arguments")
        names += [f"arg{k}" for k in range(len(names), count)]
    return names[:count]


def _outputs(value: Any, path: Path) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, torch.Tensor) for v in value):
        return list(value)
    raise ProblemError(f"{path}: Model.forward returned {type(value).__name__}; expected a tensor or a "
                       "tuple of tensors")


def abi_tensors(problem_path: Path, model: torch.nn.Module, inputs: list[Any], outputs: list[torch.Tensor],
                reserved: set[str], model_cls: type) -> tuple[list[TensorSpec], list[tuple[int, Any]]]:
    """The ABI tensor list (concrete shapes) and the non-tensor inputs, from one evaluation."""
    taken = set(reserved)
    tensors: list[TensorSpec] = []
    fixed: list[tuple[int, Any]] = []
    names = _input_names(model_cls, len(inputs), problem_path)
    for i, v in enumerate(inputs):
        if isinstance(v, torch.Tensor):
            tensors.append(TensorSpec(_c_name(names[i], taken), "input", v.dtype, tuple(v.shape), index=i))
        else:
            fixed.append((i, v))
    params = {id(p) for p in model.parameters()}
    state = model.state_dict(keep_vars=True)
    seen: set[int] = set()
    for key, t in state.items():
        if not isinstance(t, torch.Tensor) or id(t) in seen:
            continue  # extra state, or a tied weight already listed
        seen.add(id(t))
        kind = "parameter" if id(t) in params else "buffer"
        tensors.append(TensorSpec(_c_name(key.replace(".", "_"), taken), kind, t.dtype, tuple(t.shape), key=key))
    for key, t in model.named_buffers():
        if key in state or id(t) in seen:
            continue
        seen.add(id(t))
        tensors.append(TensorSpec(_c_name(key.replace(".", "_"), taken), "buffer", t.dtype, tuple(t.shape), key=key))
    for i, t in enumerate(outputs):
        base = "out" if len(outputs) == 1 else f"out{i}"
        tensors.append(TensorSpec(_c_name(base, taken), "output", t.dtype, tuple(t.shape), index=i))
    return tensors, fixed


def evaluate_point(path: Path, values: Mapping[str, int], mode: str, reserved: set[str],
                   count_flops: bool = True) -> Snapshot:
    """Run the problem at `values` on "meta" or "cpu" and record its ABI tensors (raises ProblemError)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # perturbed constants can make empty tensors; nn.init warns
        return _evaluate_point(path, values, mode, reserved, count_flops)


class _CausalAttention(torch.overrides.TorchFunctionMode):
    """Counts the flops of the upper half of every causal scaled_dot_product_attention's two products (Q K^T
    and P V), which a causal kernel never computes: the forward's flops are the counter's less these."""

    def __init__(self) -> None:
        super().__init__()
        self.skipped = 0

    def __torch_function__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        kwargs = kwargs or {}
        if func is torch.nn.functional.scaled_dot_product_attention:
            names = ("query", "key", "value", "attn_mask", "dropout_p", "is_causal")
            bound = dict(zip(names, args)) | kwargs
            q, k, v = bound.get("query"), bound.get("key"), bound.get("value")
            tensors = all(isinstance(t, torch.Tensor) and t.dim() >= 2 for t in (q, k, v))
            if bound.get("is_causal") is True and tensors:
                rows, keys = q.numel() // q.shape[-1], k.shape[-2]
                self.skipped += (2 * rows * keys * q.shape[-1] + 2 * rows * keys * v.shape[-1]) // 2
        return func(*args, **kwargs)


class _RecurrentShapes(torch.overrides.TorchFunctionMode):
    """On the meta device, torch.lstm, gru, rnn_tanh and rnn_relu (nn.LSTM, nn.GRU, nn.RNN) answered with their
    outputs' shapes instead of being run: they have no meta kernel, so the meta device would decompose them into
    one operator per time step and layer (about 6-10 s a forward for KernelBench's 512 steps and 6 layers,
    read at a dozen points). The products they would have run are counted as flops: 2 * steps * batch * rows
    * columns for every weight matrix (the input and hidden projections of each layer and direction), what
    the flop counter counts for the decomposed forward. A packed sequence is left to the decomposition."""

    _GATED = {torch.lstm, torch.gru, torch.rnn_tanh, torch.rnn_relu}

    def __init__(self) -> None:
        super().__init__()
        self.flops = 0

    def __torch_function__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        if func not in self._GATED or kwargs or len(args) != 9 or not isinstance(args[0], torch.Tensor) \
                or not args[0].is_meta or not isinstance(args[2], (list, tuple)):
            return func(*args, **(kwargs or {}))
        x, hx, params, _, _, _, _, bidirectional, batch_first = args
        states = list(hx) if func is torch.lstm else [hx]
        if not all(isinstance(h, torch.Tensor) for h in states) or x.dim() not in (2, 3):
            return func(*args, **(kwargs or {}))
        steps = x.shape[1 if batch_first and x.dim() == 3 else 0]
        batch = x.shape[0 if batch_first else 1] if x.dim() == 3 else 1
        self.flops += sum(2 * steps * batch * w.shape[0] * w.shape[1] for w in params if w.dim() == 2)
        width = (2 if bidirectional else 1) * states[0].shape[-1]
        out = torch.empty((*x.shape[:-1], width), dtype=x.dtype, device="meta")
        return (out, *(torch.empty(h.shape, dtype=h.dtype, device="meta") for h in states))


def _evaluate_point(path: Path, values: Mapping[str, int], mode: str, reserved: set[str],
                    count_flops: bool) -> Snapshot:
    problem = load_problem(path, dict(values))
    try:
        with host_device("meta" if mode == "meta" else "cpu"):
            return _evaluate_loaded(problem, path, values, mode, reserved, count_flops)
    finally:
        problem.unload()


def _evaluate_loaded(problem: Problem, path: Path, values: Mapping[str, int], mode: str, reserved: set[str],
                     count_flops: bool) -> Snapshot:
    device = "meta" if mode == "meta" else None
    if mode == "cpu":
        torch.manual_seed(0)
    if device:
        with torch.device(device):
            model = problem.make_model()
            inputs = problem.inputs()
    else:
        model = problem.make_model()
        inputs = problem.inputs()
    for i, v in enumerate(inputs):
        if isinstance(v, torch.Tensor) and mode == "meta" and v.device.type != "meta":
            raise ProblemError(f"{path}: get_inputs()[{i}] is on {v.device}, not on the meta device")
    flops: int | None = None
    recurrent = _RecurrentShapes()  # answers only calls on meta tensors
    try:
        with torch.no_grad():
            if count_flops:
                from torch.utils.flop_counter import FlopCounterMode

                counter, causal = FlopCounterMode(display=False), _CausalAttention()
                with counter, causal, recurrent:
                    out = model(*inputs)
                flops = max(int(counter.get_total_flops()) + recurrent.flops - causal.skipped, 0)
            else:
                with recurrent:
                    out = model(*inputs)
    except ProblemError:
        raise
    except Exception as e:
        raise ProblemError(f"{path}: Model.forward raised {one_line(e)}") from None
    outputs = _outputs(out, path)
    tensors, fixed = abi_tensors(path, model, inputs, outputs, reserved, problem.Model)
    for t in tensors:
        kopt_dtype(t.torch_dtype, "fp32", f"{path}: {t.kind} '{t.name}'")
    return Snapshot(dict(values), tensors, fixed, flops, mode, list(problem.notes))


# ----------------------------------------------------------------------------------------- fitting


def _tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _lin(a: int, p: str, b: int) -> str:
    s = p if a == 1 else f"{a}*{p}"
    return s if b == 0 else (f"{s} + {b}" if b > 0 else f"{s} - {-b}")


def fit_dimension(envs: list[dict[str, int]], ys: list[int], params: list[str],
                  perturb: dict[str, list[int]]) -> kexpr.Expr | None:
    """An expression over `params` that gives ys[i] at envs[i] for every i, or None.

    `perturb[p]` lists the indices of the points where only p differs from point 0 (the base).
    """
    if all(y == ys[0] for y in ys):
        return ys[0]
    for p in params:
        if all(e[p] == y for e, y in zip(envs, ys)):
            return p
    # a*p + b
    for p in params:
        pts = sorted({(e[p], y) for e, y in zip(envs, ys)})
        if len({x for x, _ in pts}) < 2 or len(pts) != len({x for x, _ in pts}):
            continue
        (x0, y0), (x1, y1) = pts[0], pts[1]
        if (y1 - y0) % (x1 - x0):
            continue
        a = (y1 - y0) // (x1 - x0)
        b = y0 - a * x0
        if a != 0 and all(a * e[p] + b == y for e, y in zip(envs, ys)):
            return _lin(a, p, b)
    # k * p*q(*r)
    for degree in (2, 3):
        for combo in itertools.combinations_with_replacement(params, degree):
            prods = [math.prod(e[p] for p in combo) for e in envs]
            if prods[0] == 0 or ys[0] % prods[0]:
                continue
            k = ys[0] // prods[0]
            if k >= 1 and all(k * pr == y for pr, y in zip(prods, ys)):
                return "*".join(([str(k)] if k != 1 else []) + list(combo))
    # (p + b)/a + d
    for p in params:
        xs = [e[p] for e in envs]
        if len(set(xs)) < 3:
            continue
        for d in (1, 0):
            for a in range(2, 17):
                for b in range(-4 * a, 4 * a + 1):
                    if all(_tdiv(x + b, a) + d == y for x, y in zip(xs, ys)):
                        num = p if b == 0 else (f"{p} + {b}" if b > 0 else f"{p} - {-b}")
                        return f"({num})/{a}" + (f" + {d}" if d else "")
    # (p + c*q + ... + b)/a + d, a a literal or a parameter (conv/pool output sizes with the kernel size,
    # padding or stride among the size parameters)
    affecting = [p for p in params if any(ys[i] != ys[0] for i in perturb.get(p, []))]
    if 2 <= len(affecting) <= 4:
        found = _fit_general_quotient(envs, ys, affecting)
        if found is not None:
            return found
    # linear form over several parameters, coefficients read off the one-at-a-time perturbations
    coeffs: dict[str, int] = {}
    for p in params:
        idx = perturb.get(p, [])
        cs = set()
        for i in idx:
            dx = envs[i][p] - envs[0][p]
            dy = ys[i] - ys[0]
            if dx == 0 or dy % dx:
                cs.add(None)
            else:
                cs.add(dy // dx)
        if None in cs or len(cs) > 1:
            return None
        if cs and (c := cs.pop()) != 0:
            coeffs[p] = c
    if len(coeffs) >= 2:
        b = ys[0] - sum(c * envs[0][p] for p, c in coeffs.items())
        if all(sum(c * e[p] for p, c in coeffs.items()) + b == y for e, y in zip(envs, ys)):
            s = ""
            for p, c in coeffs.items():
                term = p if abs(c) == 1 else f"{abs(c)}*{p}"
                s = (term if c > 0 else f"-{term}") if not s else (f"{s} + {term}" if c > 0 else f"{s} - {term}")
            return s if b == 0 else (f"{s} + {b}" if b > 0 else f"{s} - {-b}")
    return None


def _fit_general_quotient(envs: list[dict[str, int]], ys: list[int], affecting: list[str]) -> str | None:
    """`(p + sum c_i*q_i + b)/a + d` (c_i in -2..2, a a literal 2..16 or a parameter) matching every point."""
    for main in affecting:
        rest = [q for q in affecting if q != main]
        dens: list[int | str] = list(range(2, 17)) + rest
        for den in dens:
            others = [q for q in rest if q != den]
            if len(others) > 3:
                continue
            for d in (1, 0):
                for cs in itertools.product((-1, 1, -2, 2), repeat=len(others)):
                    # Each point bounds the numerator's constant b to an interval (truncating division by a
                    # positive a): the smallest b in all of them, or none. (Walking point 0's interval one b
                    # at a time took minutes where the denominator is a size such as a length of 524280.)
                    b_lo, b_hi = -math.inf, math.inf
                    for e, y in zip(envs, ys):
                        a = den if isinstance(den, int) else e[den]
                        if a <= 0:
                            b_lo, b_hi = 1, 0
                            break
                        s_e = e[main] + sum(c * e[q] for c, q in zip(cs, others))
                        k = y - d
                        if k > 0:
                            lo, hi = k * a, k * a + a - 1
                        else:
                            lo, hi = (-(a - 1), a - 1) if k == 0 else (k * a - a + 1, k * a)
                        b_lo, b_hi = max(b_lo, lo - s_e), min(b_hi, hi - s_e)
                    if b_lo <= b_hi:
                        b = int(b_lo)
                        ok = all(_tdiv(e[main] + sum(c * e[q] for c, q in zip(cs, others)) + b,
                                       den if isinstance(den, int) else e[den]) + d == y for e, y in zip(envs, ys))
                        if ok:
                            num = main
                            for c, q in zip(cs, others):
                                term = q if abs(c) == 1 else f"{abs(c)}*{q}"
                                num += f" + {term}" if c > 0 else f" - {term}"
                            if b:
                                num += f" + {b}" if b > 0 else f" - {-b}"
                            return f"({num})/{den}" + (f" + {d}" if d else "")
    return None


def fit_monomial(envs: list[dict[str, int]], ys: list[int], params: list[str],
                 perturb: dict[str, list[int]]) -> str | None:
    """`k*p^a*q^b...` (k a positive integer, exponents 0..4) that gives every ys[i], or None."""
    if any(y <= 0 for y in ys):
        return None
    exps: dict[str, int] = {}
    for p in params:
        es = set()
        for i in perturb.get(p, []):
            r = math.log(ys[i] / ys[0])
            q = math.log(envs[i][p] / envs[0][p]) if envs[0][p] > 0 and envs[i][p] > 0 else 0.0
            if q == 0.0:
                es.add(None)
                continue
            e = r / q
            es.add(round(e) if abs(e - round(e)) < 1e-6 and 0 <= round(e) <= 4 else None)
        if None in es or len(es) > 1:
            return None
        if es and (e := es.pop()):
            exps[p] = e
    base = math.prod(envs[0][p] ** e for p, e in exps.items())
    if base == 0 or ys[0] % base:
        return None
    k = ys[0] // base
    if not all(k * math.prod(env[p] ** e for p, e in exps.items()) == y for env, y in zip(envs, ys)):
        return None
    factors = [str(k)] if k != 1 or not exps else []
    for p, e in exps.items():
        factors += [p] * e
    return "*".join(factors)


def _flops_per_output(envs: list[dict[str, int]], ys: list[int], params: list[str], perturb: dict[str, list[int]],
                      tensors: list[dict[str, Any]]) -> str | None:
    """The flops as a monomial times the first output's element count, when the flops per output element fit a
    monomial: a convolution's 2*Cin*K*K per output, its output's height and width being quotients such as
    (height - kernel_size + 2*padding)/stride + 1 that no monomial gives. None when nothing fits."""
    output = next((t for t in tensors if t["kind"] == "output"), None)
    if output is None or not output["shape"]:
        return None
    try:
        counts = [math.prod(kexpr.evaluate(d, env) for d in output["shape"]) for env in envs]
    except ProblemError:  # a dimension over a parameter of its own, not in envs
        return None
    if any(c <= 0 or y % c for c, y in zip(counts, ys)):
        return None
    per_output = fit_monomial(envs, [y // c for c, y in zip(counts, ys)], params, perturb)
    if per_output is None:
        return None
    factors = [] if per_output == "1" else [per_output]
    factors += [str(d) if isinstance(d, int) or str(d).isidentifier() else f"({d})" for d in output["shape"]]
    return "*".join(factors)


# ----------------------------------------------------------------------------------------- the ABI


@dataclass
class SizeCase:
    name: str
    values: dict[str, int]  # every size parameter (constants and dimension parameters)
    constants: dict[str, int]  # the constants the problem is loaded with
    verify_only: bool = False


@dataclass
class Abi:
    """The derived ABI (expressions) plus what the importer needs from the evaluation."""

    path: Path
    precision: str
    constants: dict[str, int]  # every integer constant of the file, at the problem case
    size_params: list[str]  # constants first (source order), then dimension parameters
    dim_params: list[str]
    tensors: list[dict[str, Any]]  # name, kind, index/key, dtype, shape (expressions), torch_dtype
    fixed_inputs: list[tuple[int, Any]]
    sizes: list[SizeCase]
    flops: str | None
    mode: str
    notes: list[str]
    snapshots: dict[str, Snapshot]  # per size case name

    def to_json(self, problem_name: str = "problem.py") -> dict[str, Any]:
        """The `kopt.torch_abi/1` record of docs/pytorch.md."""
        tensors = []
        for t in self.tensors:
            d: dict[str, Any] = {"name": t["name"], "kind": t["kind"]}
            if t["kind"] in ("input", "output"):
                d["index"] = t["index"]
            else:
                d["key"] = t["key"]
            d["dtype"] = t["dtype"]
            d["shape"] = list(t["shape"])
            tensors.append(d)
        return {
            "schema": SCHEMA,
            "problem": problem_name,
            "precision": self.precision,
            "torch": torch.__version__.split("+")[0],
            "entry": "forward",
            "size_params": list(self.size_params),
            "constants": dict(self.constants),
            "tensors": tensors,
            "fixed_inputs": [{"index": i, "value": v} for i, v in self.fixed_inputs],
            "sizes": [{"name": s.name, "values": dict(s.values)} for s in self.sizes],
        }

    def length(self, tensor: dict[str, Any]) -> kexpr.Expr:
        return kexpr.product(list(tensor["shape"]))


def _tiny(values: Mapping[str, int]) -> dict[str, int]:
    return {k: (max(8, round(v / 16)) if v >= 32 else v) for k, v in values.items()}


def small_values(values: Mapping[str, int], size_params: list[str]) -> dict[str, int]:
    """The `small` case: every size parameter >= 32 divided by 4 (rounded), others kept."""
    return {k: (round(v / 4) if k in size_params and v >= 32 else v) for k, v in values.items()}


def odd_values(values: Mapping[str, int], size_params: list[str]) -> dict[str, int]:
    """The `odd` case: every size parameter >= 8 replaced by an odd value near a third of it."""
    return {k: ((v // 3) | 1 if k in size_params and v >= 8 else v) for k, v in values.items()}


def derive_abi(path: str | Path, precision: str = "fp32", constants: Mapping[str, int] | None = None) -> Abi:
    """Derive the ABI of docs/pytorch.md for the problem at `path` (see the module docstring)."""
    path = Path(path)
    if precision not in PRECISIONS:
        raise ProblemError(f"precision '{precision}': expected fp32 or bf16")
    consts = problem_constants(path)
    for k, v in (constants or {}).items():
        if k not in consts:
            raise ProblemError(f"{path}: '{k}' is not a module-level integer constant of the file")
        consts[k] = int(v)
    reserved = set(consts)
    notes: list[str] = []

    def run(values: Mapping[str, int], mode: str) -> Snapshot:
        return evaluate_point(path, values, mode, reserved)

    # Pick the evaluation mode and the base point of the perturbations.
    mode = "meta"
    try:
        problem_snap = run(consts, "meta")
        base_values, base = dict(consts), problem_snap
    except ProblemError as meta_err:
        tiny = _tiny(consts)
        try:
            problem_snap = run(consts, "cpu")
        except ProblemError as e:
            raise ProblemError(f"{e} (the problem does not run at its own constants; on the meta device: "
                               f"{str(meta_err).split(': ', 1)[-1]})") from None
        mode = "cpu"
        try:
            base = run(tiny, "cpu") if tiny != consts else problem_snap
            base_values = tiny
            if base.structure() != problem_snap.structure():
                raise ProblemError("tiny constants change the tensor list")
            notes.append(f"the problem does not run on the meta device ({str(meta_err).split(': ', 1)[-1]}); "
                         "shapes come from CPU runs at constants >= 32 divided by 16")
        except ProblemError:
            base_values, base = dict(consts), problem_snap
            notes.append(f"the problem does not run on the meta device ({str(meta_err).split(': ', 1)[-1]}); "
                         "shapes come from CPU runs at full size")
    notes += base.notes

    # Which constants are size parameters.
    points: list[Snapshot] = [base]
    perturb: dict[str, list[int]] = {}
    size_consts: list[str] = []
    base_dims = base.dim_values() | {0, 1}
    for name, v in base_values.items():
        changed_structure = False
        moved_only = False
        is_size = False
        ran = 0
        for nv in (v + 1, 2 * v + 3, 2 * v):
            if nv == 2 * v and (ran or v == 0):
                break  # 2c only when c + 1 and 2c + 3 both fail (divisibility: heads, groups)
            try:
                snap = run({**base_values, name: nv}, mode)
            except ProblemError:
                continue
            ran += 1
            if snap.structure() != base.structure():
                changed_structure = True
                continue
            if [t.shape for t in snap.tensors] == [t.shape for t in base.tensors]:
                continue
            if snap.dim_values() <= base_dims:
                moved_only = True
                continue
            is_size = True
            points.append(snap)
            perturb.setdefault(name, []).append(len(points) - 1)
        if changed_structure:
            notes.append(f"constant {name} = {consts[name]} changes the tensor list when changed; it keeps its "
                         "value in every size case")
            for i in perturb.pop(name, []):
                points[i] = None  # type: ignore[call-overload]
        elif is_size:
            size_consts.append(name)
        elif moved_only:
            notes.append(f"constant {name} = {consts[name]} moves dimensions around (an axis?) rather than sizing "
                         "them; it keeps its value in every size case")
    # drop the invalidated points (and re-index the perturbations)
    keep = [i for i, s in enumerate(points) if s is not None]
    remap = {old: new for new, old in enumerate(keep)}
    points = [points[i] for i in keep]
    perturb = {p: [remap[i] for i in idx if i in remap] for p, idx in perturb.items() if p in size_consts}

    # The size cases' constants, and their evaluations.
    case_consts: list[tuple[str, dict[str, int], bool]] = [("problem", dict(consts), False)]
    if size_consts:
        case_consts.append(("small", small_values(consts, size_consts), False))
        case_consts.append(("odd", odd_values(consts, size_consts), True))
    case_snaps: dict[str, Snapshot] = {}
    for cname, cvals, _ in case_consts:
        if cname == "problem":
            snap = problem_snap
        else:
            if any(cvals == other for _, other, _ in case_consts[: [c[0] for c in case_consts].index(cname)]):
                notes.append(f"size case {cname} dropped: same constants as an earlier case")
                continue
            try:
                snap = run(cvals, mode)
            except ProblemError as e:
                partial = _partial_odd(cvals, consts, size_consts, run, mode, base) if cname == "odd" else None
                if partial is None:
                    notes.append(f"size case {cname} dropped: the problem does not run at "
                                 f"{_fmt(cvals, size_consts)} ({str(e).split(': ', 1)[-1]})")
                    continue
                snap, kept = partial
                cvals.clear()
                cvals.update(snap.values)
                notes.append(f"size case odd keeps {', '.join(kept)} at the problem's values (the problem does not "
                             f"run with all of them odd: {str(e).split(': ', 1)[-1]})")
            if snap.structure() != base.structure():
                notes.append(f"size case {cname} dropped: the tensor list differs at {_fmt(cvals, size_consts)}")
                continue
        if any(math.prod(t.shape) == 0 for t in snap.tensors):
            if cname == "problem":
                raise ProblemError(f"{path}: a tensor is empty at the problem's constants")
            notes.append(f"size case {cname} dropped: a tensor is empty at {_fmt(cvals, size_consts)}")
            continue
        case_snaps[cname] = snap
    if problem_snap.structure() != base.structure():
        raise ProblemError(f"{path}: the tensor list at the problem's constants differs from the one at smaller "
                           "constants")

    # Fit the dimensions over every evaluated point.
    all_points = points + [case_snaps[c] for c in case_snaps if case_snaps[c] is not base]
    uniq: list[Snapshot] = []
    seen_vals: list[dict[str, int]] = []
    for s in all_points:
        if s.values not in seen_vals:
            seen_vals.append(s.values)
            uniq.append(s)
    envs = [{p: s.values[p] for p in size_consts} for s in uniq]
    dim_params: list[str] = []
    dim_values: dict[str, dict[str, int]] = {}  # dim param -> case -> value
    taken = set(consts) | {t.name for t in base.tensors}
    tensors: list[dict[str, Any]] = []
    for ti, t in enumerate(base.tensors):
        shape: list[kexpr.Expr] = []
        for k in range(len(t.shape)):
            ys = [s.tensors[ti].shape[k] for s in uniq]
            e = fit_dimension(envs, ys, size_consts, perturb)
            if e is not None and all(kexpr.evaluate(e, env) == y for env, y in zip(envs, ys)):
                shape.append(e)
                continue
            dname = _c_name(f"{t.name}_dim{k}", taken)
            dim_params.append(dname)
            dim_values[dname] = {c: s.tensors[ti].shape[k] for c, s in case_snaps.items()}
            shape.append(dname)
            notes.append(f"dimension {k} of {t.name} fits no expression over the size parameters; it is a size "
                         f"parameter of its own, {dname}")
        dtype = kopt_dtype(t.torch_dtype, precision, f"{path}: {t.kind} '{t.name}'")
        entry: dict[str, Any] = {"name": t.name, "kind": t.kind, "index": t.index, "key": t.key, "dtype": dtype,
                                 "shape": shape, "torch_dtype": t.torch_dtype}
        tensors.append(entry)
        if t.torch_dtype in (torch.float16, torch.bfloat16) and precision == "fp32":
            notes.append(f"{t.name} is {str(t.torch_dtype).replace('torch.', '')} in the problem; the fp32 task "
                         "uses float32")

    sizes: list[SizeCase] = []
    for cname, cvals, vo in case_consts:
        if cname not in case_snaps:
            continue
        vals = {p: cvals[p] for p in size_consts}
        for d in dim_params:
            vals[d] = dim_values[d][cname]
        sizes.append(SizeCase(cname, vals, cvals, vo))

    # Flops, as a monomial over the constant size parameters.
    flops: str | None = None
    fl = [s.flops for s in uniq]
    if all(f is not None and f > 0 for f in fl):
        flops = fit_monomial(envs, fl, size_consts, perturb)  # type: ignore[arg-type]
        if flops is None:
            flops = _flops_per_output(envs, fl, size_consts, perturb, tensors)  # type: ignore[arg-type]
        if flops is None:
            notes.append("[work] flops omitted: the counted flops fit no monomial over the size parameters, "
                         "nor one times the output's size")
    if flops is not None and not size_consts:
        flops = str(fl[0])

    return Abi(path=path, precision=precision, constants=dict(consts), size_params=size_consts + dim_params,
               dim_params=dim_params, tensors=tensors, fixed_inputs=problem_snap.fixed_inputs, sizes=sizes,
               flops=flops, mode=mode, notes=notes, snapshots=case_snaps)


def _partial_odd(odd: dict[str, int], consts: dict[str, int], size_consts: list[str], run: Callable[..., Snapshot],
                 mode: str, base: Snapshot) -> tuple[Snapshot, list[str]] | None:
    """An odd case with as many size parameters odd as the problem allows (greedy, in source order)."""
    values = dict(consts)
    snap: Snapshot | None = None
    kept: list[str] = []
    for p in size_consts:
        if odd[p] == consts[p]:
            continue
        try:
            s = run({**values, p: odd[p]}, mode)
        except ProblemError:
            kept.append(p)
            continue
        if s.structure() != base.structure():
            kept.append(p)
            continue
        values[p] = odd[p]
        snap = s
    return None if snap is None else (snap, kept)


def _fmt(values: Mapping[str, int], names: list[str]) -> str:
    return ", ".join(f"{n}={values[n]}" for n in names) or "the problem's constants"


def shapes_at(abi_tensors: list[dict[str, Any]], size: Mapping[str, int]) -> list[tuple[int, ...]]:
    """Concrete shapes of the ABI tensors (with expression shapes) at the size parameter values `size`."""
    return [tuple(kexpr.evaluate(d, size) for d in t["shape"]) for t in abi_tensors]


def load_abi(task_dir: Path) -> dict[str, Any]:
    """TASK_DIR/torch_abi.json, read and checked (the reference process and export read it)."""
    path = task_dir / "torch_abi.json"
    try:
        abi = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ProblemError(f"{path}: cannot read ({e.strerror or e}); expected a task folder made by kopt "
                           "import-torch") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ProblemError(f"{path}: not valid JSON ({getattr(e, 'msg', e)})") from None
    if not isinstance(abi, dict) or abi.get("schema") != SCHEMA:
        got = abi.get("schema") if isinstance(abi, dict) else None
        raise ProblemError(f"{path}: schema is {got!r}; expected {SCHEMA!r}")
    for key, kind in (("problem", str), ("precision", str), ("size_params", list), ("constants", dict),
                      ("tensors", list), ("fixed_inputs", list)):
        if not isinstance(abi.get(key), kind):
            raise ProblemError(f"{path}: field '{key}' is missing or not a {kind.__name__}")
    if abi["precision"] not in ("fp32", "bf16"):
        raise ProblemError(f"{path}: field 'precision' is {abi['precision']!r}; expected fp32 or bf16")
    for i, t in enumerate(abi["tensors"]):
        if (not isinstance(t, dict) or not isinstance(t.get("name"), str)
                or t.get("kind") not in ("input", "parameter", "buffer", "output")
                or t.get("dtype") not in ELEMENT_SIZE or not isinstance(t.get("shape"), list)):
            raise ProblemError(f"{path}: tensors[{i}]: expected name, kind (input|parameter|buffer|output), "
                               f"dtype ({'|'.join(ELEMENT_SIZE)}) and shape")
        if t["kind"] in ("input", "output") and (not isinstance(t.get("index"), int) or t["index"] < 0):
            raise ProblemError(f"{path}: tensors[{i}] ({t['name']}): an {t['kind']} needs an integer 'index'")
        if t["kind"] in ("parameter", "buffer") and not isinstance(t.get("key"), str):
            raise ProblemError(f"{path}: tensors[{i}] ({t['name']}): a {t['kind']} needs its state_dict 'key'")
        for d in t["shape"]:
            if isinstance(d, bool) or not isinstance(d, (int, str)):
                raise ProblemError(f"{path}: tensors[{i}] ({t['name']}): shape entry {d!r}; expected an "
                                   "integer or an expression string")
    for i, f in enumerate(abi["fixed_inputs"]):
        if not isinstance(f, dict) or not isinstance(f.get("index"), int) or "value" not in f:
            raise ProblemError(f"{path}: fixed_inputs[{i}]: expected {{\"index\": int, \"value\": ...}}")
    if not any(t["kind"] == "output" for t in abi["tensors"]):
        raise ProblemError(f"{path}: no tensor of kind 'output'; expected at least one")
    return abi
