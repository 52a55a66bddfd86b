"""Level 1: LayerNorm over the last dimension, with learned weight and bias."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies nn.LayerNorm(hidden_size) (eps 1e-5, weight and bias) to each row."""

    def __init__(self, hidden_size: int):
        super().__init__()
        self.norm = nn.LayerNorm(hidden_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


batch_size = 8192
hidden_size = 4096


def get_inputs():
    x = torch.rand(batch_size, hidden_size)
    return [x]


def get_init_inputs():
    return [hidden_size]
