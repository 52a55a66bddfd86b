"""What family inference says of a problem: the family, its arithmetic, why, and the roles it pins."""

from __future__ import annotations

from dataclasses import dataclass, field

# A role's binding: a tensor (the forward's input by position, or a parameter or buffer by its state_dict key)
# and the dimensions of it whose product the role is (None: the tensor itself); or a constant (an int: a
# convolution's padding; a float: a normalisation's eps).
Binding = tuple[int | str, tuple[int, ...] | None] | int | float


@dataclass
class FamilyGuess:
    family: str
    params: dict[str, str] = field(default_factory=dict)
    reason: str = ""
    # Roles of the family's contract that no launcher parameter is, or that names alone would not decide (the
    # task's `[binding]`).
    binding: dict[str, Binding] = field(default_factory=dict)
    # Parameters (state_dict keys) of which only the rows an index selects are read (an embedding table): the
    # task's work model counts as many of their bytes as the output has, not the whole table, so that the
    # speed-of-light bound stays a bound.
    gathered: tuple[str, ...] = ()
    # Buffers (state_dict keys) whose values no output depends on: a training-mode BatchNorm's running statistics,
    # which its forward updates and does not read. The task marks them `affects_outputs = false`, so that a
    # strategy binds without taking them (docs/task-format.md).
    unused: tuple[str, ...] = ()
