"""`import_problem`: a KernelBench-format PyTorch problem -> a kopt task folder.

The folder holds `task.toml` (an ordinary task, docs/task-format.md, whose reference is the module:
``[reference] torch = "problem.py"``), `problem.py` (the problem, copied byte for byte) and
`torch_abi.json` (the ABI record ``kopt.torch_abi/1`` of docs/pytorch.md).

Generators (docs/pytorch.md, "Inputs, and why not only torch.rand"):

- floating inputs keep kopt's default cycle, except an input on which the reference is not defined for
  negative values: at the `small` case on the CPU the problem's own inputs give no NaN and the same
  tensors minus 1 (values in [-1, 0)) do; such an input gets [uniform(0, 1), uniform(0.5, 2)];
- integer inputs take the range that several calls of get_inputs() produce, as ``p - 1`` or ``p`` for a
  size parameter p when that bound is consistent with every sampled point (the observed maximum is at
  most the bound and within 5 % of the range below it), else the observed maximum; the low end is 0 when
  every observed minimum is within 5 % of the range above 0, else the observed minimum; bool inputs 0..1;
- floating parameters and buffers: [uniform(-b, b), normal(0, b/2)] with b = max|v| after the module's own
  initialisation, rounded up to 3 significant digits; a constant c (LayerNorm's ones) gets
  [uniform(c - 0.5, c + 0.5)]; integer buffers keep their observed range.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import math
import re
import shutil
from pathlib import Path
from typing import Any, Mapping

import torch

from . import expr as kexpr
from .abi import ELEMENT_SIZE, C_TYPE, Abi, derive_abi, kopt_dtype
from .chain import ChainGuess, chain_shapes, infer_chain, symbolic_shape
from .errors import ProblemError
from .family import FamilyGuess, infer_family
from .family_guess import Binding
from .problem import host_device, load_problem, one_line

SUMMARY_SCHEMA = "kopt.torch_import/1"
TOLERANCE = {"f32": (1e-4, 1e-4), "bf16": (1e-2, 2e-2)}
_CHEAP_ELEMENTS = 1 << 24
# The most elements (parameters, buffers and inputs) the importer builds on the CPU to read a module's initial
# values or run its forward: KernelBench's level3/2_ShallowWideMLP has 2^31 parameters (8 GiB in FP32) in
# every size case (its widths are a list, not size constants), and building it twice was killed for memory.
_MAX_CPU_ELEMENTS = 1 << 28


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=True)


def _toml_num(x: float | int) -> str:
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, int):
        return str(x)
    s = repr(float(x))
    return s if any(c in s for c in ".eE") else s + ".0"


def _toml_value(v: Any) -> str:
    if isinstance(v, str):
        return _toml_str(v)
    return _toml_num(v)


def _gen(kind: str, **params: Any) -> str:
    inner = ", ".join([f"kind = {_toml_str(kind)}"] + [f"{k} = {_toml_value(v)}" for k, v in params.items()])
    return "{ " + inner + " }"


def round_up_sig(x: float, digits: int = 3) -> float:
    """x > 0 rounded up to `digits` significant digits (0.0312347 -> 0.0313)."""
    e = math.floor(math.log10(x))
    scale = 10.0 ** (e - digits + 1)
    r = math.ceil(x / scale - 1e-9) * scale
    return float(f"{r:.{digits}g}")


def _sanitise(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    return s or "problem"


def _case_constants(abi: Abi, name: str) -> dict[str, int] | None:
    for s in abi.sizes:
        if s.name == name:
            return s.constants
    return None


def _numel_at(abi: Abi, case: str, kinds: tuple[str, ...]) -> int:
    snap = abi.snapshots[case]
    return sum(math.prod(t.shape) for t in snap.tensors if t.kind in kinds)


def _nonnegative_inputs(abi: Abi, notes: list[str]) -> set[str]:
    """Floating inputs on which the reference gives NaN for negative values but not for its own inputs."""
    floating = [t for t in abi.tensors if t["kind"] == "input" and t["torch_dtype"].is_floating_point]
    if not floating:
        return set()
    case = "small" if _case_constants(abi, "small") is not None else "problem"
    if _numel_at(abi, case, ("parameter", "buffer", "input")) > _MAX_CPU_ELEMENTS:
        notes.append(f"the negative-input check did not run: the module and its inputs have more than "
                     f"{_MAX_CPU_ELEMENTS} elements at the '{case}' size case; floating inputs keep kopt's "
                     "default generators")
        return set()
    consts = _case_constants(abi, case)
    problem = load_problem(abi.path, consts)
    try:
        torch.manual_seed(0)
        model = problem.make_model()
        inputs = problem.inputs()
        with torch.no_grad():
            def has_nan(args: list[Any]) -> bool:
                out = model(*args)
                outs = out if isinstance(out, (tuple, list)) else [out]
                return any(o.is_floating_point() and bool(torch.isnan(o).any()) for o in outs)

            try:
                if has_nan(inputs):
                    return set()
                found = set()
                for t in floating:
                    shifted = list(inputs)
                    shifted[t["index"]] = inputs[t["index"]] - 1
                    if has_nan(shifted):
                        found.add(t["name"])
                return found
            except Exception as e:  # noqa: BLE001 - the check is advisory
                notes.append(f"the negative-input check did not run on the CPU ({one_line(e)}); floating inputs "
                             "keep kopt's default generators")
                return set()
    finally:
        problem.unload()


def _param_values(abi: Abi, notes: list[str]) -> tuple[dict[str, torch.Tensor], str]:
    """The module's parameters and buffers after its own initialisation, by ABI tensor name."""
    case = "problem"
    if _numel_at(abi, "problem", ("parameter", "buffer")) > _CHEAP_ELEMENTS and "small" in abi.snapshots:
        case = "small"
    if _numel_at(abi, case, ("parameter", "buffer")) > _MAX_CPU_ELEMENTS:
        notes.append(f"parameters and buffers take kopt's default generators: the module has more than "
                     f"{_MAX_CPU_ELEMENTS} elements of them at the '{case}' size case, too many to build on the "
                     "CPU for their initial values")
        return {}, case
    problem = load_problem(abi.path, _case_constants(abi, case))
    try:
        torch.manual_seed(0)
        model = problem.make_model()
        out: dict[str, torch.Tensor] = {}
        for t in abi.tensors:
            if t["kind"] in ("parameter", "buffer"):
                try:
                    v = model.get_parameter(t["key"]) if t["kind"] == "parameter" else model.get_buffer(t["key"])
                except AttributeError:
                    continue
                out[t["name"]] = v.detach()
        return out, case
    finally:
        problem.unload()


