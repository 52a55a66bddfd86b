"""Family inference from the module's graph (kopt_torch.family): one-operator problems get the library
family that serves them and its arithmetic; anything else gets none."""

import unittest

import torch
import torch.nn as nn
import torch.nn.functional as F

from kopt_torch.family import infer_family


class _Call(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class _Call2(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, a, b):
        return self.fn(a, b)


class _GeluTanh(nn.Module):
    def forward(self, x):
        return F.gelu(x, approximate="tanh")


class _Softmax0(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=0)


class _Chain(nn.Module):
    def forward(self, x):
        return torch.relu(x) * 2.0


class FamilyTest(unittest.TestCase):
    x = [torch.randn(4, 8)]

    def test_activations_get_their_op(self):
        guess = infer_family(_Call(torch.relu), self.x)
        self.assertEqual((guess.family, guess.params), ("activation", {"op": "x > 0.0f ? x : 0.0f"}))
        self.assertEqual(infer_family(nn.SiLU(), self.x).params["op"], "x / (1.0f + expf(-x))")
        self.assertIn("erff", infer_family(nn.GELU(), self.x).params["op"])
        self.assertIn("tanhf", infer_family(_GeluTanh(), self.x).params["op"])

    def test_softmax_over_the_last_of_two_dimensions_only(self):
        self.assertEqual(infer_family(nn.Softmax(dim=1), self.x).family, "row_softmax")
        self.assertEqual(infer_family(_Call(lambda x: F.softmax(x, dim=-1)), self.x).family, "row_softmax")
        self.assertIsNone(infer_family(_Softmax0(), self.x))
        self.assertIsNone(infer_family(nn.Softmax(dim=1), [torch.randn(2, 3, 4)]))

    def test_reductions_and_scans_over_the_last_dimension(self):
        x3 = [torch.randn(2, 4, 8)]
        mean = infer_family(_Call(lambda x: torch.mean(x, dim=2)), x3)
        self.assertEqual((mean.family, mean.params["finish"]), ("row_reduce", "s / n"))
        self.assertEqual(infer_family(_Call(lambda x: x.sum(dim=-1)), x3).params["combine"], "a + b")
        self.assertEqual(infer_family(_Call(lambda x: torch.amax(x, dim=-1)), x3).params["identity"], "-INFINITY")
        self.assertEqual(infer_family(_Call(lambda x: torch.cumsum(x, dim=2)), x3).family, "row_scan")
        self.assertIsNone(infer_family(_Call(lambda x: torch.sum(x, dim=1)), x3))
        self.assertIsNone(infer_family(_Call(lambda x: torch.sum(x, dim=2, keepdim=True)), x3))

    def test_a_product_of_two_matrices_is_a_gemm(self):
        guess = infer_family(_Call2(torch.matmul), [torch.randn(4, 8), torch.randn(8, 3)])
        self.assertEqual(guess.family, "gemm")
        self.assertIsNone(infer_family(_Call2(torch.matmul), [torch.randn(2, 4, 8), torch.randn(2, 8, 3)]))
        self.assertIsNone(infer_family(_Call2(lambda a, b: torch.matmul(a, b.t())),
                                       [torch.randn(4, 8), torch.randn(3, 8)]))

    def test_chains_and_untraceable_modules_get_none(self):
        self.assertIsNone(infer_family(_Chain(), self.x))
        self.assertIsNone(infer_family(nn.Linear(8, 4), self.x))


if __name__ == "__main__":
    unittest.main()
