"""Back to PyTorch: a kernel kopt found, as one self-contained ``model_new.py`` (docs/pytorch.md).

``python -m kopt_torch export TASK_DIR KERNEL.cu -o model_new.py [--name NAME] [--run-info TEXT]``
(what ``kopt export RUN --torch`` runs) writes one Python file that needs PyTorch and nvcc, not kopt:

1. a header comment: what the file is, the task, its precision, the run and candidate, the date, how to
   use it and how to check it;
2. the problem's source (``problem.py`` of the task folder), verbatim, so ``Model``, ``get_inputs``,
   ``get_init_inputs`` and the constants exist in the file (it is also a KernelBench solution file);
3. the kernel (a launcher ``extern "C" void forward(...)``, the task's entry) as a string, compiled at
   first use by ``torch.utils.cpp_extension.load_inline`` with nvcc ``--default-stream=per-thread``, as
   kopt compiles launchers, together with a C++ wrapper ``kopt_forward(tensors, sizes)`` that checks every
   tensor (CUDA, dtype, contiguous, element count from the ABI's shape expressions), allocates the
   outputs, orders the launcher's per-thread default stream after PyTorch's current stream and PyTorch's
   stream after the launcher, and calls ``forward``;
4. ``class ModelNew(Model)``: the same constructor (so the same parameters, in the same order), a
   ``forward(*inputs)`` that gathers the ABI's tensors (inputs, then parameters and buffers by their
   ``state_dict`` key), solves the size parameters from the tensors' shapes and calls the extension;
5. a ``torch.library`` custom op ``torch.ops.kopt.<name>(tensors, sizes)`` with a fake implementation
   (output shapes), so the call composes with ``torch.compile``; ``register()`` runs at import;
6. ``python model_new.py --check``: Model against ModelNew on ``get_inputs()`` with the task's tolerance,
   and the median time of both.

Kernel-mode candidates (a bare ``__global__`` with ``// kopt:launch`` geometry, the library's strategies)
get a generated launcher with the task's signature (kernel_launcher.py), their knob values as #defines.

The helpers named ``_kopt_*`` below are copied into the generated file with their source
(`inspect.getsource`): they are self-contained, and the unit tests exercise the very code the file runs.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import hashlib
import inspect
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import torch as _kopt_torch

from . import expr as kexpr
from .abi import load_abi
from .errors import ProblemError, read_text
from .kernel_launcher import launcher_for_kernel, with_defines

_TORCH_DTYPE = {"f32": "float32", "bf16": "bfloat16", "i64": "int64", "i32": "int32", "u8": "uint8"}
_ATEN_DTYPE = {"f32": "torch::kFloat32", "bf16": "torch::kBFloat16", "i64": "torch::kInt64",
               "i32": "torch::kInt32", "u8": "torch::kUInt8"}
_FLOAT_DTYPES = ("f32", "bf16")
# docs/task-format.md, "[tolerance]": the defaults of a dtype that task.toml does not name.
_DEFAULT_TOLERANCE = {"f32": (1e-5, 1e-5), "bf16": (1e-2, 1.6e-2), "f16": (1e-3, 1e-2), "f64": (1e-10, 1e-10)}
# The launcher's integer types for size parameters, with the range a value must fit.
_INT_TYPES = {"int": 31, "int32_t": 31, "long long": 63, "int64_t": 63, "long": 63, "long int": 63,
              "long long int": 63, "size_t": 63, "unsigned": 32, "unsigned int": 32}
# nvcc flags of the extension: kopt's launcher flags (docs/compile.md), and PyTorch's half/bfloat16
# operator macros undefined again (torch.utils.cpp_extension defines them for every .cu; kopt's own
# build does not, and a kernel that converts __nv_bfloat16 implicitly would not compile with them).
CUDA_CFLAGS = ["-O3", "--default-stream=per-thread", "-std=c++17", "-U__CUDA_NO_HALF_OPERATORS__",
               "-U__CUDA_NO_HALF_CONVERSIONS__", "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
               "-U__CUDA_NO_HALF2_OPERATORS__"]
CXX_CFLAGS = ["-O3", "-std=c++17"]
# What load_inline puts before the cuda_sources (torch/utils/cpp_extension.py, load_inline).
LOAD_INLINE_CUDA_PRELUDE = ["#include <torch/types.h>", "#include <cuda.h>", "#include <cuda_runtime.h>"]
CPP_DECLARATION = ("std::vector<torch::Tensor> kopt_forward(std::vector<torch::Tensor> tensors, "
                   "std::vector<int64_t> sizes);")


# ------------------------------------------------------------------ helpers copied into the generated file


def _kopt_tdiv(a, b):
    """a / b truncated toward zero, as C and kopt's expressions divide."""
    if b == 0:
        raise ZeroDivisionError("kopt shape expression: division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _kopt_tmod(a, b):
    """The remainder of `_kopt_tdiv` (the sign of a, as in C)."""
    return a - b * _kopt_tdiv(a, b)


def _kopt_ceil_div(a, b):
    """kopt's ceil_div(a, b): the quotient rounded up."""
    if b == 0:
        raise ZeroDivisionError("kopt shape expression: division by zero")
    return -((-a) // b)


def _kopt_solve_sizes(plan, tensors, names):
    """The size parameters' values: plan[i] is ("dim", tensor position, dimension, rank) or ("const", value).

    A "dim" entry reads the parameter off that dimension of the gathered tensor (whose ABI rank is
    `rank`); a "const" entry is the problem's constant (the C++ wrapper then checks every tensor's element
    count against it). `names` are the tensors' ABI names, for the messages.
    """
    sizes = []
    for entry in plan:
        if entry[0] == "const":
            sizes.append(entry[1])
            continue
        _, pos, dim, rank = entry
        t = tensors[pos]
        if t.dim() != rank:
            raise ValueError(f"ModelNew: tensor {names[pos]} has {t.dim()} dimensions "
                             f"{tuple(t.shape)}; the kernel expects {rank}")
        sizes.append(t.shape[dim])
    return sizes


def _kopt_compare(got, ref, atol, rtol, mismatch_fraction):
    """kopt's output check (docs/task-format.md, "[tolerance]") of one output: (passed, report).

    An element passes when |got - ref| <= atol * max|ref| + rtol * |ref| (max|ref| over the finite
    reference values), or both are NaN, or both are the same infinity; the output passes when at most
    mismatch_fraction of its elements fail and it is not constant where the reference is not.
    """
    if tuple(got.shape) != tuple(ref.shape):
        return False, f"shape {tuple(got.shape)}, expected {tuple(ref.shape)}"
    g = got.detach().to("cpu", _kopt_torch.float64).reshape(-1)
    r = ref.detach().to("cpu", _kopt_torch.float64).reshape(-1)
    n = r.numel()
    if n == 0:
        return True, "empty"
    finite = _kopt_torch.isfinite(r)
    scale = float(r[finite].abs().max()) if bool(finite.any()) else 0.0
    diff = (g - r).abs()
    ok = diff <= atol * max(scale, 1e-30) + rtol * r.abs()
    ok = ok | (_kopt_torch.isnan(g) & _kopt_torch.isnan(r)) | (_kopt_torch.isinf(r) & (g == r))
    bad = int((~ok).sum())
    both = _kopt_torch.isfinite(g) & finite
    max_abs = float(diff[both].max()) if bool(both.any()) else 0.0
    max_rel = float((diff[both] / r[both].abs().clamp_min(1e-30)).max()) if bool(both.any()) else 0.0
    constant = n > 1 and bool((g == g[0]).all()) and not bool((r == r[0]).all())
    passed = bad <= mismatch_fraction * n and not constant
    report = (f"max abs err {max_abs:.3g}, max rel err {max_rel:.3g}, {bad} of {n} elements outside "
              f"atol {atol:g} x scale {scale:.3g}, rtol {rtol:g}")
    if constant:
        report += "; constant where the reference is not"
    return passed, report


_EMBEDDED_HELPERS = (_kopt_tdiv, _kopt_tmod, _kopt_ceil_div, _kopt_solve_sizes, _kopt_compare)


# ------------------------------------------------------------------------------------------- analysis


def load_task_toml(task_dir: Path) -> dict[str, Any]:
    """TASK_DIR/task.toml, parsed (the entry signature and the tolerances are read from it)."""
    path = task_dir / "task.toml"
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise ProblemError(f"{path}: cannot read ({e.strerror or e}); expected a task folder made by kopt "
                           "import-torch") from None
    except tomllib.TOMLDecodeError as e:
        raise ProblemError(f"{path}: not valid TOML ({e})") from None


@dataclass
class Param:
    """One parameter of the launcher's signature."""

    ctype: str  # the declared type, e.g. "const float*" or "int"
    name: str

    @property
    def is_pointer(self) -> bool:
        return "*" in self.ctype


def parse_signature(text: str, entry: str, where: str) -> list[Param]:
    """The parameters of ``extern "C" void <entry>(...)``: type and name of each, in order."""
    m = re.search(r"\b" + re.escape(entry) + r"\s*\((.*)\)\s*;?\s*$", text, re.S)
    if not m:
        raise ProblemError(f"{where}: signature {text!r}; expected 'extern \"C\" void {entry}(...)'")
    inner = m.group(1).strip()
    params: list[Param] = []
    if not inner or inner == "void":
        return params
    for raw in inner.split(","):
        p = " ".join(raw.split())
        pm = re.fullmatch(r"(.*?[\s*&])([A-Za-z_]\w*)", p)
        if not pm or not pm.group(1).strip():
            raise ProblemError(f"{where}: signature parameter {p!r}; expected '<type> <name>'")
        ctype = pm.group(1).strip().replace(" *", "*")
        params.append(Param(ctype, pm.group(2)))
    return params


def check_abi_against_signature(abi: Mapping[str, Any], params: list[Param], where: str) -> None:
    """The signature's pointers are the ABI's tensors and its integers the size parameters, in order."""
    pointers = [p.name for p in params if p.is_pointer]
    scalars = [p for p in params if not p.is_pointer]
    tensors = [t["name"] for t in abi["tensors"]]
    if pointers != tensors:
        raise ProblemError(f"{where}: the signature's pointers ({', '.join(pointers)}) are not the ABI's tensors "
                           f"({', '.join(tensors)}) in torch_abi.json's order")
    if [p.name for p in scalars] != list(abi["size_params"]):
        raise ProblemError(f"{where}: the signature's integers ({', '.join(p.name for p in scalars)}) are not "
                           f"torch_abi.json's size_params ({', '.join(abi['size_params'])})")
    for p in scalars:
        if p.ctype.replace("const ", "").strip() not in _INT_TYPES:
            raise ProblemError(f"{where}: size parameter {p.name} has type {p.ctype!r}; expected int or "
                               "long long")


def gathered_tensors(abi: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The tensors ModelNew passes to the kernel, in ABI order: inputs, parameters, buffers."""
    return [t for t in abi["tensors"] if t["kind"] != "output"]


def size_plan(abi: Mapping[str, Any]) -> list[tuple]:
    """How ModelNew finds each size parameter's value (the plan `_kopt_solve_sizes` follows).

    A parameter is read off the first gathered tensor dimension whose shape expression is exactly that
    parameter: ("dim", tensor position, dimension, rank). A parameter that no dimension gives alone (it
    appears only in products or sums, or only in an output's shape) takes the problem's value: the
    constant of that name, else its value at the size case "problem": ("const", value). ProblemError
    when neither exists.
    """
    tensors = gathered_tensors(abi)
    plan: list[tuple] = []
    problem_case = next((s.get("values", {}) for s in abi.get("sizes", []) if s.get("name") == "problem"), {})
    for p in abi["size_params"]:
        found = None
        for pos, t in enumerate(tensors):
            for dim, d in enumerate(t["shape"]):
                if isinstance(d, str) and d.strip() == p:
                    found = ("dim", pos, dim, len(t["shape"]))
                    break
            if found:
                break
        if found is None:
            value = abi["constants"].get(p, problem_case.get(p))
            if isinstance(value, bool) or not isinstance(value, int):
                raise ProblemError(f"torch_abi.json: size parameter {p} is no dimension of an input, parameter "
                                   "or buffer on its own, and has no value in 'constants' or at the size case "
                                   "'problem'; expected one of them")
            found = ("const", value)
        plan.append(found)
    return plan


def solve_sizes(plan: Sequence[tuple], tensors: Sequence[Any], names: Sequence[str]) -> list[int]:
    """The size parameters' values for `tensors` (anything with .dim() and .shape), following `plan`."""
    return [int(v) for v in _kopt_solve_sizes(plan, tensors, names)]


def _expr_tree(e: kexpr.Expr, size_params: Sequence[str], where: str) -> ast.AST:
    """The syntax tree of a shape entry, after checking it with kopt's evaluator."""
    env = {p: 7 for p in size_params}
    if isinstance(e, int):
        return ast.Constant(e)
    try:
        kexpr.evaluate(e, env)
    except ProblemError as err:
        raise ProblemError(f"{where}: {err}") from None
    return ast.parse(e.strip(), mode="eval").body


def render_expr(e: kexpr.Expr, size_params: Sequence[str], lang: str, where: str) -> str:
    """A shape expression as C++ (`lang` "cpp": names s_<p>, int64_t arithmetic) or Python ("py": s[i])."""
    index = {p: i for i, p in enumerate(size_params)}

    def go(node: ast.AST) -> str:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return f"int64_t{{{node.value}}}" if lang == "cpp" else str(node.value)
        if isinstance(node, ast.Name):
            if node.id not in index:
                raise ProblemError(f"{where}: unknown identifier '{node.id}'; expected a size parameter")
            return f"s_{node.id}" if lang == "cpp" else f"s[{index[node.id]}]"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return f"({'-' if isinstance(node.op, ast.USub) else '+'}{go(node.operand)})"
        if isinstance(node, ast.BinOp):
            a, b = go(node.left), go(node.right)
            if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
                op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}[type(node.op)]
                return f"({a} {op} {b})"
            if isinstance(node.op, ast.Div):
                return f"kopt_export::div({a}, {b})" if lang == "cpp" else f"_kopt_tdiv({a}, {b})"
            if isinstance(node.op, ast.Mod):
                return f"kopt_export::mod({a}, {b})" if lang == "cpp" else f"_kopt_tmod({a}, {b})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            args = [go(a) for a in node.args]
            name = node.func.id
            if name in ("min", "max") and len(args) == 2:
                return f"std::{name}<int64_t>({args[0]}, {args[1]})" if lang == "cpp" else f"{name}({args[0]}, {args[1]})"
            if name == "ceil_div" and len(args) == 2:
                return f"kopt_export::ceil_div({args[0]}, {args[1]})" if lang == "cpp" else \
                    f"_kopt_ceil_div({args[0]}, {args[1]})"
            if name == "abs" and len(args) == 1:
                return f"kopt_export::abs({args[0]})" if lang == "cpp" else f"abs({args[0]})"
        raise ProblemError(f"{where}: unsupported construct '{ast.unparse(node)}' in a shape expression")

    return go(_expr_tree(e, size_params, where))


def _blank_comments_and_strings(source: str) -> str:
    """The source with comments and string/char literal contents replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in source[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and source[j] != c and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * max(0, j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def detect_mode(source: str, entry: str) -> str | None:
    """"kernel" when `source` defines a __global__ function `entry`, "launcher" when it defines a host
    function `entry`, None when it defines neither (a light scan, like kopt's detect_mode)."""
    code = _blank_comments_and_strings(source)
    kernel = host = False
    for m in re.finditer(r"\b" + re.escape(entry) + r"\s*\(", code):
        start = max(code.rfind(";", 0, m.start()), code.rfind("}", 0, m.start()), code.rfind("{", 0, m.start()))
        prefix = code[start + 1:m.start()]
        prefix = "\n".join(line for line in prefix.splitlines() if not line.lstrip().startswith("#"))
        if not re.search(r"\bvoid\b", prefix):
            continue
        depth, j = 0, m.end() - 1
        while j < len(code):
            depth += {"(": 1, ")": -1}.get(code[j], 0)
            if depth == 0:
                break
            j += 1
        rest = code[j + 1:].lstrip()
        if not rest.startswith("{"):
            continue  # a declaration, not a definition
        if re.search(r"\b__global__\b", prefix):
            kernel = True
        elif not re.search(r"\b__device__\b", prefix):
            host = True
    if kernel:
        return "kernel"
    return "launcher" if host else None


def _identifier(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not s or s[0].isdigit():
        s = "k_" + s
    return s


def _py_string(text: str) -> str:
    """A Python literal for `text`: repr() for one line; a raw triple-quoted string for a source when
    that is exact, else repr()."""
    if "\n" not in text:
        return repr(text)
    if "'''" not in text and not text.endswith(("\\", "'")) and "\r" not in text and "\x00" not in text:
        return "r'''" + text + "'''"
    return repr(text)


# ------------------------------------------------------------------------------------------ generation


def _tolerances(task: Mapping[str, Any], dtypes: set[str], where: str) -> dict[str, dict[str, float]]:
    table = task.get("tolerance", {})
    if not isinstance(table, dict):
        raise ProblemError(f"{where}: [tolerance] is not a table")
    out: dict[str, dict[str, float]] = {}
    for dt in sorted(dtypes):
        atol, rtol = _DEFAULT_TOLERANCE.get(dt, (0.0, 0.0))
        frac = 0.0
        entry = table.get(dt, {})
        if isinstance(entry, dict):
            atol = float(entry.get("atol", atol))
            rtol = float(entry.get("rtol", rtol))
            frac = float(entry.get("mismatch_fraction", frac))
        out[dt] = {"atol": atol, "rtol": rtol, "mismatch_fraction": frac}
    return out


def _wrapper(abi: Mapping[str, Any], params: list[Param], entry: str, name: str) -> tuple[str, str]:
    """The C++ wrapper around the launcher: (head, body); the kernel's source goes between them."""
    size_params = list(abi["size_params"])
    gathered = gathered_tensors(abi)
    outputs = [t for t in abi["tensors"] if t["kind"] == "output"]
    by_name = {p.name: p for p in params}
    head = "\n".join([
        f"// ---- kopt export: the wrapper's headers (the kernel of task {name} follows) ----",
        "#include <cuda_runtime.h>",
        "#include <cuda_bf16.h>",
        "#include <c10/cuda/CUDAException.h>",
        "#include <c10/cuda/CUDAFunctions.h>",
        "#include <c10/cuda/CUDAGuard.h>",
        "#include <c10/cuda/CUDAStream.h>",
        "#include <torch/types.h>",
        "#include <algorithm>",
        "#include <cstdint>",
        "#include <limits>",
        "#include <vector>",
        "// ---- the kernel kopt found ----",
        "",
    ])
    decl = ", ".join(f"{p.ctype} {p.name}" for p in params)
    lines = [
        "",
        "// ---- kopt export: the wrapper PyTorch calls ----",
        f'extern "C" void {entry}({decl});',
        "",
        "namespace kopt_export {",
        "inline int64_t div(int64_t a, int64_t b) {",
        '  TORCH_CHECK(b != 0, "kopt_forward: division by zero in a shape expression");',
        "  return a / b;",
        "}",
        "inline int64_t mod(int64_t a, int64_t b) { return a - b * div(a, b); }",
        "inline int64_t ceil_div(int64_t a, int64_t b) {",
        "  int64_t const q = div(a, b);",
        "  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;",
        "}",
        "inline int64_t abs(int64_t a) { return a < 0 ? -a : a; }",
        "",
        "inline void check_tensor(torch::Tensor const& t, char const* name, torch::ScalarType dtype, int64_t numel,",
        "                         char const* shape, torch::Device device) {",
        '  TORCH_CHECK(t.is_cuda(), "kopt_forward: tensor ", name, " must be on a CUDA device (it is on ", t.device(), ")");',
        '  TORCH_CHECK(t.device() == device, "kopt_forward: tensor ", name, " is on ", t.device(), "; the first tensor on ",',
        "              device);",
        '  TORCH_CHECK(t.scalar_type() == dtype, "kopt_forward: tensor ", name, " must be ", dtype, " (it is ",',
        '              t.scalar_type(), ")");',
        '  TORCH_CHECK(t.is_contiguous(), "kopt_forward: tensor ", name, " must be contiguous");',
        '  TORCH_CHECK(t.numel() == numel, "kopt_forward: tensor ", name, " has ", t.numel(), " elements; expected ",',
        '              numel, " (shape ", shape, " at these sizes)");',
        "}",
        "",
        "inline void check_size(int64_t value, char const* name, int bits) {",
        "  int64_t const top = bits >= 63 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << bits) - 1;",
        '  TORCH_CHECK(value >= 0 && value <= top, "kopt_forward: size ", name, " = ", value,',
        "              \" does not fit the launcher's integer type\");",
        "}",
        "",
        "// Two events per device and thread, made once: the launcher's per-thread default stream waits for",
        "// PyTorch's current stream before the call, and PyTorch's stream waits for it after the call.",
        "struct StreamEvents {",
        "  cudaEvent_t before = nullptr;",
        "  cudaEvent_t after = nullptr;",
        "};",
        "inline StreamEvents& events(int device) {",
        "  thread_local std::vector<StreamEvents> cache;",
        "  if (cache.size() <= static_cast<std::size_t>(device)) cache.resize(static_cast<std::size_t>(device) + 1);",
        "  StreamEvents& e = cache[static_cast<std::size_t>(device)];",
        "  if (e.before == nullptr) {",
        "    C10_CUDA_CHECK(cudaEventCreateWithFlags(&e.before, cudaEventDisableTiming));",
        "    C10_CUDA_CHECK(cudaEventCreateWithFlags(&e.after, cudaEventDisableTiming));",
        "  }",
        "  return e;",
        "}",
        "}  // namespace kopt_export",
        "",
        "std::vector<torch::Tensor> kopt_forward(std::vector<torch::Tensor> tensors, std::vector<int64_t> sizes) {",
        f"  TORCH_CHECK(tensors.size() == {len(gathered)}, \"kopt_forward ({name}): expected {len(gathered)} tensors "
        f"({', '.join(t['name'] for t in gathered) or 'none'}), got \", tensors.size());",
        f"  TORCH_CHECK(sizes.size() == {len(size_params)}, \"kopt_forward ({name}): expected {len(size_params)} sizes "
        f"({', '.join(size_params) or 'none'}), got \", sizes.size());",
    ]
    for i, p in enumerate(size_params):
        bits = _INT_TYPES[by_name[p].ctype.replace("const ", "").strip()]
        lines.append(f"  int64_t const s_{p} = sizes[{i}];")
        lines.append(f'  kopt_export::check_size(s_{p}, "{p}", {bits});')
    lines += [
        "  torch::Device const device = tensors.empty() ? torch::Device(torch::kCUDA, c10::cuda::current_device())",
        "                                               : tensors[0].device();",
        '  TORCH_CHECK(device.is_cuda(), "kopt_forward: tensors must be on a CUDA device (the first is on ", device, ")");',
        "  c10::cuda::CUDAGuard const guard(device);",
    ]
    for i, t in enumerate(gathered):
        where = f"torch_abi.json: tensor {t['name']}"
        numel = " * ".join(render_expr(d, size_params, "cpp", where) for d in t["shape"]) or "int64_t{1}"
        shape_txt = "[" + ", ".join(str(d) for d in t["shape"]) + "]"
        lines.append(f"  torch::Tensor const& t_{t['name']} = tensors[{i}];")
        lines.append(f"  kopt_export::check_tensor(t_{t['name']}, \"{t['name']}\", {_ATEN_DTYPE[t['dtype']]}, {numel}, "
                     f"\"{shape_txt}\", device);")
    lines.append("  auto const options = torch::TensorOptions().device(device);")
    for t in outputs:
        where = f"torch_abi.json: tensor {t['name']}"
        dims = ", ".join(render_expr(d, size_params, "cpp", where) for d in t["shape"])
        lines.append(f"  torch::Tensor t_{t['name']} = torch::empty(std::vector<int64_t>{{{dims}}}, options.dtype({_ATEN_DTYPE[t['dtype']]}));")
    args = []
    for p in params:
        if p.is_pointer:
            args.append(f"reinterpret_cast<{p.ctype}>(t_{p.name}.data_ptr())")
        else:
            args.append(f"static_cast<{p.ctype.replace('const ', '').strip()}>(s_{p.name})")
    lines += [
        "  cudaStream_t const stream = c10::cuda::getCurrentCUDAStream(device.index()).stream();",
        "  bool const join = stream != cudaStreamPerThread;",
        "  kopt_export::StreamEvents& ev = kopt_export::events(device.index());",
        "  if (join) {",
        "    C10_CUDA_CHECK(cudaEventRecord(ev.before, stream));",
        "    C10_CUDA_CHECK(cudaStreamWaitEvent(cudaStreamPerThread, ev.before, 0));",
        "  }",
        f"  {entry}(" + (",\n      ".join(args)) + ");",
        "  cudaError_t const launched = cudaGetLastError();",
        f'  TORCH_CHECK(launched == cudaSuccess, "kopt_forward ({name}): the kernel\'s launcher left a CUDA error: ",',
        "              cudaGetErrorString(launched));",
        "  if (join) {",
        "    C10_CUDA_CHECK(cudaEventRecord(ev.after, cudaStreamPerThread));",
        "    C10_CUDA_CHECK(cudaStreamWaitEvent(stream, ev.after, 0));",
        "  }",
        "  return {" + ", ".join(f"t_{t['name']}" for t in outputs) + "};",
        "}",
        "",
    ]
    return head, "\n".join(lines)


@dataclass
class Export:
    """What `build_export` made: the file's text and the parts of its extension."""

    text: str
    name: str  # op name: torch.ops.kopt.<name>
    extension: str  # load_inline's name
    kernel_source: str
    wrapper_head: str
    wrapper_body: str
    cuda_cflags: list[str] = field(default_factory=lambda: list(CUDA_CFLAGS))

    def cuda_sources(self) -> list[str]:
        """The cuda_sources given to load_inline, in order."""
        return [self.wrapper_head, self.kernel_source, self.wrapper_body]

    def cuda_translation_unit(self) -> str:
        """The .cu file load_inline writes (its three implicit includes, then the cuda_sources)."""
        return "\n".join(LOAD_INLINE_CUDA_PRELUDE + self.cuda_sources())


def _helpers_source() -> str:
    parts = []
    for fn in _EMBEDDED_HELPERS:
        parts.append(inspect.getsource(fn).rstrip() + "\n")
    return "\n\n".join(parts)


def build_export(task_dir: str | Path, kernel_path: str | Path, name: str | None = None,
                 run_info: str | None = None, date: str | None = None,
                 knobs: Mapping[str, object] | None = None) -> Export:
    """Read the task folder and the kernel, and make the model_new.py text (nothing is written)."""
    task_dir = Path(task_dir)
    kernel_path = Path(kernel_path)
    if not task_dir.is_dir():
        raise ProblemError(f"{task_dir}: no such task folder")
    abi = load_abi(task_dir)
    task = load_task_toml(task_dir)
    toml_path = task_dir / "task.toml"
    ref = task.get("reference")
    if not isinstance(ref, dict) or "torch" not in ref:
        raise ProblemError(f"{toml_path}: [reference] has no 'torch' key; expected a task made by kopt "
                           "import-torch (a PyTorch problem)")
    precision = abi["precision"]
    if ref.get("precision", precision) != precision:
        raise ProblemError(f"{toml_path}: [reference] precision {ref.get('precision')!r} differs from "
                           f"torch_abi.json's {precision!r}")
    entry = abi.get("entry", "forward")
    if not isinstance(entry, str) or not re.fullmatch(r"[A-Za-z_]\w*", entry):
        raise ProblemError(f"{task_dir / 'torch_abi.json'}: field 'entry' {entry!r}; expected a C identifier")
    signature = task.get("entry", {}).get("signature") if isinstance(task.get("entry"), dict) else None
    if not isinstance(signature, str):
        raise ProblemError(f"{toml_path}: [entry] signature is missing; expected the launcher's signature")
    params = parse_signature(signature, entry, f"{toml_path}: [entry] signature")
    check_abi_against_signature(abi, params, f"{toml_path}: [entry] signature")

    problem_path = task_dir / abi["problem"]
    problem_source = read_text(problem_path, "the problem", "the problem's Python source")
    kernel = read_text(kernel_path, "the kernel", "a CUDA source")
    kernel, flags_left_out = with_defines(kernel, knobs or {})
    if flags_left_out:
        left = "compiler-flag knobs left out: " + ", ".join(flags_left_out)
        run_info = f"{run_info}; {left}" if run_info else left
    mode = detect_mode(kernel, entry)
    if mode is None and re.search(r"//\s*kopt:launch\b", kernel):
        mode = "kernel"  # a kernel-mode candidate whose __global__ has another name (kernel=...)
    if mode == "kernel":  # a bare __global__: the task's launcher is generated from its // kopt:launch line
        kernel = launcher_for_kernel(kernel, entry, [(p.ctype, p.name) for p in params], str(kernel_path))
        mode = "launcher"
    if mode is None:
        raise ProblemError(f"{kernel_path}: defines no host function {entry}(...); expected the task's launcher "
                           f"{signature}")

    task_name = task.get("name") if isinstance(task.get("name"), str) else task_dir.name
    op_name = _identifier(name if name else task_name)
    plan = size_plan(abi)
    gathered = gathered_tensors(abi)
    outputs = sorted((t for t in abi["tensors"] if t["kind"] == "output"), key=lambda t: t["index"])
    abi_outputs = [t for t in abi["tensors"] if t["kind"] == "output"]
    if [t["index"] for t in outputs] != list(range(len(outputs))):
        raise ProblemError(f"{task_dir / 'torch_abi.json'}: output indices "
                           f"{[t['index'] for t in abi_outputs]}; expected 0..{len(outputs) - 1}")
    head, body = _wrapper(abi, params, entry, op_name)
    digest = hashlib.sha256("\0".join([kernel, head, body, " ".join(CUDA_CFLAGS), op_name,
                                       _kopt_torch.__version__]).encode("utf-8")).hexdigest()[:10]
    extension = f"kopt_{op_name}_{digest}"

    inputs = [(t["index"], t["name"]) for t in gathered if t["kind"] == "input"]
    fixed = {int(f["index"]): f["value"] for f in abi["fixed_inputs"]}
    n_inputs = max([i for i, _ in inputs] + list(fixed) + [-1]) + 1
    state = [(t["kind"], t["key"], t["name"]) for t in gathered if t["kind"] != "input"]
    size_params = list(abi["size_params"])
    out_shapes = []
    for t in abi_outputs:
        dims = [render_expr(d, size_params, "py", f"torch_abi.json: tensor {t['name']}") for d in t["shape"]]
        out_shapes.append("(" + "".join(d + ", " for d in dims) + ")")
    out_dtypes = [_TORCH_DTYPE[t["dtype"]] for t in abi_outputs]
    # outputs in ABI order; ModelNew returns them in tuple-index order
    return_order = [abi_outputs.index(t) for t in outputs]
    single = len(outputs) == 1 and outputs[0]["name"] == "out"
    tolerance = _tolerances(task, {t["dtype"] for t in abi_outputs}, str(toml_path))
    date = date or datetime.date.today().isoformat()
    kernel_tensors = [f"{t['name']} ({_TORCH_DTYPE[t['dtype']]}, [{', '.join(map(str, t['shape']))}])"
                      for t in gathered] or ["none"]

    out_names = ", ".join(t["name"] for t in abi_outputs)
    header = [
        f"# {op_name}: a CUDA kernel found by kopt, as a PyTorch module (written by kopt export --torch).",
        "#",
        "# What is in this file, in order: the PyTorch problem, verbatim (Model, get_inputs, get_init_inputs);",
        "# the kernel, compiled at first use by torch.utils.cpp_extension.load_inline (nvcc, built once and",
        "# cached by PyTorch under the extension's name); ModelNew, Model's drop-in replacement whose forward",
        "# runs the kernel; the custom op torch.ops.kopt." + op_name + "; a --check.",
        "#",
        f"# Task:      {task_name} ({task_dir.resolve()}), precision {precision}",
        f"# Candidate: {run_info if run_info else 'not given'}",
        f"# Exported:  {date}, PyTorch {_kopt_torch.__version__.split('+')[0]}, extension {extension}",
        "#",
        "# Use:",
        "#   model = ModelNew(*get_init_inputs()).cuda()   # Model's constructor: the same parameters, in order",
        "#   y = model(*get_inputs_on_the_gpu)             # inference only (no backward through the kernel)",
    ]
    if precision == "bf16":
        header.append("#   model.to(torch.bfloat16)   # once: a BF16 task; otherwise every call casts the "
                      "floating parameters")
    header += [
        "# The custom op (registered at import by register(); composes with torch.compile):",
        f"#   outs = torch.ops.kopt.{op_name}(tensors, sizes)",
        "#   tensors: " + ",\n#            ".join(kernel_tensors) + "; each contiguous, on the GPU",
        f"#   sizes:   [{', '.join(size_params)}] (ints)",
        f"#   outs:    [{out_names}] (a list of tensors)",
        "# Check it on a GPU (Model against ModelNew on get_inputs(), with the task's tolerance, and timing):",
        "#   python model_new.py --check",
        "",
    ]
    helpers = _helpers_source()
    gen = f'''

# ---------------------------------------------------------------------------------------------------
# Everything below was written by kopt export --torch (docs/pytorch.md, "Back to PyTorch").
# ---------------------------------------------------------------------------------------------------
import copy as _kopt_copy
import statistics as _kopt_statistics
import sys as _kopt_sys
import types as _kopt_types

import torch as _kopt_torch

_KOPT_NAME = {_py_string(op_name)}
_KOPT_EXTENSION = {_py_string(extension)}
_KOPT_PRECISION = {_py_string(precision)}
_KOPT_N_INPUTS = {n_inputs}
_KOPT_INPUTS = {inputs!r}  # (index in get_inputs(), ABI name) of each input tensor
_KOPT_FIXED = {fixed!r}  # index -> the value the kernel hard-codes (non-tensor inputs)
_KOPT_STATE = {state!r}  # (kind, state_dict key, ABI name) of each parameter and buffer
_KOPT_NAMES = {[t["name"] for t in gathered]!r}
_KOPT_DTYPES = [{", ".join(f"_kopt_torch.{_TORCH_DTYPE[t['dtype']]}" for t in gathered)}]
_KOPT_FLOATING = {[t["dtype"] in _FLOAT_DTYPES for t in gathered]!r}
_KOPT_SIZE_NAMES = {size_params!r}
_KOPT_SIZE_PLAN = {plan!r}
_KOPT_OUTPUT_DTYPES = [{", ".join(f"_kopt_torch.{d}" for d in out_dtypes)}]
_KOPT_RETURN_ORDER = {return_order!r}  # Model's return order, as positions in the kernel's outputs
_KOPT_SINGLE_OUTPUT = {single!r}
_KOPT_TOLERANCE = {[tolerance[t["dtype"]] for t in abi_outputs]!r}
_KOPT_CUDA_CFLAGS = {CUDA_CFLAGS!r}
_KOPT_CXX_CFLAGS = {CXX_CFLAGS!r}
_KOPT_CPP_DECLARATION = {_py_string(CPP_DECLARATION)}

_KOPT_KERNEL_SOURCE = {_py_string(kernel)}

_KOPT_WRAPPER_HEAD = {_py_string(head)}

_KOPT_WRAPPER_BODY = {_py_string(body)}


{helpers}

def _kopt_output_shapes(s):
    """The outputs' shapes at the size parameters s (a list in _KOPT_SIZE_NAMES order)."""
    return [{", ".join(out_shapes)}]


_kopt_extension = None


def _kopt_load(verbose=False):
    """The compiled extension (built by load_inline at the first call; PyTorch caches the build)."""
    global _kopt_extension
    if _kopt_extension is None:
        from torch.utils.cpp_extension import load_inline

        _kopt_extension = load_inline(
            name=_KOPT_EXTENSION,
            cpp_sources=[_KOPT_CPP_DECLARATION],
            cuda_sources=[_KOPT_WRAPPER_HEAD, _KOPT_KERNEL_SOURCE, _KOPT_WRAPPER_BODY],
            functions=["kopt_forward"],
            extra_cflags=list(_KOPT_CXX_CFLAGS),
            extra_cuda_cflags=list(_KOPT_CUDA_CFLAGS),
            verbose=verbose,
        )
    return _kopt_extension


def register():
    """Register torch.ops.kopt.<_KOPT_NAME>(Tensor[] tensors, SymInt[] sizes) -> Tensor[] (idempotent).

    A second export under the same name (another kernel) in the same process is refused: export it with
    another --name.
    """
    registry = _kopt_sys.modules.get("_kopt_registered_ops")
    if registry is None:
        registry = _kopt_types.ModuleType("_kopt_registered_ops")
        registry.ops = {{}}
        _kopt_sys.modules["_kopt_registered_ops"] = registry
    known = registry.ops.get(_KOPT_NAME)
    if known is not None:
        if known != _KOPT_EXTENSION:
            raise RuntimeError(f"torch.ops.kopt.{{_KOPT_NAME}} is already registered by another export "
                               f"({{known}}); export this kernel with another --name")
        return

    def impl(tensors, sizes):
        return _kopt_load().kopt_forward(list(tensors), [int(v) for v in sizes])

    op = _kopt_torch.library.custom_op("kopt::" + _KOPT_NAME, impl, mutates_args=(),
                                       schema="(Tensor[] tensors, SymInt[] sizes) -> Tensor[]")

    def fake(tensors, sizes):
        device = tensors[0].device if len(tensors) else _kopt_torch.device("cuda")
        return [_kopt_torch.empty(shape, dtype=dtype, device=device)
                for shape, dtype in zip(_kopt_output_shapes(list(sizes)), _KOPT_OUTPUT_DTYPES)]

    op.register_fake(fake)
    registry.ops[_KOPT_NAME] = _KOPT_EXTENSION


register()


def _kopt_state_tensor(module, kind, key):
    """The parameter or buffer `key` of `module` (its state_dict key), detached."""
    prefix, _, attr = key.rpartition(".")
    try:
        value = getattr(module.get_submodule(prefix), attr)
    except AttributeError:
        value = None
    if not isinstance(value, _kopt_torch.Tensor):
        table = dict(module.state_dict(keep_vars=True))
        table.update(dict(module.named_buffers()))
        value = table.get(key)
        if not isinstance(value, _kopt_torch.Tensor):
            raise KeyError(f"ModelNew: the module has no {{kind}} {{key!r}} (the kernel takes it)")
    return value.detach()


def _kopt_prepare(module, inputs):
    """The kernel's tensors (contiguous, floating ones at the task's precision) and its sizes."""
    if len(inputs) != _KOPT_N_INPUTS:
        raise TypeError(f"ModelNew.forward: expected {{_KOPT_N_INPUTS}} inputs (what get_inputs() returns), "
                        f"got {{len(inputs)}}")
    for index, value in _KOPT_FIXED.items():
        if isinstance(inputs[index], _kopt_torch.Tensor) or inputs[index] != value:
            raise ValueError(f"ModelNew.forward: input {{index}} is {{inputs[index]!r}}; the kernel was built for "
                             f"{{value!r}} (the problem's value)")
    tensors = []
    for index, name in _KOPT_INPUTS:
        t = inputs[index]
        if not isinstance(t, _kopt_torch.Tensor):
            raise TypeError(f"ModelNew.forward: input {{index}} ({{name}}) is a {{type(t).__name__}}; expected a tensor")
        tensors.append(t.detach())
    for kind, key, _name in _KOPT_STATE:
        tensors.append(_kopt_state_tensor(module, kind, key))
    sizes = _kopt_solve_sizes(_KOPT_SIZE_PLAN, tensors, _KOPT_NAMES)
    ready = []
    for t, dtype, floating in zip(tensors, _KOPT_DTYPES, _KOPT_FLOATING):
        if floating and t.dtype != dtype and t.is_floating_point():
            t = t.to(dtype)
        elif dtype == _kopt_torch.uint8 and t.dtype == _kopt_torch.bool:
            t = t.contiguous().view(_kopt_torch.uint8)
        ready.append(t.contiguous())
    return ready, sizes


class ModelNew(Model):
    """Model with its forward computed by the kernel kopt found (inference only).

    The constructor is Model's: the same parameters and buffers, created in the same order, so a seeded
    construction gives the same weights. forward(*inputs) takes what get_inputs() returns.
    """

    def forward(self, *inputs):
        tensors, sizes = _kopt_prepare(self, inputs)
        if _kopt_torch.compiler.is_compiling():
            outs = getattr(_kopt_torch.ops.kopt, _KOPT_NAME)(tensors, sizes)
        else:
            outs = _kopt_load().kopt_forward(tensors, sizes)
        if _KOPT_SINGLE_OUTPUT:
            return outs[0]
        return tuple(outs[i] for i in _KOPT_RETURN_ORDER)


def _kopt_time_ms(fn, args, warmup=5, samples=20):
    """Median milliseconds of one call (CUDA events around each call), after `warmup` calls."""
    with _kopt_torch.no_grad():
        for _ in range(warmup):
            fn(*args)
        _kopt_torch.cuda.synchronize()
        times = []
        for _ in range(samples):
            start = _kopt_torch.cuda.Event(enable_timing=True)
            end = _kopt_torch.cuda.Event(enable_timing=True)
            start.record()
            fn(*args)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
    return _kopt_statistics.median(times)


def _kopt_check(verbose=False):
    """Model against ModelNew on get_inputs() at the task's precision: errors, tolerance, timing. 0 or 1."""
    T = _kopt_torch
    if not T.cuda.is_available():
        print(f"{{_KOPT_NAME}}: --check needs a CUDA GPU (torch.cuda.is_available() is False)")
        return 1
    T.backends.cuda.matmul.allow_tf32 = False
    T.backends.cudnn.allow_tf32 = False
    device = T.device("cuda")
    low = T.bfloat16 if _KOPT_PRECISION == "bf16" else None
    init = get_init_inputs()
    # Both in the mode a module is built in (training), as KernelBench's harness and kopt's reference process
    # run the problem: a BatchNorm normalises by the batch's statistics there, by its running ones in eval.
    T.manual_seed(0)
    reference = Model(*init).to(device)
    T.manual_seed(0)
    model = ModelNew(*init).to(device)
    T.manual_seed(1)
    inputs = list(get_inputs())
    ref_inputs, new_inputs = [], []
    for x in inputs:
        if isinstance(x, T.Tensor):
            x = x.to(device)
            if low is not None and x.is_floating_point():
                ref_inputs.append(x.to(low).to(x.dtype))  # BF16 values, computed in FP32
                new_inputs.append(x.to(low))
                continue
        ref_inputs.append(x)
        new_inputs.append(x)
    if low is not None:
        model = model.to(low)
        with T.no_grad():
            for t in list(reference.parameters()) + list(reference.buffers()):
                if t.is_floating_point():
                    t.copy_(t.to(low).to(t.dtype))
    print(f"{{_KOPT_NAME}}: building the extension {{_KOPT_EXTENSION}} (nvcc; cached after the first build)")
    _kopt_load(verbose=verbose)
    with T.no_grad():
        ref_out = reference(*ref_inputs)
        new_out = model(*new_inputs)
    T.cuda.synchronize()
    refs = list(ref_out) if isinstance(ref_out, (tuple, list)) else [ref_out]
    news = list(new_out) if isinstance(new_out, (tuple, list)) else [new_out]
    ok = len(refs) == len(news)
    if not ok:
        print(f"{{_KOPT_NAME}}: Model returned {{len(refs)}} outputs, ModelNew {{len(news)}}")
    tolerance = [_KOPT_TOLERANCE[i] for i in _KOPT_RETURN_ORDER]
    for k, (r, g, tol) in enumerate(zip(refs, news, tolerance)):
        if low is not None and r.is_floating_point():
            r = r.to(low)  # the task's reference: FP32 arithmetic, rounded to BF16 once at the end
        passed, report = _kopt_compare(g, r, tol["atol"], tol["rtol"], tol["mismatch_fraction"])
        ok = ok and passed
        print(f"output {{k}}: {{'ok' if passed else 'WRONG'}}: {{report}}")
    eager = reference
    eager_inputs = ref_inputs
    if low is not None:
        eager = _kopt_copy.deepcopy(reference).to(low)
        eager_inputs = new_inputs
    t_ref = _kopt_time_ms(eager, eager_inputs)
    t_new = _kopt_time_ms(model, new_inputs)
    print(f"time, median of 20 calls after 5 warm-up calls (CUDA events), TF32 off: Model (eager, "
          f"{{_KOPT_PRECISION}}) {{t_ref:.4f}} ms, ModelNew {{t_new:.4f}} ms ({{t_ref / t_new:.2f}}x)")
    print(f"{{_KOPT_NAME}}: {{'ok' if ok else 'FAILED'}}")
    return 0 if ok else 1


if __name__ == "__main__":
    _kopt_args = _kopt_sys.argv[1:]
    if _kopt_args and _kopt_args[0] == "--check" and set(_kopt_args[1:]) <= {{"--verbose"}}:
        _kopt_sys.exit(_kopt_check(verbose="--verbose" in _kopt_args))
    print(f"usage: python {{_kopt_sys.argv[0]}} --check [--verbose]   (compare ModelNew with Model on a GPU)",
          file=_kopt_sys.stderr)
    _kopt_sys.exit(2)
'''
    problem_part = problem_source if problem_source.endswith("\n") else problem_source + "\n"
    text = "\n".join(header) + "\n" + problem_part + gen
    try:
        ast.parse(text)
    except SyntaxError as e:  # the problem parsed on import; this would be a bug in the template
        raise ProblemError(f"the generated file does not parse (line {e.lineno}: {e.msg}); please report it") from None
    return Export(text=text, name=op_name, extension=extension, kernel_source=kernel, wrapper_head=head,
                  wrapper_body=body)


def export(task_dir: str | Path, kernel_path: str | Path, out: str | Path, name: str | None = None,
           run_info: str | None = None, knobs: Mapping[str, object] | None = None) -> Export:
    """Write model_new.py for the task folder and the kernel; returns what was written."""
    out = Path(out)
    if out.is_dir():
        raise ProblemError(f"-o {out}: is a folder; expected a file name such as model_new.py")
    if not out.parent.is_dir():
        raise ProblemError(f"-o {out}: folder {out.parent} does not exist")
    result = build_export(task_dir, kernel_path, name=name, run_info=run_info, knobs=knobs)
    try:
        out.write_text(result.text, encoding="utf-8")
    except OSError as e:
        raise ProblemError(f"-o {out}: cannot write ({e.strerror or e})") from None
    return result


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kopt_torch export",
        description="Write one self-contained Python file with the problem's Model, a ModelNew whose forward "
                    "runs KERNEL.cu (the task's launcher, compiled by load_inline at first use) and a "
                    "torch.library custom op torch.ops.kopt.NAME. Check it on a GPU with "
                    "'python OUT --check'.")
    p.add_argument("task_dir", metavar="TASK_DIR", help="the task folder (made by kopt import-torch)")
    p.add_argument("kernel", metavar="KERNEL.cu", help="the candidate: a launcher (extern \"C\" void forward(...)) or "
                   "a kernel-mode __global__ with its // kopt:launch line (a launcher is generated)")
    p.add_argument("--define", action="append", default=[], metavar="NAME=VALUE",
                   help="a knob value of the exported configuration (repeatable): macro knobs become #define "
                   "lines, compiler-flag knobs are left out and named in the header")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the file to write, e.g. model_new.py")
    p.add_argument("--name", help="the op's and the extension's name (default: the task's name)")
    p.add_argument("--run-info", metavar="TEXT", help="where the kernel came from, for the header "
                   "(e.g. 'run 3, candidate 17')")
    return p


def main(argv: list[str]) -> int:
    """``python -m kopt_torch export ...``; returns the exit status (a ProblemError is raised to the caller)."""
    args = _parser().parse_args(argv)
    if args.name is not None and not re.fullmatch(r"[A-Za-z_]\w*", args.name):
        raise ProblemError(f"--name {args.name!r}: expected a Python identifier (letters, digits, _)")
    knobs: dict[str, object] = {}
    for item in args.define:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ProblemError(f"--define {item!r}: expected NAME=VALUE")
        knobs[key] = value
    result = export(args.task_dir, args.kernel, args.output, name=args.name, run_info=args.run_info,
                    knobs=knobs)
    print(f"wrote {args.output}: class ModelNew and the custom op torch.ops.kopt.{result.name} "
          f"(extension {result.extension}, built at first use)")
    print(f"check it on a GPU: python {args.output} --check")
    return 0


if __name__ == "__main__":  # pragma: no cover - use python -m kopt_torch export
    try:
        sys.exit(main(sys.argv[1:]))
    except ProblemError as e:
        print(f"kopt_torch: {e}", file=sys.stderr)
        sys.exit(2)
