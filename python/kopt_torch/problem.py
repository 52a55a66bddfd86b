"""Loading a PyTorch problem in the KernelBench format.

A problem file defines ``class Model(torch.nn.Module)``, ``get_inputs()`` (the forward arguments),
``get_init_inputs()`` (the constructor arguments) and module-level **size constants**: assignments
``NAME = <int literal>`` or ``NAME: int = <int literal>`` (an arithmetic expression of integer literals
only, such as ``16 * 1024``, counts as a literal too). A name assigned more than once at module level is
not a constant.

`load_problem(path, overrides)` executes the source with the overridden constants substituted in the
syntax tree, so constants derived from them at module level (``N = 2 * M``) follow, in a fresh module
that is registered in `sys.modules` (dataclasses and pickling need that).
"""

from __future__ import annotations

import ast
import itertools
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import torch

from .errors import ProblemError, read_text

_counter = itertools.count()


def _literal_int(node: ast.AST) -> int | None:
    """The value of an integer literal expression (literals, + - * // ** and unary minus), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _literal_int(node.operand)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Pow)):
        a, b = _literal_int(node.left), _literal_int(node.right)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.FloorDiv):
            return a // b if b else None
        return a**b if 0 <= b <= 64 else None
    return None


def _assigned_names(stmt: ast.stmt) -> list[str]:
    targets: list[ast.AST] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    out: list[str] = []
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                out.append(n.id)
    return out


def find_constants(tree: ast.Module) -> dict[str, ast.stmt]:
    """Module-level integer constants, in source order: name -> the assignment statement."""
    counts: dict[str, int] = {}
    for stmt in tree.body:
        for name in _assigned_names(stmt):
            counts[name] = counts.get(name, 0) + 1
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            counts[stmt.name] = counts.get(stmt.name, 0) + 1
    found: dict[str, ast.stmt] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
        elif (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None
              and isinstance(stmt.annotation, ast.Name) and stmt.annotation.id == "int"):
            name, value = stmt.target.id, stmt.value
        else:
            continue
        if counts.get(name) == 1 and _literal_int(value) is not None:
            found[name] = stmt
    return found


def parse_source(path: Path) -> tuple[str, ast.Module]:
    """Read and parse a problem file; a missing file or a syntax error is a ProblemError."""
    source = read_text(path, "the problem file", "a Python source file")
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as e:
        raise ProblemError(f"{path}:{e.lineno}: syntax error: {e.msg}") from None
    return source, tree


def problem_constants(path: str | Path) -> dict[str, int]:
    """The size constants of a problem file and their values, in source order (without executing it)."""
    path = Path(path)
    _, tree = parse_source(path)
    return {n: _literal_int(s.value) for n, s in find_constants(tree).items()}  # type: ignore[union-attr,misc]


def one_line(e: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    msg = str(e).strip().splitlines()
    return f"{type(e).__name__}: {msg[0]}" if msg else type(e).__name__


class _HostDevice(torch.overrides.TorchFunctionMode):
    """A problem's own code run where the importer evaluates it (the meta device or the CPU, on a machine that
    may have no GPU): a tensor the code asks for on the GPU (``device="cuda"`` in a factory call, ``.cuda()``,
    ``.to("cuda")``, as KernelBench's attention problems write their inputs) is made on that device instead."""

    def __init__(self, device: str | torch.device) -> None:
        super().__init__()
        self.device = torch.device(device)

    def _host(self, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (str, int, torch.device)):
            return value
        try:
            return self.device if torch.device(value).type == "cuda" else value
        except (RuntimeError, TypeError):
            return value

    def __torch_function__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        kwargs = dict(kwargs or {})
        if "device" in kwargs:
            kwargs["device"] = self._host(kwargs["device"])
        if func is torch.Tensor.cuda:
            return args[0].to(self.device)
        if func is torch.Tensor.to:
            args = tuple(self._host(a) if i else a for i, a in enumerate(args))
        return func(*args, **kwargs)


def host_device(device: str | torch.device) -> _HostDevice:
    """Context manager: the problem code run inside makes on `device` what it asks for on the GPU."""
    return _HostDevice(device)


@dataclass
class Problem:
    """A loaded problem: the executed module and its entry points, at given constants."""

    path: Path
    source: str
    constants: dict[str, int]
    module: types.ModuleType
    Model: type
    get_inputs: Callable[[], Any]
    get_init_inputs: Callable[[], Any]
    notes: list[str] = field(default_factory=list)

    def init_inputs(self) -> list[Any]:
        """Call get_init_inputs(); it must return a list or tuple (of anything the constructor takes)."""
        try:
            value = self.get_init_inputs()
        except Exception as e:
            raise ProblemError(f"{self.path}: get_init_inputs() raised {one_line(e)}") from None
        if not isinstance(value, (list, tuple)):
            raise ProblemError(f"{self.path}: get_init_inputs() returned {type(value).__name__}; expected a list")
        return list(value)

    def inputs(self) -> list[Any]:
        """Call get_inputs(); it must return a list or tuple of tensors and Python numbers."""
        try:
            value = self.get_inputs()
        except Exception as e:
            raise ProblemError(f"{self.path}: get_inputs() raised {one_line(e)}") from None
        if not isinstance(value, (list, tuple)):
            raise ProblemError(f"{self.path}: get_inputs() returned {type(value).__name__}; "
                               "expected a list of tensors and numbers")
        for i, v in enumerate(value):
            if not isinstance(v, (torch.Tensor, int, float, bool)):
                raise ProblemError(f"{self.path}: get_inputs()[{i}] is a {type(v).__name__}; "
                                   "expected a tensor or a Python number")
        return list(value)

    def make_model(self, device: str | torch.device | None = None) -> torch.nn.Module:
        """Build Model(*get_init_inputs()), under `torch.device(device)` when a device is given."""
        init = self.init_inputs()
        try:
            if device is None:
                model = self.Model(*init)
            else:
                with torch.device(device), host_device(device):
                    model = self.Model(*init)
        except Exception as e:
            raise ProblemError(f"{self.path}: Model(*get_init_inputs()) raised {one_line(e)}") from None
        if not isinstance(model, torch.nn.Module):
            raise ProblemError(f"{self.path}: Model is not a torch.nn.Module subclass")
        return model

    def unload(self) -> None:
        """Remove the module from sys.modules (for throw-away loads)."""
        if sys.modules.get(self.module.__name__) is self.module:
            del sys.modules[self.module.__name__]


def load_problem(path: str | Path, overrides: Mapping[str, int] | None = None) -> Problem:
    """Execute a problem file with some size constants overridden and return its entry points.

    `overrides` maps constant names to integers; a name that is not a size constant of the file is a
    ProblemError. The module gets a unique name, `__file__` set to the file.
    """
    path = Path(path)
    source, tree = parse_source(path)
    consts = find_constants(tree)
    overrides = dict(overrides or {})
    for name, value in overrides.items():
        if name not in consts:
            known = ", ".join(consts) or "none"
            raise ProblemError(f"{path}: cannot override '{name}': not a module-level integer constant "
                               f"of the file (constants: {known})")
        if type(value) is not int:
            raise ProblemError(f"{path}: override {name}={value!r}: expected an integer")
        stmt = consts[name]
        new = ast.copy_location(ast.Constant(value), stmt.value)  # type: ignore[attr-defined]
        stmt.value = new  # type: ignore[attr-defined]
    ast.fix_missing_locations(tree)
    values = {n: _literal_int(s.value) for n, s in consts.items()}  # type: ignore[attr-defined]
    code = compile(tree, str(path), "exec")
    mod_name = f"kopt_problem_{path.stem.replace('-', '_').replace('.', '_')}_{next(_counter)}"
    module = types.ModuleType(mod_name)
    module.__file__ = str(path)
    sys.modules[mod_name] = module
    try:
        exec(code, module.__dict__)
    except BaseException as e:  # noqa: BLE001 - a problem's SystemExit is a user error too
        del sys.modules[mod_name]
        if isinstance(e, KeyboardInterrupt):
            raise
        raise ProblemError(f"{path}: executing the module raised {one_line(e)}") from None
    model = module.__dict__.get("Model")
    if not isinstance(model, type):
        del sys.modules[mod_name]
        raise ProblemError(f"{path}: no class Model; expected 'class Model(torch.nn.Module)'")
    if not (isinstance(model, type) and issubclass(model, torch.nn.Module)):
        del sys.modules[mod_name]
        raise ProblemError(f"{path}: Model is not a torch.nn.Module subclass")
    get_inputs = module.__dict__.get("get_inputs")
    if not callable(get_inputs):
        del sys.modules[mod_name]
        raise ProblemError(f"{path}: no function get_inputs(); expected 'def get_inputs()' returning the "
                           "forward arguments")
    notes: list[str] = []
    get_init = module.__dict__.get("get_init_inputs")
    if not callable(get_init):
        notes.append("no get_init_inputs(): Model() is built without arguments")
        get_init = lambda: []  # noqa: E731
    return Problem(path=path, source=source, constants=values, module=module, Model=model,  # type: ignore[arg-type]
                   get_inputs=get_inputs, get_init_inputs=get_init, notes=notes)