def importer_digest() -> str:
    """SHA-256 of the bridge's own code (every kopt_torch/*.py, by file name: name, NUL, bytes, NUL), recorded in
    torch_abi.json so that `kopt bench --torch` re-imports a problem the importer has changed since (a new
    family inferred, another work model); kopt computes the same digest (torch_importer_digest)."""
    h = hashlib.sha256()
    for f in sorted(Path(__file__).parent.glob("*.py"), key=lambda p: p.name):
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _binding_expr(abi: Abi, tensor_ref: int | str, dims: tuple[int, ...] | None) -> kexpr.Expr:
    """The product of dimensions `dims` of a tensor (a forward input by position, or a parameter or buffer by
    its state_dict key), over the task's size names; with no dims, the tensor's launcher parameter."""
    if isinstance(tensor_ref, int):
        tensor = next(t for t in abi.tensors if t["kind"] == "input" and t["index"] == tensor_ref)
    else:
        tensor = next(t for t in abi.tensors if t["kind"] in ("parameter", "buffer") and t["key"] == tensor_ref)
    if dims is None:
        return tensor["name"]
    return kexpr.product([tensor["shape"][d] for d in dims])


def _guess_family(abi: Abi) -> FamilyGuess | ChainGuess | None:
    """The library family of a one-operator problem, traced at its smallest runnable case; where there is none,
    the chain of families the forward is (kopt_torch.chain), if any."""
    case = "small" if _case_constants(abi, "small") is not None else "problem"
    problem = load_problem(abi.path, _case_constants(abi, case))
    try:
        model, inputs = problem.make_model(device="meta"), problem.inputs()
        return infer_family(model, inputs) or infer_chain(model, inputs)
    except Exception:  # noqa: BLE001 - no family is the answer for whatever cannot be built or traced
        return None
    finally:
        problem.unload()


