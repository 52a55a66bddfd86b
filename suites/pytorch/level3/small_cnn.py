"""Level 3: a small image classifier: two conv blocks with pooling and a Linear head."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Classifies square images: 2 x (conv, ReLU, max-pool), flatten, Linear to num_classes."""

    def __init__(
        self,
        in_channels: int,
        channels1: int,
        channels2: int,
        image_size: int,
        num_classes: int,
        kernel_size: int,
        pool_size: int,
    ):
        super().__init__()
        padding = kernel_size // 2
        self.conv1 = nn.Conv2d(in_channels, channels1, kernel_size, padding=padding)
        self.conv2 = nn.Conv2d(channels1, channels2, kernel_size, padding=padding)
        self.pool = nn.MaxPool2d(pool_size)
        pooled = image_size // pool_size // pool_size
        self.head = nn.Linear(channels2 * pooled * pooled, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.pool(torch.relu(self.conv1(x)))
        x = self.pool(torch.relu(self.conv2(x)))
        return self.head(torch.flatten(x, 1))


batch_size = 1024
in_channels = 3
image_size = 32
channels1 = 32
channels2 = 64
num_classes = 10
kernel_size = 3
pool_size = 2


def get_inputs():
    x = torch.rand(batch_size, in_channels, image_size, image_size)
    return [x]


def get_init_inputs():
    return [in_channels, channels1, channels2, image_size, num_classes, kernel_size, pool_size]
