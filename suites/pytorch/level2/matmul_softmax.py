"""Level 2: a matrix product followed by a softmax over each output row."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes softmax(A @ B, dim=-1) for A m x k and B k x n."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.softmax(torch.matmul(a, b), dim=-1)


m = 4096
k = 1024
n = 4096


def get_inputs():
    a = torch.rand(m, k)
    b = torch.rand(k, n)
    return [a, b]


def get_init_inputs():
    return []
