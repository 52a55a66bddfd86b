"""Level 1: tanh, elementwise."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies the hyperbolic tangent elementwise."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x)


batch_size = 256
dim = 65536


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