def _chain_points(abi: Abi, chain: ChainGuess) -> tuple[list[tuple[dict[str, int], dict[str, tuple[int, ...]]]],
                                                         dict[str, list[int]]] | None:
    """The shapes of the nodes the chain's tables are sized from (ChainGuess.shape_nodes), by node name, with the
    size names' values they were read at: the problem traced on the meta device at every size case (the problem
    case first) and, where the ABI has no dimension parameters, at the problem's constants with one size constant
    changed (to c + 1 and to 2c + 3, as derive_abi perturbs them: points where in_features and out_features differ,
    which the size cases may not have), with the indices of those points per constant; None where some size case
    does not trace to the same graph (a perturbed point that does not is left out)."""
    def at(constants: dict[str, int]) -> dict[str, tuple[int, ...]] | None:
        problem = load_problem(abi.path, constants)
        try:
            with host_device("meta"), torch.device("meta"):
                model, inputs = problem.make_model(), problem.inputs()
            return chain_shapes(model, inputs, chain)
        except Exception:  # noqa: BLE001 - a point that cannot be built or traced
            return None
        finally:
            problem.unload()

    cases = sorted(abi.sizes, key=lambda s: s.name != "problem")
    points: list[tuple[dict[str, int], dict[str, tuple[int, ...]]]] = []
    for s in cases:
        found = at(s.constants)
        if found is None:
            return None
        points.append((dict(s.values), found))
    perturbed: list[tuple[dict[str, int], dict[str, tuple[int, ...]]]] = []
    perturb: dict[str, list[int]] = {}
    base = cases[0]
    if base.name == "problem" and not abi.dim_params:
        for p in abi.size_params:
            for v in (base.constants[p] + 1, 2 * base.constants[p] + 3):
                found = at({**base.constants, p: v})
                if found is not None:
                    perturb.setdefault(p, []).append(1 + len(perturbed))
                    perturbed.append(({**base.values, p: v}, found))
    return points[:1] + perturbed + points[1:], perturb


def _plain_reason(reason: str) -> str:
    """A family guess's reason as a stage's: "the module is one softmax ..." -> "one softmax ..."."""
    return reason[len("the module is "):] if reason.startswith("the module is ") else reason


