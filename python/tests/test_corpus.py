"""Checks the PyTorch problem corpus under suites/pytorch/ (KernelBench format, docs/pytorch.md).

Every problem file is executed in a fresh namespace, its format is checked from its source (module-level
constants only, no device or dtype in get_inputs, no seeding, no prints), and its Model is built and run
under ``torch.device("meta")``: get_inputs() then creates meta tensors (it passes no device), so nothing is
allocated and the check is fast on a CPU. The bytes of inputs, parameters, buffers and outputs are
computed from the meta shapes and must stay within 1 GiB.

Run: ``cd python && ../.venv/bin/python -m unittest -v tests.test_corpus``
(``KOPT_TORCH_CORPUS=DIR`` checks another folder of level1/, level2/, level3/ and README.md instead).
"""

from __future__ import annotations

import ast
import inspect
import os
import re
import unittest
from pathlib import Path
from typing import Any

import torch
import torch.nn as nn

SUITE = Path(
    os.environ.get("KOPT_TORCH_CORPUS") or Path(__file__).resolve().parents[2] / "suites" / "pytorch"
)
LEVEL_MINIMUM = {"level1": 18, "level2": 11, "level3": 3}
MAX_BYTES = 1 << 30
MIN_BYTES = 1 << 20  # below this a problem is a toy on an H200
# Integer constants that no tensor shape depends on (the importer treats them like eps: hard-coded).
NOT_SIZES = {
    "level1/group_norm.py": {"num_groups"},
    "level2/conv2d_groupnorm_gelu.py": {"num_groups"},
    "level3/transformer_block.py": {"num_heads"},
}
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
# What get_inputs() may call: KernelBench's generators, on the default device and dtype.
INPUT_FACTORIES = {"rand", "randn", "randint"}
# Methods that move or cast a tensor; none belongs in a problem file.
MOVES = {"to", "cuda", "cpu", "float", "half", "double", "bfloat16", "type", "long", "int"}


def problem_files() -> list[Path]:
    """Every problem file of the corpus, sorted, level folders only."""
    return sorted(SUITE.glob("level*/*.py"))


def load(path: Path) -> dict[str, Any]:
    """Executes a problem file in a fresh namespace and returns that namespace."""
    namespace: dict[str, Any] = {"__name__": f"kopt_corpus_{path.parent.name}_{path.stem}"}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace


def module_constants(tree: ast.Module) -> dict[str, int | float]:
    """The module-level `name = number` assignments (a leading minus allowed), in file order."""
    constants: dict[str, int | float] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if isinstance(target, ast.Name):
                try:
                    constants[target.id] = ast.literal_eval(value)
                except ValueError:
                    continue  # not a literal; check_source reports it
    return constants


def function_node(tree: ast.Module, name: str) -> ast.FunctionDef:
    """The module-level function `name` of the problem's syntax tree."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise AssertionError(f"no module-level function {name}()")


def meta_shapes(namespace: dict[str, Any]) -> list[tuple[str, tuple[int, ...]]]:
    """Builds the problem's Model on meta tensors and returns every ABI tensor's name and shape."""
    with torch.device("meta"):
        model = namespace["Model"](*namespace["get_init_inputs"]())
        inputs = namespace["get_inputs"]()
        outputs = tensors_of(model(*inputs))
    shapes = [(f"input{i}", tuple(t.shape)) for i, t in enumerate(inputs)]
    shapes += [(key, tuple(t.shape)) for key, t in model.state_dict().items()]
    shapes += [(f"output{i}", tuple(t.shape)) for i, t in enumerate(outputs)]
    return shapes


def tensors_of(value: Any) -> list[torch.Tensor]:
    """The tensors of a forward result: one tensor, or a tuple/list of them."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, torch.Tensor) for v in value):
        return list(value)
    raise AssertionError(f"forward returned {type(value).__name__}, expected a tensor or a tuple of tensors")


def nbytes(tensors: list[torch.Tensor]) -> int:
    """The bytes the tensors would hold, contiguous, from their shapes and dtypes."""
    return sum(t.numel() * t.element_size() for t in tensors)


