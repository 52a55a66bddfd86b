"""Level 2: a Linear layer, GELU, then a multiplication by a constant."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Computes gelu(x @ W.T + b) * scaling_factor (exact GELU)."""

    def __init__(self, in_features: int, out_features: int, scaling_factor: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.linear(x)) * self.scaling_factor


batch_size = 1024
in_features = 4096
out_features = 4096
scaling_factor = 2.0


def get_inputs():
    x = torch.rand(batch_size, in_features)
    return [x]


def get_init_inputs():
    return [in_features, out_features, scaling_factor]
