"""Level 1: SiLU (swish), elementwise."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Applies SiLU elementwise: x * sigmoid(x)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.silu(x)


batch_size = 256
dim = 65536


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
