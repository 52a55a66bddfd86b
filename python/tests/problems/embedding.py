import torch
import torch.nn as nn


class Model(nn.Module):
    """Embedding lookup with LayerNorm."""

    def __init__(self, num_embeddings, dim):
        super().__init__()
        self.emb = nn.Embedding(num_embeddings, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, idx):
        return self.norm(self.emb(idx))


batch_size = 512
num_embeddings = 1000
dim = 64


def get_inputs():
    return [torch.randint(0, num_embeddings, (batch_size,))]


def get_init_inputs():
    return [num_embeddings, dim]
