"""Level 2: a Linear layer with bias, a residual add and LayerNorm (a post-norm block's tail)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes LayerNorm(x @ W.T + b + residual) over the last dimension."""

    def __init__(self, in_features: int, hidden_size: int):
        super().__init__()
        self.linear = nn.Linear(in_features, hidden_size)
        self.norm = nn.LayerNorm(hidden_size)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.norm(self.linear(x) + residual)


batch_size = 2048
in_features = 4096
hidden_size = 4096


def get_inputs():
    x = torch.rand(batch_size, in_features)
    residual = torch.rand(batch_size, hidden_size)
    return [x, residual]


def get_init_inputs():
    return [in_features, hidden_size]
