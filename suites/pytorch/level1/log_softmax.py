"""Level 1: log-softmax over each row."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies log-softmax over dim 1 of a (batch_size, dim) tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(x, dim=1)


batch_size = 256
dim = 65536


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
