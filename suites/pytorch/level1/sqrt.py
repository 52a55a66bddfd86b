"""Level 1: square root, elementwise (defined only for non-negative inputs)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Takes the square root elementwise; NaN for negative inputs."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sqrt(x)


batch_size = 256
dim = 65536


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
