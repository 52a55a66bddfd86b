"""Level 1: an argmax over the middle dimension."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Returns the int64 index of the maximum over dim 1 of a (batch_size, dim1, dim2) tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=1)


batch_size = 16
dim1 = 4096
dim2 = 1024


def get_inputs():
    x = torch.rand(batch_size, dim1, dim2)
    return [x]


def get_init_inputs():
    return []
