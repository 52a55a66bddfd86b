"""Level 1: the mean squared error of predictions against targets, written out."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes torch.mean((predictions - targets) ** 2), the mean over every element."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean((predictions - targets) ** 2)


batch_size = 4096
dim = 8192


def get_inputs():
    predictions = torch.rand(batch_size, dim)
    targets = torch.rand(batch_size, dim)
    return [predictions, targets]


def get_init_inputs():
    return []
