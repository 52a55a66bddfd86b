"""Level 1: a batch of independent matrix products (torch.bmm)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes C[i] = A[i] @ B[i] for every i in the batch."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.bmm(a, b)


batch_size = 128
m = 512
k = 512
n = 512


def get_inputs():
    a = torch.rand(batch_size, m, k)
    b = torch.rand(batch_size, k, n)
    return [a, b]


def get_init_inputs():
    return []
