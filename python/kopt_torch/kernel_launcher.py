"""A host launcher for a kernel-mode candidate, so that export can hand it to PyTorch.

kopt runs a kernel-mode candidate (a bare ``__global__`` function) with the geometry and arguments of its
``// kopt:launch grid=(...) block=(...) shared=(...) kernel=NAME args=(...)`` line, evaluated on each size
case, and with its knob values (``// kopt:knob NAME``) as macros. A PyTorch extension needs the task's
``extern "C"`` launcher instead; this module writes one: the knob values as ``#define`` lines, the kernel
renamed when it has the launcher's name, and a ``forward(...)`` with the task's signature that evaluates
the same expressions in C++ (kopt's grammar is C's, with ``ceil_div``, ``min``, ``max`` and ``abs`` as
functions) and launches the kernel on the default stream. Compiler-flag knobs (``// kopt:flag``) are left
out and named in the header: the export builds with its own flags.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from .errors import ProblemError

_LAUNCH = re.compile(r"^[ \t]*//[ \t]*kopt:launch\b(.*)$", re.MULTILINE)
_CASTS = {"i32": "int", "i64": "long long", "u32": "unsigned int", "u64": "unsigned long long",
          "f32": "float", "f64": "double"}
_FUNCTIONS = {"ceil_div": "kopt_ceil_div", "min": "kopt_min", "max": "kopt_max", "abs": "kopt_abs"}
_HELPERS = """\
static inline long long kopt_ceil_div(long long a, long long b) { return (a + b - 1) / b; }
static inline long long kopt_min(long long a, long long b) { return a < b ? a : b; }
static inline long long kopt_max(long long a, long long b) { return a > b ? a : b; }
static inline long long kopt_abs(long long a) { return a < 0 ? -a : a; }
"""


def _balanced(text: str, start: int, where: str) -> tuple[str, int]:
    """The text inside the parentheses that open at `start`, and the index after the closing one."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1:i], i + 1
    raise ProblemError(f"{where}: unbalanced parentheses in the // kopt:launch line")


def launch_fields(source: str, where: str) -> dict[str, str]:
    """The fields of the source's last ``// kopt:launch`` line (as kopt reads it: the last one wins)."""
    lines = _LAUNCH.findall(source)
    if not lines:
        raise ProblemError(f"{where}: a kernel-mode candidate without a // kopt:launch line; expected its "
                           "grid, block and args")
    text, fields, i = lines[-1], {}, 0
    while i < len(text):
        m = re.compile(r"\s*(\w+)=").match(text, i)
        if not m:
            if text[i:].strip():
                raise ProblemError(f"{where}: cannot read {text[i:].strip()!r} in the // kopt:launch line")
            break
        key, i = m.group(1), m.end()
        if i < len(text) and text[i] == "(":
            fields[key], i = _balanced(text, i, where)
        else:
            value = re.compile(r"\S*").match(text, i)
            fields[key], i = value.group(0), value.end()
    return fields


def split_top_level(text: str) -> list[str]:
    """`text` split at the commas outside parentheses, each part stripped (empty text: no parts)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text.strip():
        parts.append(text[start:].strip())
    return parts


def c_expression(expr: str) -> str:
    """A kopt expression as C++ over long long: its functions renamed to the helpers, typed casts spelled out."""
    out = expr
    for name, helper in _FUNCTIONS.items():
        out = re.sub(r"\b" + name + r"\s*\(", helper + "(", out)
    for name, ctype in _CASTS.items():
        out = re.sub(r"\b" + name + r"\s*\(", f"({ctype})(", out)
    return out


def _knob_lines(source: str, knobs: Mapping[str, object]) -> tuple[list[str], list[str]]:
    """#define lines for the macro knobs, and the names of the flag knobs left out."""
    defines, flags = [], []
    for name, value in knobs.items():
        if re.search(r"//\s*kopt:flag\s+" + re.escape(name) + r"\b", source) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            flags.append(f"{name}={value}")
        elif re.search(r"//\s*kopt:knob\s+" + re.escape(name) + r"\b", source):
            defines.append(f"#define {name} {value}")
        else:
            flags.append(f"{name}={value}")  # a knob of the generic tuning space (flags, launch bounds)
    return defines, flags


def with_defines(source: str, knobs: Mapping[str, object]) -> tuple[str, list[str]]:
    """The source with its macro knobs defined before it (what kopt's -D flags did), and the flag knobs
    that were left out."""
    defines, flags = _knob_lines(source, knobs)
    if not defines:
        return source, flags
    return "// knob values of the exported configuration (kopt passed them as -D flags)\n" + \
        "\n".join(defines) + "\n" + source, flags


def launcher_for_kernel(source: str, entry: str, params: Sequence[tuple[str, str]], where: str) -> str:
    """`source` (a kernel-mode candidate, knobs already defined) followed by a host launcher `entry` with
    the task's parameters `params` ((C type, name) pairs) that launches it with its // kopt:launch
    geometry and arguments."""
    fields = launch_fields(source, where)
    kernel = fields.get("kernel", entry)
    if not re.fullmatch(r"[A-Za-z_]\w*", kernel):
        raise ProblemError(f"{where}: kernel={kernel!r} in the // kopt:launch line; expected a C identifier")
    if "grid" not in fields or "block" not in fields:
        raise ProblemError(f"{where}: the // kopt:launch line needs grid=(...) and block=(...) for an export")
    body = source
    if kernel == entry:  # the launcher takes the entry's name: the kernel gets another one
        kernel = f"kopt_kernel_{entry}"
        body = re.sub(r"\b" + re.escape(entry) + r"\b", kernel, source)
    grid = [c_expression(e) for e in split_top_level(fields["grid"])]
    block = [c_expression(e) for e in split_top_level(fields["block"])]
    if not 1 <= len(grid) <= 3 or not 1 <= len(block) <= 3:
        raise ProblemError(f"{where}: grid and block take 1 to 3 expressions each")
    shared = c_expression(fields.get("shared", "0") or "0")
    names = [name for _, name in params]
    args = split_top_level(fields["args"]) if "args" in fields else names
    call_args = [c_expression(a) for a in args]
    signature = ", ".join(f"{ctype} {name}" for ctype, name in params)
    dims = lambda values: ", ".join(f"(unsigned int)({v})" for v in values)  # noqa: E731
    return (f"{body}\n\n"
            "// The task's launcher, generated by kopt export from the // kopt:launch line above.\n"
            f"{_HELPERS}"
            f'extern "C" void {entry}({signature}) {{\n'
            f"  dim3 const kopt_grid({dims(grid)});\n"
            f"  dim3 const kopt_block({dims(block)});\n"
            f"  {kernel}<<<kopt_grid, kopt_block, (size_t)({shared})>>>({', '.join(call_args)});\n"
            "}\n")
