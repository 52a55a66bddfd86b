"""Family inference for one torch.einsum of the forward's two inputs that is a matrix product.

Equations (letters as written, spaces ignored; the output's letters in the order shown):
- `ik,kj->ij`: gemm; with leading letters on the first operand only, `...ik,kj->...ij` (KernelBench's 4-D
  tensor-matrix product `bijl,lk->bijk`): one gemm whose rows are the first operand's leading dimensions;
- `ik,jk->ij`: gemm_nt (the second operand transposed);
- `bik,bkj->bij`: batched_gemm (one batch letter, leading on both operands and the output).
Anything else (a sum over a letter not shared, a transposed output, repeated letters, `...`) gets no family.
"""

from __future__ import annotations

from typing import Any

import torch

from .family_guess import FamilyGuess
from .graph import graph_inputs


def _parse(equation: str) -> tuple[str, str, str] | None:
    text = equation.replace(" ", "")
    if "->" not in text or "." in text:
        return None
    inputs, out = text.split("->")
    operands = inputs.split(",")
    if len(operands) != 2 or not all(s.isalpha() for s in (*operands, out)):
        return None
    a, b = operands
    if any(len(set(s)) != len(s) for s in (a, b, out)):
        return None
    return a, b, out


def einsum_family(nodes: list[Any], tensors: list[Any]) -> FamilyGuess | None:
    """gemm, gemm_nt or batched_gemm for one torch.einsum(equation, a, b) of the forward's two inputs in order."""
    if len(nodes) != 1 or len(tensors) != 2 or nodes[0].op != "call_function" or nodes[0].target is not torch.einsum:
        return None
    node = nodes[0]
    args = list(node.args)
    if node.kwargs or len(args) not in (2, 3) or not isinstance(args[0], str):
        return None
    operands = args[1] if len(args) == 2 and isinstance(args[1], (list, tuple)) else args[1:]
    placeholders = graph_inputs(node.graph)
    if list(operands) != placeholders[:2]:
        return None
    parsed = _parse(args[0])
    if parsed is None:
        return None
    a, b, out = parsed
    if len(a) != tensors[0].dim() or len(b) != tensors[1].dim():
        return None
    if len(b) == 2 and len(a) >= 2:
        lead, i, k = a[:-2], a[-2], a[-1]
        if b == k + b[1] and b[1] not in a and out == lead + i + b[1]:
            binding = {"A": (0, None), "B": (1, None), "M": (0, tuple(range(len(a) - 1))), "K": (0, (len(a) - 1,)),
                       "N": (1, (1,))}
            return FamilyGuess("gemm", {}, f"the module is one einsum '{args[0]}': a matrix product", binding)
        if len(a) == 2 and b == b[0] + k and b[0] not in a and out == i + b[0]:
            return FamilyGuess("gemm_nt", {}, f"the module is one einsum '{args[0]}': a product with the second "
                               "matrix transposed",
                               {"A": (0, None), "B": (1, None), "M": (0, (0,)), "N": (1, (0,)), "K": (0, (1,))})
    if len(a) == 3 and len(b) == 3:
        batch, i, k = a
        if b[0] == batch and b[1] == k and b[2] not in a and out == batch + i + b[2]:
            return FamilyGuess("batched_gemm", {}, f"the module is one einsum '{args[0]}': a batched matrix product",
                               {"A": (0, None), "B": (1, None), "batch": (0, (0,)), "M": (0, (1,)), "K": (0, (2,)),
                                "N": (1, (2,))})
    return None
