"""Level 3: a three-layer perceptron with ReLU between the layers."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes fc3(relu(fc2(relu(fc1(x))))) with three nn.Linear layers."""

    def __init__(self, input_size: int, hidden1_size: int, hidden2_size: int, output_size: int):
        super().__init__()
        self.fc1 = nn.Linear(input_size, hidden1_size)
        self.fc2 = nn.Linear(hidden1_size, hidden2_size)
        self.fc3 = nn.Linear(hidden2_size, output_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.fc3(x)


batch_size = 1024
input_size = 4096
hidden1_size = 4096
hidden2_size = 4096
output_size = 1024


def get_inputs():
    x = torch.rand(batch_size, input_size)
    return [x]


def get_init_inputs():
    return [input_size, hidden1_size, hidden2_size, output_size]