def _chain_lines(abi: Abi, chain: ChainGuess,
                 precision: str) -> tuple[list[str], str, dict[str, list[kexpr.Expr]]] | str:
    """The task.toml tables of a chain ([[intermediates]] and [[stages]], docs/task-format.md), the summary's
    words for it, and the shape of what each gathering stage writes by the gathered table's state_dict key (the
    work model counts that many of the table's elements); or why the chain cannot be written (a line for the
    notes)."""
    outputs = [t for t in abi.tensors if t["kind"] == "output"]
    if len(outputs) != 1:
        return "the forward has several outputs"
    inputs = {t["index"]: t for t in abi.tensors if t["kind"] == "input"}
    by_key = {t["key"]: t for t in abi.tensors if t["kind"] in ("parameter", "buffer")}
    taken = {t["name"] for t in abi.tensors} | set(abi.size_params)
    names: list[str] = []
    for _ in chain.nodes:
        k = 0
        while f"t{k}" in taken:
            k += 1
        names.append(f"t{k}")
        taken.add(f"t{k}")
    evaluated = _chain_points(abi, chain)
    if evaluated is None:
        return "the problem does not trace to the same graph at every size case"
    points, perturb = evaluated
    cases = [0] + list(range(len(points) - len(abi.sizes) + 1, len(points)))  # the size cases among the points
    dims: dict[str, list[kexpr.Expr]] = {}  # fx node name -> its shape over the size names

    def shape_of(node: str, prefer: str | None = None) -> list[kexpr.Expr] | None:
        if node not in dims:
            found = symbolic_shape(abi, [(env, shapes[node]) for env, shapes in points], perturb, cases, prefer)
            if found is None:
                return None
            dims[node] = found
        return dims[node]

    for i, node in enumerate(chain.nodes):
        if shape_of(node) is None:
            return f"the shape of the value between stages {i + 1} and {i + 2} fits no expression over the size names"
    for n, stage in enumerate(chain.stages):
        for (kind, i), node in zip(stage.inputs, stage.views):
            if kind == "intermediate" or i in inputs:  # not a number the forward takes
                if shape_of(node, inputs[i]["name"] if kind == "input" else None) is None:
                    return f"the shape stage {n + 1} reads an input in fits no expression over the size names"

    def tensor(ref: tuple[str, int]) -> str | None:
        """A stage input's or output's launcher (or intermediate's) name; None for a number the forward takes."""
        kind, i = ref
        if kind == "intermediate":
            return names[i]
        if kind == "output":
            return outputs[0]["name"]
        return inputs[i]["name"] if i in inputs else None

    def value(stage: Any, binding: Binding) -> str:
        if isinstance(binding, float):
            return _toml_num(binding)
        if isinstance(binding, int):
            return _toml_str(str(binding))
        ref, which = binding
        if isinstance(ref, int):
            name, shape = tensor(stage.inputs[ref]), dims[stage.views[ref]]
        else:
            name, shape = by_key[ref]["name"], list(by_key[ref]["shape"])
        return _toml_str(str(name) if which is None else str(kexpr.product([shape[d] for d in which])))

    lines = ["", "# Buffers of the chain's own between its stages (docs/pytorch.md, \"Chains of families\"): never "
             "compared, never passed by the caller."]
    for i, name in enumerate(names):
        dtype = kopt_dtype(chain.dtypes[i], precision, f"{abi.path}: intermediate {name}")
        shape = dims[chain.nodes[i]]
        lines += ["[[intermediates]]", f"# shape [{', '.join(str(d) for d in shape)}]", f"name = {_toml_str(name)}",
                  f"length = {_toml_value(kexpr.product(shape))}", f"dtype = {_toml_str(dtype)}", ""]
    read: set[str] = set()
    words = []
    gathered: dict[str, list[kexpr.Expr]] = {}
    for n, stage in enumerate(chain.stages):
        guess = stage.guess
        kind, i = stage.output
        written = dims[chain.nodes[i]] if kind == "intermediate" else list(outputs[0]["shape"])
        gathered |= {key: written for key in guess.gathered}
        reads = [name for name in map(tensor, stage.inputs) if name is not None]
        reads += [by_key[k]["name"] for k in stage.keys if k in by_key]
        read |= set(reads)
        what = _plain_reason(guess.reason)
        words.append(f"{guess.family} ({what})")
        lines += [f"# Stage {n + 1} of {len(chain.stages)}: {what}.", "[[stages]]",
                  f"family = {_toml_str(guess.family)}", f"reads = [{', '.join(map(_toml_str, reads))}]",
                  f"writes = [{_toml_str(str(tensor(stage.output)))}]"]
        if guess.params:
            lines.append("strategy_params = { " + ", ".join(f"{k} = {_toml_str(v)}" for k, v in guess.params.items())
                         + " }")
        if guess.binding:
            lines.append("binding = { " + ", ".join(f"{role} = {value(stage, b)}" for role, b in guess.binding.items())
                         + " }")
        lines.append("")
    unread = [t["name"] for t in abi.tensors if t["kind"] != "output" and t["name"] not in read]
    if unread:
        return f"no stage reads {', '.join(unread)}"
    return lines[:-1], " then ".join(words), gathered


def _int_ranges(abi: Abi) -> dict[str, list[tuple[dict[str, int], int, int]]]:
    """Integer inputs: per name, (size values, min, max) observed at the sampled size cases."""
    ints = [t for t in abi.tensors if t["kind"] == "input" and not t["torch_dtype"].is_floating_point
            and t["torch_dtype"] != torch.bool]
    if not ints:
        return {}
    cases = []
    if _numel_at(abi, "problem", ("input",)) <= _CHEAP_ELEMENTS:
        cases.append("problem")
    if "small" in abi.snapshots:
        cases.append("small")
    if not cases:
        cases.append("problem")
    result: dict[str, list[tuple[dict[str, int], int, int]]] = {t["name"]: [] for t in ints}
    for case in cases:
        consts = _case_constants(abi, case)
        size = next(s.values for s in abi.sizes if s.name == case)
        problem = load_problem(abi.path, consts)
        try:
            torch.manual_seed(0)
            lo: dict[str, int] = {}
            hi: dict[str, int] = {}
            for _ in range(8):
                inputs = problem.inputs()
                for t in ints:
                    v = inputs[t["index"]]
                    if v.numel():
                        lo[t["name"]] = min(lo.get(t["name"], 2**63), int(v.min()))
                        hi[t["name"]] = max(hi.get(t["name"], -(2**63)), int(v.max()))
            for t in ints:
                if t["name"] in lo:
                    result[t["name"]].append((size, lo[t["name"]], hi[t["name"]]))
        finally:
            problem.unload()
    return result