class CorpusTest(unittest.TestCase):
    """The corpus as a whole and every problem in it."""

    def test_counts_per_level(self) -> None:
        """At least 18 single operators, 11 operator chains and 3 whole networks."""
        for level, minimum in LEVEL_MINIMUM.items():
            count = len(list((SUITE / level).glob("*.py")))
            self.assertGreaterEqual(count, minimum, f"{level}: {count} problems")
        self.assertEqual(
            {p.parent.name for p in problem_files()}, set(LEVEL_MINIMUM), "unexpected level folder"
        )

    def test_readme_lists_every_problem(self) -> None:
        """The README's table names every problem file, as level/name.py."""
        readme = (SUITE / "README.md").read_text()
        for path in problem_files():
            rel = f"{path.parent.name}/{path.name}"
            self.assertTrue(f"`{rel}`" in readme, f"README.md does not list {rel}")

    def test_source_format(self) -> None:
        """Imports, module-level statements, constants and the two input functions, from the source."""
        for path in problem_files():
            with self.subTest(problem=f"{path.parent.name}/{path.name}"):
                self.check_source(path)

    def test_meta_forward(self) -> None:
        """The Model builds and runs on meta tensors; inputs, outputs and memory are as the format says."""
        for path in problem_files():
            with self.subTest(problem=f"{path.parent.name}/{path.name}"):
                self.check_meta_forward(path)

    def test_integer_constants_are_sizes(self) -> None:
        """Changing an integer constant changes some tensor's shape, except for the listed non-sizes.

        This is how the importer finds the size parameters (docs/pytorch.md, "The candidate's ABI"); each
        constant is doubled, or else raised by 2 (which keeps an odd kernel odd), in a fresh namespace.
        """
        for path in problem_files():
            rel = f"{path.parent.name}/{path.name}"
            with self.subTest(problem=rel):
                constants = module_constants(ast.parse(path.read_text(), str(path)))
                base = meta_shapes(load(path))
                not_sizes = set()
                for name, value in constants.items():
                    if type(value) is not int:
                        continue
                    changed = None
                    for variant in (2 * value, value + 2):
                        namespace = load(path)
                        namespace[name] = variant
                        try:
                            changed = meta_shapes(namespace) != base
                        except Exception:  # the problem's own code rejects this value; try the next
                            continue
                        break
                    self.assertIsNotNone(changed, f"the problem fails for every new value of {name}")
                    if not changed:
                        not_sizes.add(name)
                self.assertEqual(not_sizes, NOT_SIZES.get(rel, set()), "integer constants no shape uses")

    def check_source(self, path: Path) -> None:
        """The static checks of one problem file."""
        self.assertRegex(path.stem, SNAKE, "file name is not lower_snake_case")
        source = path.read_text()
        tree = ast.parse(source, str(path))
        self.assertIsNotNone(ast.get_docstring(tree), "no module docstring")
        imports = {ast.unparse(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))}
        self.assertIn("import torch", imports)
        self.assertIn("import torch.nn as nn", imports)
        allowed = {"import torch", "import torch.nn as nn", "import torch.nn.functional as F"}
        self.assertLessEqual(imports, allowed, "an import beyond torch, nn and F")

        # Module level: docstring, imports, class Model, the two functions, `name = number` only.
        for index, node in enumerate(tree.body):
            if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, ast.ClassDef):
                self.assertEqual(node.name, "Model", "a class other than Model")
                continue
            if isinstance(node, ast.FunctionDef):
                self.assertIn(node.name, {"get_inputs", "get_init_inputs"}, "an extra function")
                continue
            self.assertIsInstance(node, ast.Assign, f"line {node.lineno}: not a constant assignment")
            self.assertEqual(len(node.targets), 1, f"line {node.lineno}: one name per assignment")
            self.assertIsInstance(node.targets[0], ast.Name, f"line {node.lineno}: not a plain name")
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                value = None
            if value is None:
                self.fail(f"line {node.lineno}: {ast.unparse(node.value)} is not a number literal")
            self.assertIn(type(value), (int, float), f"line {node.lineno}: not an int or float")

        constants = module_constants(tree)
        self.assertTrue(any(type(v) is int for v in constants.values()), "no integer size constant")
        for name, value in constants.items():
            self.assertRegex(name, SNAKE, f"constant {name} is not lower_snake_case")
            if type(value) is int:
                self.assertGreater(value, 0, f"size constant {name} must be positive")

        # Nothing anywhere seeds, prints, moves or casts.
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name):
                    self.assertNotEqual(func.id, "print", f"line {node.lineno}: print")
                if isinstance(func, ast.Attribute):
                    self.assertNotIn(func.attr, {"manual_seed", "seed"}, f"line {node.lineno}: seeding")
                    self.assertNotIn(func.attr, MOVES, f"line {node.lineno}: .{func.attr}() moves or casts")
                for keyword in node.keywords:
                    self.assertNotIn(keyword.arg, {"device", "dtype"}, f"line {node.lineno}: {keyword.arg}=")

        # get_inputs: no arguments, only torch.rand/randn/randint, every size through a constant.
        get_inputs = function_node(tree, "get_inputs")
        self.assertEqual(len(get_inputs.args.args), 0, "get_inputs() takes arguments")
        used: set[str] = set()
        for node in ast.walk(get_inputs):
            if isinstance(node, ast.Call):
                call = ast.unparse(node.func)
                self.assertIn(
                    call, {f"torch.{f}" for f in INPUT_FACTORIES}, f"get_inputs() calls {call}"
                )
            if isinstance(node, ast.Constant) and not isinstance(node.value, str):
                self.assertEqual(node.value, 0, f"get_inputs() hard-codes {node.value!r}; use a constant")
            if isinstance(node, ast.Name):
                used.add(node.id)

        # get_init_inputs: a list of module-level constants, nothing hard-coded.
        get_init = function_node(tree, "get_init_inputs")
        self.assertEqual(len(get_init.args.args), 0, "get_init_inputs() takes arguments")
        for node in ast.walk(get_init):
            self.assertNotIsInstance(node, ast.Constant, "get_init_inputs() hard-codes a value")
            if isinstance(node, ast.Name):
                self.assertIn(node.id, constants, f"get_init_inputs() passes {node.id}, not a constant")
                used.add(node.id)
        unused = sorted(set(constants) - used)
        self.assertFalse(unused, f"constants used by neither input function: {unused}")

    def check_meta_forward(self, path: Path) -> None:
        """The dynamic checks of one problem: load, build on meta, run forward on meta."""
        rng_before = torch.random.get_rng_state()
        namespace = load(path)
        self.assertTrue(
            torch.equal(rng_before, torch.random.get_rng_state()), "importing the file draws random numbers"
        )
        model_class = namespace.get("Model")
        self.assertTrue(
            inspect.isclass(model_class) and issubclass(model_class, nn.Module), "no class Model(nn.Module)"
        )
        doc = model_class.__doc__
        self.assertTrue(doc and doc.strip() and "\n" not in doc.strip(), "Model needs a one-line docstring")
        self.assertIn("__init__", vars(model_class), "Model defines no __init__")
        self.assertIn("forward", vars(model_class), "Model defines no forward")
        forward_params = list(inspect.signature(model_class.forward).parameters)[1:]

        with torch.device("meta"):
            init_inputs = namespace["get_init_inputs"]()
            self.assertIsInstance(init_inputs, list, "get_init_inputs() must return a list")
            model = model_class(*init_inputs)
            inputs = namespace["get_inputs"]()
            self.assertIsInstance(inputs, list, "get_inputs() must return a list")
            self.assertEqual(len(inputs), len(forward_params), "get_inputs() and forward() disagree")
            for name, value in zip(forward_params, inputs):
                self.assertIsInstance(value, torch.Tensor, f"input {name} is not a tensor")
                self.assertEqual(value.device.type, "meta", f"input {name} ignores the default device")
                self.assertIn(value.dtype, (torch.float32, torch.int64), f"input {name}: {value.dtype}")
            outputs = tensors_of(model(*inputs))

        for index, out in enumerate(outputs):
            self.assertIn(out.dtype, (torch.float32, torch.int64), f"output {index}: {out.dtype}")
        state = list(model.state_dict().values())
        for key, value in model.state_dict().items():
            self.assertEqual(value.device.type, "meta", f"state {key} was not built on the default device")
        total = nbytes(inputs) + nbytes(state) + nbytes(outputs)
        self.assertLessEqual(total, MAX_BYTES, f"inputs+state+outputs = {total} bytes > 1 GiB")
        self.assertGreaterEqual(total, MIN_BYTES, f"inputs+state+outputs = {total} bytes: too small")


if __name__ == "__main__":
    unittest.main()
