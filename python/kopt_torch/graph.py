"""The parts of a torch.fx graph that family inference reads: its inputs, its operators, its output."""

from __future__ import annotations

from typing import Any


def graph_inputs(graph: Any) -> list[Any]:
    """The forward's inputs (placeholder nodes), in order."""
    return [n for n in graph.nodes if n.op == "placeholder"]


def operator_nodes(graph: Any) -> list[Any]:
    """The graph's operator nodes (calls of functions, methods and modules), in order."""
    return [n for n in graph.nodes if n.op in ("call_function", "call_method", "call_module")]


def output_node(graph: Any) -> Any:
    """The graph's output node (its args[0] is what the forward returns)."""
    return next(n for n in graph.nodes if n.op == "output")
