"""Level 2: a Linear layer followed by ReLU."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes relu(x @ W.T + b) with nn.Linear(in_features, out_features)."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.linear(x))


batch_size = 1024
in_features = 4096
out_features = 4096


def get_inputs():
    x = torch.rand(batch_size, in_features)
    return [x]


def get_init_inputs():
    return [in_features, out_features]