def _bound_expr(samples: list[tuple[dict[str, int], int, int]], params: list[str], upper: bool) -> kexpr.Expr:
    """An expression (p - 1 or p) for the observed maximum, consistent at every sample, else the literal."""
    if upper:
        for p in params:
            for cand in (f"{p} - 1", p):
                ok = True
                for size, lo, hi in samples:
                    v = kexpr.evaluate(cand, size)
                    if not (hi <= v and v - hi <= max(0, math.ceil(0.05 * (v - lo)))):
                        ok = False
                if ok:
                    return cand
        return max(hi for _, _, hi in samples)
    # 0 when every sample's minimum is within 5 % of its range above it (randint(0, n) rarely draws 0)
    if all(0 <= lo <= math.ceil(0.05 * (hi - lo)) for _, lo, hi in samples):
        return 0
    return min(lo for _, lo, _ in samples)


def import_problem(problem_path: str | Path, out_dir: str | Path, precision: str = "fp32",
                   name: str | None = None, family: str | None = None, force: bool = False) -> dict[str, Any]:
    """Write a kopt task folder for a PyTorch problem and return a summary (`kopt.torch_import/1`). The
    problem's code runs on the CPU (or the meta device), what it asks for on the GPU included."""
    with host_device("cpu"):
        return _import_problem(Path(problem_path), out_dir, precision, name, family, force)


