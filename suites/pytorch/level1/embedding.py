"""Level 1: an embedding lookup with int64 token ids."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Looks up rows of an nn.Embedding(num_embeddings, embedding_dim) table by int64 ids."""

    def __init__(self, num_embeddings: int, embedding_dim: int):
        super().__init__()
        self.embedding = nn.Embedding(num_embeddings, embedding_dim)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.embedding(ids)


batch_size = 16
seq_len = 1024
num_embeddings = 32000
embedding_dim = 1024


def get_inputs():
    ids = torch.randint(0, num_embeddings, (batch_size, seq_len))
    return [ids]


def get_init_inputs():
    return [num_embeddings, embedding_dim]
