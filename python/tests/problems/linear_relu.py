import torch
import torch.nn as nn


class Model(nn.Module):
    """A linear layer followed by ReLU."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.linear(x))


batch_size = 64
in_features = 128
out_features = 96
hidden = in_features * 2  # derived: follows in_features


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
