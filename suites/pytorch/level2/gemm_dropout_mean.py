"""Level 2: a Linear layer, dropout with p = 0 (the identity), then a mean over the features."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes mean(dropout(x @ W.T + b, p=dropout_p), dim=1, keepdim=True), dropout_p = 0."""

    def __init__(self, in_features: int, out_features: int, dropout_p: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(self.dropout(self.linear(x)), dim=1, keepdim=True)


batch_size = 1024
in_features = 4096
out_features = 4096
dropout_p = 0.0


def get_inputs():
    x = torch.rand(batch_size, in_features)
    return [x]


def get_init_inputs():
    return [in_features, out_features, dropout_p]
