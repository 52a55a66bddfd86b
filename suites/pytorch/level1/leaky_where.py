"""Level 1: a leaky ReLU written with torch.where and a float constant."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes torch.where(x > 0, x, alpha * x) elementwise."""

    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.where(x > 0, x, self.alpha * x)


batch_size = 256
dim = 65536
alpha = 0.2


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return [alpha]