def _import_problem(problem_path: Path, out_dir: str | Path, precision: str, name: str | None,
                    family: str | None, force: bool) -> dict[str, Any]:
    out_dir = Path(out_dir)
    if precision not in ("fp32", "bf16"):
        raise ProblemError(f"--precision {precision}: expected fp32 or bf16")
    if not problem_path.is_file():
        raise ProblemError(f"{problem_path}: no such problem file")
    if out_dir.exists() and not out_dir.is_dir():
        raise ProblemError(f"{out_dir}: exists and is not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not force:
        raise ProblemError(f"{out_dir}: folder exists and is not empty; pass --force to overwrite")
    if family is not None and not re.fullmatch(r"[A-Za-z0-9_.-]+", family):
        raise ProblemError(f"--family {family!r}: expected letters, digits, _ . - only")

    abi = derive_abi(problem_path, precision)
    notes = list(abi.notes)
    task_name = _sanitise(name if name else f"{problem_path.stem}_{precision}")

    # Description: the Model docstring's first line.
    problem = load_problem(problem_path, {})
    try:
        doc = inspect.cleandoc(problem.Model.__dict__.get("__doc__") or "")
    finally:
        problem.unload()
    first = doc.strip().splitlines()[0].strip() if doc.strip() else ""
    if not first:
        first = f"PyTorch problem {problem_path.name} (class Model)"
    description = f"{first} (imported by kopt import-torch)"

    guess: FamilyGuess | None = None
    chain: ChainGuess | None = None
    chain_lines: list[str] = []
    gathered_shapes: dict[str, list[kexpr.Expr]] = {}  # a chain's gathered tables: what their stage writes
    if not family:
        found = _guess_family(abi)
        if isinstance(found, FamilyGuess):
            guess, family = found, found.family
            notes.append(f"family {guess.family} inferred: {guess.reason} (--family overrides it)")
        elif isinstance(found, ChainGuess):
            written = _chain_lines(abi, found, precision)
            if isinstance(written, str):
                notes.append(f"a chain of families was read off the graph ({_plain_reason(found.reason)}) but not "
                             f"written: {written}")
            else:
                chain, (chain_lines, words, gathered_shapes) = found, written
                notes.append(f"chain inferred: {words} (--family overrides it)")

    const_params = [p for p in abi.size_params if p not in abi.dim_params]
    big = any(v >= 2**31 for s in abi.sizes for v in s.values.values())
    int_type = "long long" if big else "int"

    # Generators.
    nonneg = _nonnegative_inputs(abi, notes)
    pvals, pcase = _param_values(abi, notes)
    ranges = _int_ranges(abi)
    gens: dict[str, tuple[list[str], str | None]] = {}
    for t in abi.tensors:
        n, kind, tdt = t["name"], t["kind"], t["torch_dtype"]
        if kind == "output":
            continue
        if kind == "input":
            if tdt == torch.bool:
                gens[n] = ([_gen("int_uniform", low=0, high=1)], None)
            elif tdt.is_floating_point:
                if n in nonneg:
                    why = f"{n} kept non-negative: the reference returns NaN on negative inputs"
                    gens[n] = ([_gen("uniform", low=0.0, high=1.0), _gen("uniform", low=0.5, high=2.0)], why)
                    notes.append(why)
            elif n in ranges and ranges[n]:
                lo = _bound_expr(ranges[n], const_params, upper=False)
                hi = _bound_expr(ranges[n], const_params, upper=True)
                obs = ", ".join(f"{a}..{b}" for _, a, b in ranges[n])
                why = f"{n}: int_uniform({lo}, {hi}), the range get_inputs() produces (observed {obs})"
                gens[n] = ([_gen("int_uniform", low=lo, high=hi)], why)
                notes.append(why)
            continue
        v = pvals.get(n)
        if v is None or v.numel() == 0:
            continue
        if v.is_floating_point():
            vf = v.float()
            finite = vf[torch.isfinite(vf)]
            if finite.numel() == 0:
                continue
            c0 = float(finite.flatten()[0])
            if bool((finite == c0).all()):
                gens[n] = ([_gen("uniform", low=c0 - 0.5, high=c0 + 0.5)], None)
                notes.append(f"{n}: constant {c0:g} after initialisation; generated as uniform({c0 - 0.5:g}, "
                             f"{c0 + 0.5:g})")
            else:
                b = round_up_sig(float(finite.abs().max()))
                gens[n] = ([_gen("uniform", low=-b, high=b), _gen("normal", mean=0.0, std=b / 2)], None)
        else:
            lo, hi = int(v.min()), int(v.max())
            if v.dtype == torch.bool:
                lo, hi = 0, 1 if hi else 0
            gens[n] = ([_gen("int_uniform", low=lo, high=hi)], None)
    if any(t["kind"] in ("parameter", "buffer") for t in abi.tensors):
        notes.append(f"parameter/buffer generators from the module's initialisation at the {pcase} case")

    # Work.
    terms: list[str] = []
    lit = 0
    per_length: dict[str, int] = {}  # like terms combined: 4*N*D + 4*N*D -> 8*N*D
    output_shape = next(t["shape"] for t in abi.tensors if t["kind"] == "output")
    guesses = [guess] if guess is not None else [s.guess for s in chain.stages] if chain is not None else []
    gathered = {key for g in guesses for key in g.gathered}
    unused = {key for g in guesses for key in g.unused}
    for t in abi.tensors:
        # A table read only where an index points is counted as one output's worth of its elements (in a chain,
        # of the output of the stage that reads it).
        shape = gathered_shapes.get(t.get("key"), output_shape) if t.get("key") in gathered else t["shape"]
        length = kexpr.product(list(shape))
        es = ELEMENT_SIZE[t["dtype"]]
        if isinstance(length, int):
            lit += es * length
        else:
            per_length[length] = per_length.get(length, 0) + es
    for length, es in per_length.items():
        terms.append(kexpr.product([es, length]) if kexpr.is_atom(length) else f"{es}*({length})")
    if lit or not terms:
        terms.append(str(lit))
    bytes_expr = " + ".join(terms)
    has_mm = bool(abi.snapshots["problem"].flops)
    math_kind = "tensor" if precision == "bf16" and has_mm else None

    # task.toml
    args = []
    for t in abi.tensors:
        ctype = C_TYPE[t["dtype"]]
        args.append(f"{'const ' if t['kind'] != 'output' else ''}{ctype}* {t['name']}")
    args += [f"{int_type} {p}" for p in abi.size_params]
    signature = f'extern "C" void forward({", ".join(args)})'
    lines = [
        "# Imported from a PyTorch problem by kopt import-torch (docs/pytorch.md).",
        f"name = {_toml_str(task_name)}",
        f"description = {_toml_str(description)}",
    ]
    if family:
        lines.append(f"family = {_toml_str(family)}")
    lines += ["", "[entry]", f"signature = '{signature}'", ""]
    for t in abi.tensors:
        length = kexpr.product(list(t["shape"]))
        lines.append(f"[buffers.{t['name']}]")
        shape_txt = ", ".join(str(d) for d in t["shape"])
        lines.append(f"# {t['kind']}" + (f" {t['key']}" if t.get("key") else "") + f", shape [{shape_txt}]")
        lines.append(f"length = {_toml_value(length)}")
        lines.append(f"dtype = {_toml_str(t['dtype'])}")
        if t.get("key") in unused:
            lines.append("# No output depends on it (the module updates it as a side effect): a library strategy "
                         "may leave it unread.")
            lines.append("affects_outputs = false")
        if t["name"] in gens:
            g, why = gens[t["name"]]
            if why:
                lines.append(f"# {why}")
            lines.append(f"generators = [{', '.join(g)}]")
        lines.append("")
    for s in abi.sizes:
        lines.append("[[sizes]]")
        lines.append(f"name = {_toml_str(s.name)}")
        for p in abi.size_params:
            lines.append(f"{p} = {s.values[p]}")
        if s.verify_only:
            lines.append("verify_only = true")
        lines.append("")
    lines.append("[tolerance]")
    for dt, (atol, rtol) in TOLERANCE.items():
        lines.append(f"{dt} = {{ atol = {_toml_num(atol)}, rtol = {_toml_num(rtol)} }}")
    lines += ["", "[reference]", 'torch = "problem.py"', f"precision = {_toml_str(precision)}", "", "[work]",
              f"bytes = {_toml_str(bytes_expr)}"]
    if abi.flops:
        lines.append(f"flops = {_toml_str(abi.flops)}")
    if math_kind:
        lines.append(f"math = {_toml_str(math_kind)}")
    if guess is not None and guess.binding:
        lines += ["", "# Contract roles that are no launcher parameter, from the inputs' shapes (docs/pytorch.md, "
                  "\"Families\").", "[binding]"]
        lines += [f"{role} = " + (_toml_str(str(value)) if isinstance(value, int) else _toml_num(value)
                                  if isinstance(value, float) else _toml_str(str(_binding_expr(abi, *value))))
                  for role, value in guess.binding.items()]
    if guess is not None and guess.params:
        lines += ["", "# The family's arithmetic, read off the module's graph (docs/pytorch.md, \"Families\").",
                  "[strategy_params]"]
        lines += [f"{k} = {_toml_str(v)}" for k, v in guess.params.items()]
    lines += chain_lines
    toml_text = "\n".join(lines) + "\n"

    # Check every length is > 0 at every case (derive_abi checked the shapes; this checks the expressions).
    for s in abi.sizes:
        for t in abi.tensors:
            if kexpr.evaluate(kexpr.product(list(t["shape"])), s.values) <= 0:
                raise ProblemError(f"{problem_path}: tensor {t['name']} is empty at size case {s.name}")

    out_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(problem_path, out_dir / "problem.py")
    (out_dir / "task.toml").write_text(toml_text, encoding="utf-8")
    (out_dir / "torch_abi.json").write_text(json.dumps({**abi.to_json(), "importer": importer_digest()}, indent=1)
                                            + "\n", encoding="utf-8")

    return {
        "schema": SUMMARY_SCHEMA,
        "task_dir": str(out_dir),
        "name": task_name,
        "precision": precision,
        "size_params": list(abi.size_params),
        "tensors": [{"name": t["name"], "kind": t["kind"], "dtype": t["dtype"], "shape": list(t["shape"])}
                    for t in abi.tensors],
        "sizes": [{"name": s.name, "values": dict(s.values), "verify_only": s.verify_only} for s in abi.sizes],
        "notes": notes,
    }


def summary_json(summary: Mapping[str, Any]) -> str:
    """The summary as indented JSON."""
    return json.dumps(summary, indent=1)
