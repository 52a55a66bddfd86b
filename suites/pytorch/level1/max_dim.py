"""Level 1: a maximum over the middle dimension."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Takes the maximum of a (batch_size, dim1, dim2) tensor over dim 1 (values only)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.max(x, dim=1).values


batch_size = 16
dim1 = 4096
dim2 = 1024


def get_inputs():
    x = torch.rand(batch_size, dim1, dim2)
    return [x]


def get_init_inputs():
    return []
