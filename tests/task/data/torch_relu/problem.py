"""Level 1: ReLU, elementwise."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies ReLU elementwise: max(x, 0)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


batch_size = 256
dim = 65536


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
