"""Level 1: the mean cross-entropy loss of logits against int64 class targets."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes nn.CrossEntropyLoss() (mean over the batch) of logits against class indices."""

    def __init__(self):
        super().__init__()
        self.loss = nn.CrossEntropyLoss()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return self.loss(logits, targets)


batch_size = 2048
num_classes = 32000


def get_inputs():
    logits = torch.rand(batch_size, num_classes)
    targets = torch.randint(0, num_classes, (batch_size,))
    return [logits, targets]


def get_init_inputs():
    return []
