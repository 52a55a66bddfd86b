"""Level 1: a matrix product with few rows (a decode-sized GEMM, bound by reading B)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes C = A @ B where A is m x k with small m and B is k x n."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, b)


m = 32
k = 8192
n = 8192


def get_inputs():
    a = torch.rand(m, k)
    b = torch.rand(k, n)
    return [a, b]


def get_init_inputs():
    return []
