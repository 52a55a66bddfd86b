"""Level 2: a Linear layer followed by a sum over the features."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes sum(x @ W.T + b, dim=1, keepdim=True): one number per row."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(self.linear(x), dim=1, keepdim=True)


batch_size = 1024
in_features = 4096
out_features = 4096


def get_inputs():
    x = torch.rand(batch_size, in_features)
    return [x]


def get_init_inputs():
    return [in_features, out_features]
