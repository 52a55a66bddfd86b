"""kopt's integer expressions (docs/task-format.md, "Expressions"), as far as kopt_torch needs them.

`evaluate(text, env)` evaluates an expression over integer names with kopt's semantics: 64-bit signed
integers, `/` and `%` truncating toward zero as in C, `min`, `max`, `ceil_div`, `abs`; overflow and
division by zero are errors. The importer writes only `+ - * / %`, parentheses, names, literals and
these functions; anything else (comparisons, `?:`) is rejected here with a clear message.
"""

from __future__ import annotations

import ast
from typing import Mapping, Union

from .errors import ProblemError

Expr = Union[int, str]
_I64_MIN = -(2**63)
_I64_MAX = 2**63 - 1


def _check(value: int, text: str) -> int:
    if value < _I64_MIN or value > _I64_MAX:
        raise ProblemError(f"expression '{text}': overflows a 64-bit integer")
    return value


def _tdiv(a: int, b: int, text: str) -> int:
    if b == 0:
        raise ProblemError(f"expression '{text}': division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _tmod(a: int, b: int, text: str) -> int:
    return a - b * _tdiv(a, b, text)


def evaluate(expr: Expr, env: Mapping[str, int]) -> int:
    """Evaluate an integer literal or an expression string over `env` with kopt's semantics."""
    if isinstance(expr, bool):
        raise ProblemError(f"expression {expr!r}: expected an integer or an expression string")
    if isinstance(expr, int):
        return expr
    if not isinstance(expr, str):
        raise ProblemError(f"expression {expr!r}: expected an integer or an expression string")
    text = expr
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise ProblemError(f"expression '{text}': cannot parse ({e.msg})") from None

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return _check(node.value, text)
        if isinstance(node, ast.Name):
            if node.id not in env:
                names = ", ".join(sorted(env))
                raise ProblemError(f"expression '{text}': unknown identifier '{node.id}'; defined: {names}")
            return int(env[node.id])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            return _check(-v if isinstance(node.op, ast.USub) else v, text)
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return _check(a + b, text)
            if isinstance(node.op, ast.Sub):
                return _check(a - b, text)
            if isinstance(node.op, ast.Mult):
                return _check(a * b, text)
            if isinstance(node.op, ast.Div):
                return _tdiv(a, b, text)
            if isinstance(node.op, ast.Mod):
                return _tmod(a, b, text)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            args = [ev(a) for a in node.args]
            name = node.func.id
            if name in ("min", "max") and len(args) == 2:
                return min(args) if name == "min" else max(args)
            if name == "ceil_div" and len(args) == 2:
                a, b = args
                if b == 0:
                    raise ProblemError(f"expression '{text}': division by zero")
                return -((-a) // b)
            if name == "abs" and len(args) == 1:
                return _check(abs(args[0]), text)
        raise ProblemError(f"expression '{text}': unsupported construct '{ast.unparse(node)}'; "
                           "expected + - * / %, parentheses, names, integers, min/max/ceil_div/abs")

    return ev(tree.body)


def names(expr: Expr) -> set[str]:
    """The identifiers an expression uses."""
    if isinstance(expr, int):
        return set()
    return {n.id for n in ast.walk(ast.parse(expr.strip(), mode="eval")) if isinstance(n, ast.Name)} - {
        "min", "max", "ceil_div", "abs"}


def is_atom(expr: Expr) -> bool:
    """True when `expr` is a literal, a name or a product of them (no parentheses needed in a product)."""
    if isinstance(expr, int):
        return expr >= 0
    return all(ch.isalnum() or ch in "_*" for ch in expr.replace(" ", ""))


def product(factors: list[Expr]) -> Expr:
    """The product of dimension expressions: literals folded, factors 1 dropped, sums parenthesised."""
    lit = 1
    parts: list[str] = []
    for f in factors:
        if isinstance(f, int):
            lit *= f
        else:
            parts.append(f if is_atom(f) else f"({f})")
    if not parts or lit == 0:
        return lit
    if lit != 1:
        parts.insert(0, str(lit))
    return "*".join(parts)
