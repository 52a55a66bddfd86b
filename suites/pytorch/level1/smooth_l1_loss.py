"""Level 1: the smooth L1 loss of predictions against targets, mean over every element."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes nn.SmoothL1Loss(beta=beta) (mean over every element) of predictions against targets."""

    def __init__(self, beta: float):
        super().__init__()
        self.loss = nn.SmoothL1Loss(beta=beta)

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return self.loss(predictions, targets)


batch_size = 4096
dim = 8192
beta = 0.5


def get_inputs():
    predictions = torch.rand(batch_size, dim)
    targets = torch.rand(batch_size, dim)
    return [predictions, targets]


def get_init_inputs():
    return [beta]
