"""Level 1: the product of two square matrices."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes C = A @ B for two n x n matrices."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, b)


n = 4096


def get_inputs():
    a = torch.rand(n, n)
    b = torch.rand(n, n)
    return [a, b]


def get_init_inputs():
    return []
