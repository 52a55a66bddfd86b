"""Level 1: a matrix product with the second operand stored transposed."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes C = A @ B.T where A is m x k and B is n x k."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a @ b.T


m = 2048
k = 4096
n = 4096


def get_inputs():
    a = torch.rand(m, k)
    b = torch.rand(n, k)
    return [a, b]


def get_init_inputs():
    return []
