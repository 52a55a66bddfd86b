"""Family inference from the module's graph (kopt_torch.family): one-operator problems get the library
family that serves them and its arithmetic; anything else gets none."""

import unittest

import torch
import torch.nn as nn
import torch.nn.functional as F

from kopt_torch.family import infer_family
from kopt_torch.reductions import LOG_ADD_EXP


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


class _Call3(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, a, b, c):
        return self.fn(a, b, c)


class _LinearThen(nn.Module):
    def __init__(self, fn, bias=True):
        super().__init__()
        self.linear = nn.Linear(8, 4, bias=bias)
        self.fn = fn

    def forward(self, x):
        return self.fn(self.linear(x))


_GELU_TANH_OP = "0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)))"


class _FunctionalLinear(nn.Module):
    """F.linear on the module's own parameters (not an nn.Linear), then GELU in its tanh form."""

    def __init__(self, bias):
        super().__init__()
        self.w = nn.Parameter(torch.randn(4, 8))
        self.b = nn.Parameter(torch.zeros(4)) if bias else None

    def forward(self, x):
        y = F.linear(x, self.w, self.b)
        return F.gelu(y, approximate="tanh") if self.b is not None else y


class _GeluTanh(nn.Module):
    def forward(self, x):
        return F.gelu(x, approximate="tanh")


class _Softmax0(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=0)


class _Chain(nn.Module):
    def forward(self, x):
        return torch.relu(x) * 2.0


class _ConvThen(nn.Module):
    """nn.Conv2d(3 -> 5, kernel 3) with `padding`, `stride` and `bias`, then `fn` of its output."""

    def __init__(self, fn=lambda y: y, bias=True, padding=1, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(3, 5, 3, stride=stride, padding=padding, bias=bias)
        self.fn = fn

    def forward(self, x):
        return self.fn(self.conv(x))


class _ConvPlusParameter(nn.Module):
    """relu(conv(x)) + a parameter of the module of `shape` (level2/conv2d_relu_bias: (Cout, 1, 1)); with
    `first`, relu(conv(x) + the parameter)."""

    def __init__(self, shape=(5, 1, 1), stride=1, bias=True, first=False):
        super().__init__()
        self.conv = nn.Conv2d(3, 5, 3, stride=stride, bias=bias)
        self.extra = nn.Parameter(torch.randn(*shape))
        self.first = first

    def forward(self, x):
        if self.first:
            return torch.relu(self.conv(x) + self.extra)
        return torch.relu(self.conv(x)) + self.extra


class _LinearWithParameters(nn.Module):
    """KernelBench level 2's shapes: nn.Linear(8 -> 4, `bias`), then `fn(y, self)` with per-feature parameters
    `add` (4,) and `scale` (1, 4) and a (4, 4) matrix `other`."""

    def __init__(self, fn, bias=True):
        super().__init__()
        self.linear = nn.Linear(8, 4, bias=bias)
        self.add = nn.Parameter(torch.randn(4))
        self.scale = nn.Parameter(torch.randn(1, 4))
        self.other = nn.Parameter(torch.randn(4, 4))
        self.fn = fn

    def forward(self, x):
        return self.fn(self.linear(x), self)


class _Embed(nn.Module):
    """An nn.Embedding inside a module, or F.embedding on the module's own table."""

    def __init__(self, functional=False):
        super().__init__()
        self.functional = functional
        if functional:
            self.weight = nn.Parameter(torch.randn(10, 4))
        else:
            self.table = nn.Embedding(10, 4)

    def forward(self, ids):
        return F.embedding(ids, self.weight) if self.functional else self.table(ids)


class _Norm(nn.Module):
    """fn(self, x) with a weight `w` and a bias `b` of 8 elements."""

    def __init__(self, fn):
        super().__init__()
        self.w = nn.Parameter(torch.ones(8))
        self.b = nn.Parameter(torch.zeros(8))
        self.fn = fn

    def forward(self, x):
        return self.fn(self, x)


class FamilyTest(unittest.TestCase):
    x = [torch.randn(4, 8)]

    def test_activations_get_their_op(self):
        guess = infer_family(_Call(torch.relu), self.x)
        self.assertEqual((guess.family, guess.params), ("activation", {"op": "x > 0.0f ? x : 0.0f"}))
        self.assertEqual(infer_family(nn.SiLU(), self.x).params["op"], "x / (1.0f + expf(-x))")
        self.assertIn("erff", infer_family(nn.GELU(), self.x).params["op"])
        self.assertIn("tanhf", infer_family(_GeluTanh(), self.x).params["op"])

    def test_a_number_among_the_inputs_is_a_constant_of_the_op(self):
        # KernelBench's matrix-scalar product: get_inputs gives [A, 3.14]; the importer keeps the number fixed.
        guess = infer_family(_Call2(lambda a, s: a * s), [torch.randn(4, 8), 3.14])
        self.assertEqual((guess.family, guess.params["op"]), ("activation", "x * 3.14f"))
        guess = infer_family(_Call2(lambda s, a: torch.clamp(a, min=s)), [0.5, torch.randn(4, 8)])
        self.assertEqual((guess.family, guess.params["op"]), ("activation", "fmaxf(x, 0.5f)"))
        self.assertIsNone(infer_family(_Call2(lambda a, s: a * s), [torch.randn(4, 8), True]), "a flag, not a number")

    def test_softmax_over_the_last_dimension_or_another(self):
        self.assertEqual(infer_family(nn.Softmax(dim=1), self.x).family, "row_softmax")
        self.assertEqual(infer_family(_Call(lambda x: F.softmax(x, dim=-1)), self.x).family, "row_softmax")
        # Over any other dimension (the channels of an NCHW tensor: KernelBench level 2's Conv3d_..._Softmax):
        # mid_softmax, the column's log-sum-exp as the statistic; batch 1 over the first dimension.
        softmax_params = {"map": "v", "combine": LOG_ADD_EXP, "identity": "-INFINITY", "finish": "s"}
        x3, x4 = torch.randn(2, 3, 4), torch.randn(2, 3, 4, 5)
        for model, x, batch, rows, cols in ((nn.Softmax(dim=1), x3, (0, (0,)), (0, (1,)), (0, (2,))),
                                            (_Call(lambda x: torch.softmax(x, dim=1)), x4, (0, (0,)), (0, (1,)),
                                             (0, (2, 3))),
                                            (_Call(lambda x: x.softmax(-2)), x4, (0, (0, 1)), (0, (2,)), (0, (3,))),
                                            (_Softmax0(), self.x[0], 1, (0, (0,)), (0, (1,)))):
            guess = infer_family(model, [x])
            self.assertEqual((guess.family, guess.params, guess.binding),
                             ("mid_softmax", softmax_params, {"in": (0, None), "batch": batch, "rows": rows,
                                                              "cols": cols}))
        self.assertIsNone(infer_family(_Call(lambda x: torch.softmax(x, dim=1, dtype=torch.float64)),
                                       [torch.randn(2, 3, 4)]), "a cast")
        self.assertIsNone(infer_family(_Call(lambda x: torch.log_softmax(x, dim=1)), [torch.randn(2, 3, 4)]))

    def test_log_softmax_over_the_last_dimension(self):
        for model in (nn.LogSoftmax(dim=1), _Call(lambda x: torch.log_softmax(x, dim=1)),
                      _Call(lambda x: F.log_softmax(x, dim=-1)), _Call(lambda x: x.log_softmax(-1))):
            self.assertEqual(infer_family(model, self.x).family, "row_log_softmax")
        plain = infer_family(_Call(lambda x: x.softmax(-1)), self.x)
        self.assertEqual((plain.family, plain.binding), ("row_softmax", {"in": (0, None), "N": (0, (0,)),
                                                                        "C": (0, (1,))}))
        self.assertIsNone(infer_family(_Call(lambda x: torch.log_softmax(x, dim=0)), self.x))
        self.assertIsNone(infer_family(_Call(lambda x: F.log_softmax(x, dim=-1, dtype=torch.float64)), self.x))
        # A stack of matrices: its rows are the product of the leading dimensions.
        stacked = infer_family(nn.LogSoftmax(dim=2), [torch.randn(2, 3, 4)])
        self.assertEqual((stacked.family, stacked.binding),
                         ("row_log_softmax", {"in": (0, None), "N": (0, (0, 1)), "C": (0, (2,))}))

    def test_reductions_and_scans_over_the_last_dimension(self):
        x3 = [torch.randn(2, 4, 8)]
        mean = infer_family(_Call(lambda x: torch.mean(x, dim=2)), x3)
        self.assertEqual((mean.family, mean.params["finish"]), ("row_reduce", "s / n"))
        self.assertEqual(infer_family(_Call(lambda x: x.sum(dim=-1)), x3).params["combine"], "a + b")
        self.assertEqual(infer_family(_Call(lambda x: torch.amax(x, dim=-1)), x3).params["identity"], "-INFINITY")
        self.assertEqual(infer_family(_Call(lambda x: torch.cumsum(x, dim=2)), x3).family, "row_scan")
        self.assertEqual(infer_family(_Call(lambda x: torch.sum(x, dim=1)), x3).family, "mid_reduce", "not the last")
        self.assertIsNone(infer_family(_Call(lambda x: torch.cumsum(x, dim=1)), x3), "a scan over the last only")
        # keepdim=True: the same values in the same order, only the shape gains a 1.
        kept = infer_family(_Call(lambda x: torch.sum(x, dim=2, keepdim=True)), x3)
        self.assertEqual((kept.family, kept.binding),
                         ("row_reduce", {"in": (0, None), "rows": (0, (0, 1)), "cols": (0, (2,))}))

    def test_reductions_over_the_first_or_a_middle_dimension(self):
        x3 = [torch.randn(2, 4, 8)]
        mid = {"in": (0, None), "batch": (0, (0,)), "rows": (0, (1,)), "cols": (0, (2,))}
        for fn in (lambda x: torch.sum(x, dim=1, keepdim=True), lambda x: x.sum(1), lambda x: torch.sum(x, (1,)),
                   lambda x: x.sum(dim=-2, keepdim=False)):
            guess = infer_family(_Call(fn), x3)
            self.assertEqual((guess.family, guess.params, guess.binding),
                             ("mid_reduce", {"combine": "a + b", "identity": "0.0f", "finish": "s"}, mid))
        col = infer_family(_Call(lambda x: torch.mean(x, dim=0)), self.x)
        self.assertEqual((col.family, col.params["finish"], col.binding),
                         ("col_reduce", "s / n", {"in": (0, None), "rows": (0, (0,)), "cols": (0, (1,))}))
        self.assertEqual(infer_family(_Call(lambda x: x.amin(0)), x3).binding["cols"], (0, (1, 2)))
        # A product over a dimension (KernelBench's product reduction): combine a * b from 1.
        for fn, family in ((lambda x: torch.prod(x, dim=1), "mid_reduce"), (lambda x: x.prod(-1), "row_reduce"),
                           (lambda x: x.prod(0), "col_reduce")):
            guess = infer_family(_Call(fn), x3)
            self.assertEqual((guess.family, guess.params["combine"], guess.params["identity"]),
                             (family, "a * b", "1.0f"))
        self.assertIsNone(infer_family(_Call(lambda x: torch.prod(x)), x3), "the product of every element")
        # A log-sum-exp (KernelBench level 2's chains: over the features, over the channels of a 5-D tensor, over
        # two trailing dimensions): combine log-add-exp from -inf, row_logsumexp over the trailing dimensions (its
        # own strategy, and the row_reduce ones); over every dimension or without `dim`: none.
        for fn, family, binding in (
                (lambda x: torch.logsumexp(x, dim=1, keepdim=True), "mid_reduce", mid),
                (lambda x: x.logsumexp(-1), "row_logsumexp",
                 {"in": (0, None), "rows": (0, (0, 1)), "cols": (0, (2,))}),
                (lambda x: torch.logsumexp(x, 0), "col_reduce", {"in": (0, None), "rows": (0, (0,)), "cols": (0, (1, 2))}),
                (lambda x: torch.logsumexp(x, dim=(1, 2)), "row_logsumexp", {"in": (0, None), "rows": (0, (0,)),
                                                                       "cols": (0, (1, 2))})):
            guess = infer_family(_Call(fn), x3)
            self.assertEqual((guess.family, guess.params, guess.binding),
                             (family, {"combine": LOG_ADD_EXP, "identity": "-INFINITY", "finish": "s"}, binding))
        self.assertIsNone(infer_family(_Call(lambda x: torch.logsumexp(x, dim=(0, 1, 2))), x3))
        # A cumulative sum over the first dimension: col_scan; over a middle one: none.
        scan = infer_family(_Call(lambda x: torch.cumsum(x, dim=0)), x3)
        self.assertEqual((scan.family, scan.binding),
                         ("col_scan", {"in": (0, None), "rows": (0, (0,)), "cols": (0, (1, 2))}))
        self.assertIsNone(infer_family(_Call(lambda x: x.cumsum(1)), x3))
        # torch.max / torch.min over a dim, then the values: amax / amin.
        for fn in (lambda x: torch.max(x, dim=1).values, lambda x: x.max(1)[0], lambda x: x.max(dim=-2).values):
            guess = infer_family(_Call(fn), x3)
            self.assertEqual((guess.family, guess.params["combine"], guess.params["identity"], guess.binding),
                             ("mid_reduce", "fmaxf(a, b)", "-INFINITY", mid))
        self.assertEqual(infer_family(_Call(lambda x: torch.min(x, 2)[0]), x3).family, "row_reduce")
        self.assertEqual(infer_family(_Call(lambda x: x.min(dim=0).values), x3).params["combine"], "fminf(a, b)")
        x4 = [torch.randn(2, 3, 4, 5)]
        four = infer_family(_Call(lambda x: x.sum(dim=2)), x4)
        self.assertEqual((four.family, four.binding),
                         ("mid_reduce", {"in": (0, None), "batch": (0, (0, 1)), "rows": (0, (2,)), "cols": (0, (3,))}))
        for fn in (lambda x: torch.sum(x, dim=(1, 3)),  # dimensions not next to each other
                   lambda x: torch.sum(x, dim=(0, 1, 2, 3)),  # every dimension
                   lambda x: x.sum(),  # every element
                   lambda x: torch.sum(x, dim=1, dtype=torch.float64),  # a cast
                   lambda x: torch.max(x, dim=1),  # the (values, indices) pair itself
                   lambda x: torch.max(x),  # every element
                   lambda x: torch.max(x, dim=1).values * 2.0):  # a chain
            with self.subTest(fn=fn):
                self.assertIsNone(infer_family(_Call(fn), x4))
        self.assertIsNone(infer_family(_Call(lambda x: x.sum(dim=1)), [torch.randint(0, 9, (2, 4, 8))]),
                          "PyTorch sums integers into int64")

    def test_argmax_and_argmin_over_any_dimension(self):
        x3 = [torch.randn(2, 4, 8)]
        mid = {"in": (0, None), "batch": (0, (0,)), "rows": (0, (1,)), "cols": (0, (2,))}
        for fn in (lambda x: torch.argmax(x, dim=1), lambda x: x.argmax(1, keepdim=True), lambda x: x.argmax(dim=-2),
                   lambda x: torch.max(x, dim=1).indices, lambda x: x.max(1)[1]):
            guess = infer_family(_Call(fn), x3)
            self.assertEqual((guess.family, guess.params, guess.binding), ("mid_argmax", {}, mid))
        first = infer_family(_Call(lambda x: torch.argmin(x, dim=0)), x3)
        self.assertEqual((first.family, first.binding),
                         ("mid_argmin", {"in": (0, None), "batch": 1, "rows": (0, (0,)), "cols": (0, (1, 2))}))
        self.assertEqual(infer_family(_Call(lambda x: x.min(0).indices), self.x).family, "mid_argmin")
        # Over the last dimension: row_argmax / row_argmin (their index type is the task's: PyTorch's int64).
        rows = {"in": (0, None), "rows": (0, (0, 1)), "cols": (0, (2,))}
        for fn, family in ((lambda x: torch.argmax(x, dim=-1), "row_argmax"), (lambda x: x.argmin(2), "row_argmin"),
                           (lambda x: torch.max(x, 2).indices, "row_argmax")):
            guess = infer_family(_Call(fn), x3)
            self.assertEqual((guess.family, guess.binding), (family, rows))
        self.assertIsNone(infer_family(_Call(lambda x: torch.argmax(x)), x3), "an index into the flattened input")

    def test_cumulative_products_reverse_and_masked_scans_over_the_last_dimension(self):
        """row_cumprod (one cumprod), row_scan_reverse (flip, cumsum, flip) and row_scan_masked (cumsum of x times a
        bool mask), each over the last dimension, as KernelBench's 90_cumprod, 91_cumsum_reverse and
        93_masked_cumsum write them; bound as row_scan, the mask by its position among the forward's inputs."""
        x2, x3 = torch.randn(4, 8), torch.randn(2, 4, 8)
        rows2 = {"in": (0, None), "rows": (0, (0,)), "cols": (0, (1,))}
        rows3 = {"in": (0, None), "rows": (0, (0, 1)), "cols": (0, (2,))}
        cases = [
            (lambda x: torch.cumprod(x, dim=1), x2, "row_cumprod", rows2),
            (lambda x: x.cumprod(-1), x2, "row_cumprod", rows2),
            (lambda x: torch.cumprod(x, 2), x3, "row_cumprod", rows3),
            (lambda x: torch.cumsum(x.flip(1), dim=1).flip(1), x2, "row_scan_reverse", rows2),
            (lambda x: x.flip(-1).cumsum(-1).flip(-1), x2, "row_scan_reverse", rows2),
            (lambda x: torch.flip(torch.cumsum(torch.flip(x, [1]), 1), (-1,)), x2, "row_scan_reverse", rows2),
            (lambda x: x.flip(dims=[2]).cumsum(dim=-1).flip((2,)), x3, "row_scan_reverse", rows3),
            (lambda x: torch.flip(torch.cumsum(torch.flip(x, dims=(-1,)), dim=2), [2]), x3, "row_scan_reverse",
             rows3),
            (lambda x: torch.cumsum(x, dim=-1), x3, "row_scan", rows3),  # the plain scan unchanged
            (lambda x: torch.cumsum(x, dim=1) - x, x2, "row_scan_exclusive", rows2),
            (lambda x: torch.sub(x.cumsum(-1), x), x3, "row_scan_exclusive", rows3),
        ]
        for fn, x, family, binding in cases:
            with self.subTest(family=family, shape=tuple(x.shape)):
                guess = infer_family(_Call(fn), [x])
                self.assertIsNotNone(guess)
                self.assertEqual((guess.family, guess.params, guess.binding), (family, {}, binding))
        mask2, mask3 = torch.randint(0, 2, (4, 8)).bool(), torch.randint(0, 2, (2, 4, 8)).bool()
        for fn, inputs, binding in (
                (lambda x, m: torch.cumsum(x * m, dim=1), [x2, mask2], rows2 | {"mask": (1, None)}),
                (lambda x, m: (m * x).cumsum(-1), [x2, mask2], rows2 | {"mask": (1, None)}),
                (lambda x, m: torch.cumsum(torch.mul(x, m), dim=-1), [x3, mask3], rows3 | {"mask": (1, None)}),
                (lambda x, m: x.mul(m).cumsum(2), [x3, mask3], rows3 | {"mask": (1, None)}),
                # The mask first among the forward's inputs: each role bound to its own input.
                (lambda m, x: torch.cumsum(x * m, dim=-1), [mask3, x3],
                 {"in": (1, None), "rows": (1, (0, 1)), "cols": (1, (2,)), "mask": (0, None)})):
            with self.subTest(binding=binding):
                guess = infer_family(_Call2(fn), inputs)
                self.assertIsNotNone(guess)
                self.assertEqual((guess.family, guess.params, guess.binding), ("row_scan_masked", {}, binding))
        for model, inputs, why in (
                (_Call(lambda x: torch.cumprod(x, dim=0)), [x2], "a cumulative product over the first dimension"),
                (_Call(lambda x: x.cumprod(1)), [x3], "a cumulative product over a middle dimension"),
                (_Call(lambda x: torch.cumprod(x, dim=-1, dtype=torch.float64)), [x2], "a cast"),
                (_Call(lambda x: torch.cumprod(x, dim=1)), [torch.randint(0, 9, (4, 8))], "integers"),
                (_Call(lambda x: torch.cumsum(x.flip(0), dim=1).flip(0)), [x2], "the flip over another dimension"),
                (_Call(lambda x: torch.cumsum(x.flip(1), dim=1).flip(0)), [x2], "the flip back over another one"),
                (_Call(lambda x: torch.cumsum(x.flip(0), dim=0).flip(0)), [x2], "a reverse scan over the first"),
                (_Call(lambda x: torch.cumsum(x.flip(0, 1), dim=1).flip(0, 1)), [x2], "flips over two dimensions"),
                (_Call(lambda x: x.flip(-1)), [x2], "a flip without a cumsum"),
                (_Call(lambda x: x - torch.cumsum(x, dim=1)), [x2], "x minus its cumsum"),
                (_Call(lambda x: torch.cumsum(x, dim=0) - x), [x2], "an exclusive scan over the first dimension"),
                (_Call(lambda x: torch.cumsum(x, dim=1) - 2 * x), [x2], "cumsum minus something else"),
                (_Call(lambda x: x.flip(-1).flip(-1)), [x2], "two flips without a cumsum"),
                (_Call(lambda x: torch.cumsum(x.flip(1), dim=1)), [x2], "not flipped back"),
                (_Call(lambda x: torch.cumsum(x, dim=1).flip(1)), [x2], "not flipped first"),
                (_Call(lambda x: torch.cumprod(x.flip(1), dim=1).flip(1)), [x2], "a reverse cumulative product"),
                (_Call(lambda x: torch.cumsum(x.flip(-1) * 2.0, dim=-1).flip(-1)), [x2], "something between"),
                (_Call2(lambda x, y: torch.cumsum(x * y, dim=1)), [x2, torch.randn(4, 8)], "a float second factor"),
                (_Call2(lambda x, m: torch.cumsum(x * m, dim=0)), [x2, mask2], "a masked scan over the first"),
                (_Call2(lambda x, m: torch.cumsum(x * m, dim=-1)), [x2, torch.randint(0, 2, (1, 8)).bool()],
                 "a broadcast mask"),
                (_Call2(lambda x, m: torch.cumsum(x * m, dim=-1)), [x2, mask2.to(torch.uint8)], "a uint8 mask"),
                (_Call2(lambda x, m: torch.cumsum(x + m, dim=-1)), [x2, mask2], "not a product"),
                (_Call2(lambda x, m: torch.cumsum(x * x, dim=-1)), [x2, mask2], "the mask unused"),
                (_Call2(lambda x, m: torch.cumsum(torch.where(m, x, 0.0), dim=-1)), [x2, mask2],
                 "where: 0, not NaN, where x is not finite"),
                (_Call3(lambda x, m, n: torch.cumsum(x * m, dim=-1)), [x2, mask2, mask2], "a third input")):
            with self.subTest(why=why):
                guess = infer_family(model, inputs)
                self.assertIsNone(guess, guess)

    def test_a_product_of_two_matrices_is_a_gemm(self):
        guess = infer_family(_Call2(torch.matmul), [torch.randn(4, 8), torch.randn(8, 3)])
        self.assertEqual(guess.family, "gemm")
        self.assertIsNone(infer_family(_Call2(torch.matmul), [torch.randn(4, 8), torch.randn(2, 8, 3)]))
        self.assertEqual(infer_family(_Call2(lambda a, b: a @ b), [torch.randn(4, 8), torch.randn(8, 3)]).family,
                         "gemm")
        # A stack of matrices times one matrix (KernelBench's 3-D tensor-matrix product): one GEMM, M the product of
        # the leading dimensions.
        for shape, leading in (((2, 4, 8), (0, 1)), ((2, 3, 4, 8), (0, 1, 2))):
            guess = infer_family(_Call2(torch.matmul), [torch.randn(*shape), torch.randn(8, 3)])
            self.assertEqual((guess.family, guess.binding),
                             ("gemm", {"A": (0, None), "B": (1, None), "M": (0, leading), "K": (0, (len(shape) - 1,)),
                                       "N": (1, (1,))}))
        self.assertIsNone(infer_family(_Call2(torch.matmul), [torch.randn(8, 3), torch.randn(2, 3, 5)]))
        # A matrix times a vector or a one-column matrix (KernelBench's matrix-vector product): gemv.
        for b in (torch.randn(8), torch.randn(8, 1)):
            guess = infer_family(_Call2(torch.matmul), [torch.randn(4, 8), b])
            self.assertEqual((guess.family, guess.binding),
                             ("gemv", {"A": (0, None), "x": (1, None), "M": (0, (0,)), "N": (0, (1,))}))

    def test_an_einsum_that_is_a_matrix_product(self):
        def guess(equation, *shapes):
            return infer_family(_Call2(lambda a, b: torch.einsum(equation, a, b)), [torch.randn(*s) for s in shapes])

        four = guess("bijl,lk->bijk", (2, 3, 4, 8), (8, 5))  # KernelBench's 4-D tensor-matrix product
        self.assertEqual((four.family, four.binding["M"], four.binding["K"], four.binding["N"]),
                         ("gemm", (0, (0, 1, 2)), (0, (3,)), (1, (1,))))
        self.assertEqual(guess("ik, kj -> ij", (4, 8), (8, 5)).family, "gemm")
        self.assertEqual(guess("mk,nk->mn", (4, 8), (5, 8)).family, "gemm_nt")
        self.assertEqual(guess("bik,bkj->bij", (2, 4, 8), (2, 8, 5)).family, "batched_gemm")
        for equation, shapes in (("ik,kj->ji", ((4, 8), (8, 5))),  # the output transposed
                                 ("ik,kj->i", ((4, 8), (8, 5))),  # a further sum
                                 ("ik,jk->ji", ((4, 8), (5, 8))),
                                 ("bik,bkj->bji", ((2, 4, 8), (2, 8, 5))),
                                 ("...k,kj->...j", ((2, 4, 8), (8, 5)))):  # an ellipsis
            with self.subTest(equation=equation):
                self.assertIsNone(guess(equation, *shapes))

    def test_a_product_with_the_second_matrix_transposed_is_a_gemm_nt(self):
        ab = [torch.randn(4, 8), torch.randn(3, 8)]
        for fn in (lambda a, b: a @ b.T, lambda a, b: torch.matmul(a, b.t()), lambda a, b: torch.mm(a, b.transpose(0, 1)),
                   lambda a, b: a @ torch.transpose(b, 1, 0)):
            guess = infer_family(_Call2(fn), ab)
            self.assertEqual((guess.family, guess.binding["B"], guess.binding["N"]), ("gemm_nt", (1, None), (1, (0,))))
        self.assertIsNone(infer_family(_Call2(lambda a, b: b @ a.T), ab), "the transposed one must be the second")
        self.assertIsNone(infer_family(_Call2(lambda a, b: a.T @ b), [torch.randn(8, 4), torch.randn(8, 3)]))
        bare = infer_family(nn.Linear(8, 4, bias=False), self.x)
        self.assertEqual((bare.family, bare.binding["B"], bare.binding["K"]), ("gemm_nt", ("weight", None), ("weight", (1,))))
        self.assertIsNone(infer_family(_LinearThen(torch.relu, bias=False), self.x), "an epilogue without a bias")

    def test_a_product_with_a_transposed_parameter_is_a_gemm_nt(self):
        class WeightT(nn.Module):
            def __init__(self, spell) -> None:
                super().__init__()
                self.weight = nn.Parameter(torch.randn(4, 8))
                self.spell = spell

            def forward(self, x):
                return self.spell(x, self.weight)

        for spell in (lambda x, w: torch.matmul(x, w.T), lambda x, w: x @ w.t(),
                      lambda x, w: torch.mm(x, w.transpose(0, 1))):
            guess = infer_family(WeightT(spell), self.x)
            self.assertEqual((guess.family, guess.binding["B"], guess.binding["N"], guess.binding["K"]),
                             ("gemm_nt", ("weight", None), ("weight", (0,)), (0, (1,))))
        self.assertIsNone(infer_family(WeightT(lambda x, w: x @ w.T @ w), self.x), "two products")
        self.assertIsNone(infer_family(WeightT(lambda x, w: w @ x.T), self.x), "the input transposed")

    def test_an_elementwise_step_with_a_per_channel_parameter_is_a_channel_map(self):
        class Scaled(nn.Module):
            def __init__(self, shape, second=False) -> None:
                super().__init__()
                self.scale = nn.Parameter(torch.randn(shape))
                self.shift = nn.Parameter(torch.randn(shape)) if second else None

            def forward(self, x):
                x = torch.sigmoid(x * self.scale)
                return x + self.shift if self.shift is not None else x

        nchw = infer_family(Scaled((8, 1, 1)), [torch.randn(2, 8, 5, 5)])
        self.assertEqual((nchw.family, nchw.binding["channel"], nchw.binding["C"], nchw.binding["inner"]),
                         ("channel_map", ("scale", None), (0, (1,)), (0, (2, 3))))
        self.assertIn("(v * p)", nchw.params["op"])
        matrix = infer_family(Scaled((8,)), [torch.randn(4, 8)])
        self.assertEqual((matrix.family, matrix.binding["inner"]), ("channel_map", 1))
        self.assertIsNone(infer_family(Scaled((8,)), [torch.randn(2, 8, 5, 5)]), "(C,) broadcasts along W")
        self.assertIsNone(infer_family(Scaled((8, 1, 1), second=True), [torch.randn(2, 8, 5, 5)]), "two vectors")
        # A parameter of one value (KernelBench level 2's `self.scale = nn.Parameter(torch.ones((1,)))`, a
        # `torch.tensor(constant)`): one channel of everything, outer and C the constant 1.
        for shape in ((1,), (), (1, 1, 1)):
            scalar = infer_family(Scaled(shape), [torch.randn(2, 8, 5, 5)])
            self.assertEqual((scalar.family, scalar.binding),
                             ("channel_map", {"in": (0, None), "channel": ("scale", None), "outer": 1, "C": 1,
                                              "inner": (0, (0, 1, 2, 3))}))
        self.assertIn("(v * p)", scalar.params["op"])
        self.assertEqual(infer_family(Scaled(()), [torch.randn(7)]).binding["inner"], (0, (0,)), "a vector input")
        self.assertIsNone(infer_family(Scaled((), second=True), [torch.randn(4, 8)]), "two scalars")

    def test_chains_and_untraceable_modules_get_none(self):
        self.assertIsNone(infer_family(_Call(lambda x: torch.softmax(torch.relu(x), dim=-1)), self.x))
        self.assertIsNone(infer_family(_Call2(lambda a, b: torch.relu(a) + b), [torch.randn(4, 8), torch.randn(8)]),
                          "a broadcast second input")

    def test_reductions_over_consecutive_dimensions_view_them_as_one(self):
        x4 = [torch.randn(2, 3, 4, 5)]
        trailing = infer_family(_Call(lambda x: torch.mean(x, dim=(2, 3), keepdim=True)), x4)
        self.assertEqual((trailing.family, trailing.params["finish"], trailing.binding),
                         ("row_reduce", "s / n", {"in": (0, None), "rows": (0, (0, 1)), "cols": (0, (2, 3))}))
        self.assertEqual(infer_family(_Call(lambda x: x.mean(dim=[-1, 1, 2])), x4).binding,
                         {"in": (0, None), "rows": (0, (0,)), "cols": (0, (1, 2, 3))})
        leading = infer_family(_Call(lambda x: torch.amax(x, dim=(1, 0))), x4)
        self.assertEqual((leading.family, leading.params["combine"], leading.binding),
                         ("col_reduce", "fmaxf(a, b)", {"in": (0, None), "rows": (0, (0, 1)), "cols": (0, (2, 3))}))
        middle = infer_family(_Call(lambda x: torch.sum(x, dim=(1, 2))), x4)
        self.assertEqual((middle.family, middle.binding),
                         ("mid_reduce", {"in": (0, None), "batch": (0, (0,)), "rows": (0, (1, 2)), "cols": (0, (3,))}))
        self.assertIsNone(infer_family(_Call(lambda x: torch.argmax(x, dim=(2, 3))), x4))

    def test_a_global_pooling_is_a_row_reduction_of_the_planes(self):
        x4 = [torch.randn(2, 3, 4, 5)]
        for model in (nn.AdaptiveAvgPool2d(1), nn.AdaptiveAvgPool2d((1, 1)),
                      _Call(lambda x: F.adaptive_avg_pool2d(x, 1))):
            with self.subTest(model=model):
                guess = infer_family(model, x4)
                self.assertEqual((guess.family, guess.params["finish"], guess.binding),
                                 ("row_reduce", "s / n", {"in": (0, None), "rows": (0, (0, 1)), "cols": (0, (2, 3))}))
        peak = infer_family(nn.AdaptiveMaxPool3d((1, 1, 1)), [torch.randn(2, 3, 4, 5, 6)])
        self.assertEqual((peak.family, peak.params["combine"], peak.binding["cols"]), ("row_reduce", "fmaxf(a, b)",
                                                                                       (0, (2, 3, 4))))
        self.assertIsNone(infer_family(nn.AdaptiveAvgPool2d(2), x4), "an output of two by two")
        self.assertIsNone(infer_family(nn.AdaptiveMaxPool2d(1, return_indices=True), x4), "indices")
        self.assertIsNone(infer_family(nn.AdaptiveAvgPool2d(1), [torch.randn(3, 4, 5)]), "an unbatched input")

    def test_an_element_wise_graph_of_two_inputs_of_one_shape(self):
        ab = [torch.randn(4, 8), torch.randn(4, 8)]
        guess = infer_family(_Call2(lambda a, b: torch.multiply(a + b, b)), ab)
        self.assertEqual((guess.family, guess.params, guess.binding),
                         ("elementwise", {"op": "(a + b) * b"}, {"a": (0, None), "b": (1, None), "n": (0, (0, 1))}))
        self.assertEqual(infer_family(_Call2(lambda a, b: b - torch.relu(a)), ab).params["op"],
                         "b - (a > 0.0f ? a : 0.0f)")
        self.assertIsNone(infer_family(_Call2(lambda a, b: a * 2.0), ab), "the second input unused")
        self.assertIsNone(infer_family(_Call2(lambda a, b: a > b), ab), "a condition")

    def test_a_linear_layer_and_its_element_wise_chain_fuse_into_one_op(self):
        plain = infer_family(nn.Linear(8, 4), self.x)
        self.assertEqual((plain.family, plain.params), ("linear", {"op": "v"}))
        self.assertEqual(plain.binding, {"M": (0, (0,)), "N": ("weight", (0,)), "K": ("weight", (1,))})
        relu = infer_family(_LinearThen(lambda y: torch.relu(y)), self.x)
        self.assertEqual(relu.params["op"], "v > 0.0f ? v : 0.0f")
        self.assertEqual(relu.binding["N"], ("linear.weight", (0,)))
        scaled = infer_family(_LinearThen(lambda y: F.gelu(y) * 2), self.x)
        self.assertEqual(scaled.params["op"], "(0.5f * v * (1.0f + erff(v * 0.70710678118654752f))) * 2.0f")
        nested = infer_family(_LinearThen(lambda y: torch.sigmoid(y / 4.0) - 0.5), self.x)
        self.assertEqual(nested.params["op"], "([](float x) { return 1.0f / (1.0f + expf(-x)); }(v / 4.0f)) - 0.5f")
        self.assertEqual(infer_family(_LinearThen(lambda y: 1.0 - y), self.x).params["op"], "1.0f - v")
        functional = infer_family(_FunctionalLinear(bias=True), self.x)
        self.assertEqual((functional.family, functional.params["op"]), ("linear", _GELU_TANH_OP))
        self.assertEqual(functional.binding["N"], ("w", (0,)), "the module's own parameter, by its key")
        self.assertEqual(infer_family(_FunctionalLinear(bias=False), self.x).family, "gemm_nt")
        sequential = infer_family(nn.Sequential(nn.Linear(8, 4), nn.ReLU()), self.x)

        self.assertEqual((sequential.params["op"], sequential.binding["K"]), ("v > 0.0f ? v : 0.0f", ("0.weight", (1,))))
        rows3 = infer_family(_LinearThen(torch.tanh), [torch.randn(2, 3, 8)])
        self.assertEqual(rows3.binding["M"], (0, (0, 1)))
        # Not a chain of the product alone: its result used twice, a second input, no bias, a reduction.
        self.assertEqual(infer_family(_LinearThen(lambda y: y * torch.sigmoid(y)), self.x).params["op"],
                         "v * (1.0f / (1.0f + expf(-v)))")
        self.assertIsNone(infer_family(_LinearThen(lambda y: torch.sum(y, dim=1)), self.x))

    def test_a_convolution_with_its_bias_and_an_element_wise_chain_fuse_into_one_op(self):
        image = [torch.randn(2, 3, 9, 7)]
        relu = infer_family(_ConvThen(torch.relu), image)
        self.assertEqual((relu.family, relu.params), ("conv2d_nchw_bias", {"op": "v > 0.0f ? v : 0.0f"}))
        self.assertEqual(relu.binding, {"x": (0, None), "w": ("conv.weight", None), "N": (0, (0,)),
                                        "Cin": (0, (1,)), "H": (0, (2,)), "W": (0, (3,)),
                                        "Cout": ("conv.weight", (0,)), "K": ("conv.weight", (2,)), "pad": 1,
                                        "bias": ("conv.bias", None)})
        root = infer_family(nn.Conv2d(3, 5, 3, padding="same"), image)
        self.assertEqual((root.family, root.params, root.binding["pad"]), ("conv2d_nchw_bias", {"op": "v"}, 1))
        self.assertEqual(root.binding["w"], ("0.weight", None), "a root Conv2d is traced inside a Sequential")
        valid = infer_family(_ConvThen(lambda y: y * 0.5, padding=0), image)
        self.assertEqual((valid.params["op"], valid.binding["pad"]), ("v * 0.5f", 0))
        plain = infer_family(_ConvThen(bias=False), image)
        self.assertEqual((plain.family, plain.params), ("conv2d_nchw", {}))
        self.assertNotIn("bias", plain.binding)
        self.assertIsNone(infer_family(_ConvThen(torch.relu, bias=False), image), "no bias-less epilogue family")

    def test_a_per_channel_parameter_in_the_chain_is_p(self):
        image = [torch.randn(2, 3, 9, 7)]
        shifted = infer_family(_ConvPlusParameter(), image)
        self.assertEqual((shifted.family, shifted.params), ("conv2d_nchw_bias_channel",
                                                            {"op": "(v > 0.0f ? v : 0.0f) + p"}))
        self.assertEqual((shifted.binding["bias"], shifted.binding["channel"]), (("conv.bias", None), ("extra", None)))
        self.assertEqual(infer_family(_ConvPlusParameter((1, 5, 1, 1)), image).family, "conv2d_nchw_bias_channel")
        for shape, why in (((5,), "(Cout,) broadcasts along the width"), ((5, 7, 1), "not one value per channel"),
                           ((1, 1, 1), "one value, not a constant")):
            self.assertIsNone(infer_family(_ConvPlusParameter(shape), image), why)
        self.assertIsNone(infer_family(_ConvPlusParameter(stride=2), image), "no strided channel family yet")
        # The parameter is the convolution's bias when it is added right after a bias-less layer.
        self.assertIsNone(infer_family(_ConvPlusParameter(bias=False), image), "a bias-less layer, p after the ReLU")
        biased = infer_family(_ConvPlusParameter(bias=False, first=True), image)
        self.assertEqual((biased.family, biased.params["op"], biased.binding["bias"]),
                         ("conv2d_nchw_bias", "v > 0.0f ? v : 0.0f", ("extra", None)))
        x = [torch.randn(6, 8)]
        added = infer_family(_LinearWithParameters(lambda y, m: torch.sigmoid(y + m.add)), x)
        self.assertEqual((added.family, added.params["op"], added.binding["channel"]),
                         ("linear_channel", "[](float x) { return 1.0f / (1.0f + expf(-x)); }(v + p)", ("add", None)))
        self.assertEqual(infer_family(_LinearWithParameters(lambda y, m: y * m.scale), x).binding["channel"],
                         ("scale", None))
        self.assertIsNone(infer_family(_LinearWithParameters(lambda y, m: y * m.scale + m.add), x),
                          "two vectors: the families take one")
        self.assertIsNone(infer_family(_LinearWithParameters(lambda y, m: y * m.other), x), "a matrix")
        folded = infer_family(_LinearWithParameters(lambda y, m: torch.relu(y + m.add), bias=False), x)
        self.assertEqual((folded.family, folded.params["op"], folded.binding["bias"]),
                         ("linear", "v > 0.0f ? v : 0.0f", ("add", None)))
        twice = infer_family(_LinearWithParameters(lambda y, m: (y + m.add) * y, bias=False), x)
        self.assertIsNone(twice, "the product is used again: the add is no bias")

    def test_copies_and_tensor_constants_in_a_chain(self):
        x = [torch.randn(6, 8)]
        residual = infer_family(_LinearThen(lambda y: y * 0.5 + y.clone().detach()), x)
        self.assertEqual(residual.params["op"], "(v * 0.5f) + v")
        clipped = infer_family(_LinearThen(lambda y: torch.min(y, torch.tensor(0.25)) * 2.0), x)
        self.assertEqual(clipped.params["op"], "(fminf(v, 0.25f)) * 2.0f")
        on_device = infer_family(_LinearThen(lambda y: torch.max(y, torch.tensor(-1.0, device=y.device))), x)
        self.assertEqual(on_device.params["op"], "fmaxf(v, -1.0f)")
        self.assertIsNone(infer_family(_LinearThen(lambda y: torch.min(y, torch.tensor([0.25, 0.5, 1.0, 2.0]))), x),
                          "a constant of four values is no scalar")

    def test_any_other_convolution_geometry_gets_the_strided_family(self):
        image = [torch.randn(2, 3, 9, 7)]
        strided = infer_family(_ConvThen(torch.relu, stride=2), image)
        self.assertEqual((strided.family, strided.params),
                         ("conv2d_nchw_strided_bias", {"op": "v > 0.0f ? v : 0.0f"}))
        self.assertEqual(strided.binding, {"x": (0, None), "w": ("conv.weight", None), "N": (0, (0,)),
                                           "Cin": (0, (1,)), "Cout": ("conv.weight", (0,)), "H": (0, (2,)),
                                           "W": (0, (3,)), "KH": ("conv.weight", (2,)),
                                           "KW": ("conv.weight", (3,)), "SH": 2, "SW": 2, "PH": 1, "PW": 1,
                                           "DH": 1, "DW": 1, "bias": ("conv.bias", None)})
        per_axis = infer_family(_ConvThen(padding=(1, 0), bias=False), image)
        self.assertEqual((per_axis.family, per_axis.binding["PH"], per_axis.binding["PW"]),
                         ("conv2d_nchw_strided", 1, 0))
        rect = infer_family(nn.Conv2d(3, 4, (3, 5), stride=(1, 2), dilation=(2, 1), padding="valid", bias=False),
                            image)
        self.assertEqual((rect.family, rect.binding["KH"], rect.binding["KW"], rect.binding["SW"],
                          rect.binding["DH"], rect.binding["PH"]), ("conv2d_nchw_strided", ("0.weight", (2,)),
                                                                   ("0.weight", (3,)), 2, 2, 0))
        same = infer_family(nn.Conv2d(3, 4, (3, 5), dilation=2, padding="same", bias=False), image)
        self.assertEqual((same.binding["PH"], same.binding["PW"]), (2, 4), "same: dil*(k-1)/2 per axis")
        self.assertIsNone(infer_family(nn.Conv2d(3, 4, (2, 3), padding="same"), image),
                          "an even filter's 'same' pads one side more")
        self.assertIsNone(infer_family(nn.Conv2d(4, 4, 3, groups=2), [torch.randn(2, 4, 9, 7)]), "groups 1 only")
        self.assertIsNone(infer_family(nn.Conv2d(3, 4, 3, padding_mode="reflect"), image), "zero padding only")
        line = infer_family(nn.Conv1d(3, 6, 5, stride=3, padding=2, dilation=2, bias=False), [torch.randn(2, 3, 40)])
        self.assertEqual((line.family, line.binding["H"], line.binding["W"], line.binding["KH"],
                          line.binding["KW"], line.binding["SH"], line.binding["SW"], line.binding["PH"],
                          line.binding["PW"], line.binding["DH"], line.binding["DW"]),
                         ("conv2d_nchw_strided", 1, (0, (2,)), 1, ("0.weight", (2,)), 1, 3, 0, 2, 1, 2),
                         "a 1-D convolution is one row of height 1")

    def test_a_transposed_convolution_gets_the_transposed_family(self):
        image = [torch.randn(2, 3, 9, 7)]
        up = infer_family(nn.ConvTranspose2d(3, 5, 4, stride=2, padding=1, bias=False), image)
        self.assertEqual((up.family, up.params), ("conv_transpose2d_nchw", {}))
        self.assertEqual(up.binding, {"x": (0, None), "w": ("0.weight", None), "N": (0, (0,)), "Cin": (0, (1,)),
                                      "Cout": ("0.weight", (1,)), "H": (0, (2,)), "W": (0, (3,)),
                                      "KH": ("0.weight", (2,)), "KW": ("0.weight", (3,)), "SH": 2, "SW": 2,
                                      "PH": 1, "PW": 1, "DH": 1, "DW": 1, "OPH": 0, "OPW": 0},
                         "the weight is Cin x Cout x KH x KW: Cout is its second dimension")
        odd = infer_family(nn.ConvTranspose2d(3, 5, (3, 2), stride=(3, 2), padding=(2, 0), output_padding=(1, 1),
                                              dilation=(1, 2), bias=False), image)
        self.assertEqual([odd.binding[k] for k in ("SH", "SW", "PH", "PW", "DH", "DW", "OPH", "OPW")],
                         [3, 2, 2, 0, 1, 2, 1, 1])

        class Then(nn.Module):
            def __init__(self, bias=True, fn=torch.relu):
                super().__init__()
                self.up = nn.ConvTranspose2d(3, 5, 3, stride=2, bias=bias)
                self.extra = nn.Parameter(torch.randn(5, 1, 1))
                self.fn = fn

            def forward(self, x):
                return self.fn(self.up(x), self)

        relu = infer_family(Then(fn=lambda y, m: torch.relu(y) * 2.0), image)
        self.assertEqual((relu.family, relu.params["op"], relu.binding["bias"]),
                         ("conv_transpose2d_nchw_bias", "(v > 0.0f ? v : 0.0f) * 2.0f", ("up.bias", None)))
        folded = infer_family(Then(bias=False, fn=lambda y, m: torch.tanh(y + m.extra)), image)
        self.assertEqual((folded.family, folded.binding["bias"]), ("conv_transpose2d_nchw_bias", ("extra", None)))
        shifted = infer_family(Then(fn=lambda y, m: torch.tanh(y - m.extra)), image)
        self.assertEqual((shifted.family, shifted.params["op"], shifted.binding["channel"]),
                         ("conv_transpose2d_nchw_bias_channel", "[](float x) { return tanhf(x); }(v - p)",
                          ("extra", None)))
        line = infer_family(nn.ConvTranspose1d(3, 6, 5, stride=2, padding=1, output_padding=1, bias=False),
                            [torch.randn(2, 3, 40)])
        self.assertEqual([line.binding[k] for k in ("H", "KH", "SH", "SW", "PH", "PW", "DH", "OPH", "OPW")],
                         [1, 1, 1, 2, 0, 1, 1, 0, 1], "one row: no padding, stride and dilation 1 along its height")
        self.assertIsNone(infer_family(nn.ConvTranspose2d(4, 4, 3, groups=2), [torch.randn(2, 4, 9, 7)]),
                          "groups 1 only")

    def test_a_3d_convolution_gets_the_ncdhw_families(self):
        volume = [torch.randn(2, 3, 6, 9, 7)]
        conv = infer_family(nn.Conv3d(3, 5, (3, 2, 4), stride=(1, 2, 3), padding=(1, 0, 2), dilation=(2, 1, 1),
                                      bias=False), volume)
        self.assertEqual((conv.family, conv.params), ("conv3d_ncdhw", {}))
        self.assertEqual(conv.binding, {"x": (0, None), "w": ("0.weight", None), "N": (0, (0,)), "Cin": (0, (1,)),
                                        "Cout": ("0.weight", (0,)), "D": (0, (2,)), "H": (0, (3,)), "W": (0, (4,)),
                                        "KD": ("0.weight", (2,)), "KH": ("0.weight", (3,)), "KW": ("0.weight", (4,)),
                                        "SD": 1, "SH": 2, "SW": 3, "PD": 1, "PH": 0, "PW": 2, "DD": 2, "DH": 1,
                                        "DW": 1})
        same = infer_family(nn.Conv3d(3, 5, 3, padding="same", bias=False), volume)
        self.assertEqual([same.binding[k] for k in ("PD", "PH", "PW")], [1, 1, 1])
        up = infer_family(nn.ConvTranspose3d(3, 5, 4, stride=2, padding=1, output_padding=(1, 0, 1), bias=False),
                          volume)
        self.assertEqual((up.family, up.binding["Cout"], up.binding["OPD"], up.binding["OPH"], up.binding["OPW"]),
                         ("conv_transpose3d_ncdhw", ("0.weight", (1,)), 1, 0, 1),
                         "the weight is Cin x Cout x KD x KH x KW: Cout is its second dimension")

        class Then(nn.Module):
            def __init__(self, layer, fn):
                super().__init__()
                self.layer = layer
                self.extra = nn.Parameter(torch.randn(5, 1, 1, 1))
                self.fn = fn

            def forward(self, x):
                return self.fn(self.layer(x), self)

        clamp = infer_family(Then(nn.ConvTranspose3d(3, 5, 3, stride=2), lambda y, m: torch.clamp(y, min=-1.0) / 2),
                             volume)
        self.assertEqual((clamp.family, clamp.params["op"], clamp.binding["bias"]),
                         ("conv_transpose3d_ncdhw_bias", "(fmaxf(v, -1.0f)) / 2.0f", ("layer.bias", None)))
        folded = infer_family(Then(nn.Conv3d(3, 5, 3, bias=False), lambda y, m: torch.relu(y + m.extra)), volume)
        self.assertEqual((folded.family, folded.binding["bias"]), ("conv3d_ncdhw_bias", ("extra", None)))
        shifted = infer_family(Then(nn.Conv3d(3, 5, 3), lambda y, m: torch.relu(y) + m.extra), volume)
        self.assertEqual((shifted.family, shifted.params["op"], shifted.binding["channel"]),
                         ("conv3d_ncdhw_bias_channel", "(v > 0.0f ? v : 0.0f) + p", ("extra", None)))
        self.assertIsNone(infer_family(Then(nn.ConvTranspose3d(3, 5, 3), lambda y, m: torch.relu(y) * m.extra),
                                       volume), "a per-channel parameter after a 3-D transposed convolution: none yet")
        self.assertIsNone(infer_family(nn.Conv3d(4, 4, 3, groups=2), [torch.randn(2, 4, 5, 9, 7)]), "groups 1 only")
        self.assertIsNone(infer_family(nn.Conv3d(3, 4, 3), [torch.randn(3, 6, 9, 7)]), "an unbatched input")

    def test_attention_binds_batch_times_heads(self):
        q = [torch.randn(2, 3, 16, 8) for _ in range(3)]
        causal = infer_family(_Call3(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, is_causal=True)), q)
        self.assertEqual((causal.family, causal.params), ("attention", {"causal": "1"}))
        self.assertEqual(causal.binding, {"Q": (0, None), "K": (1, None), "V": (2, None), "BH": (0, (0, 1)),
                                          "S": (0, (2,)), "D": (0, (3,))})
        plain = infer_family(_Call3(F.scaled_dot_product_attention), q)
        self.assertEqual(plain.params, {"causal": "0"})
        scaled = infer_family(_Call3(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, scale=0.5)), q)
        self.assertEqual((scaled.family, scaled.binding["scale"]), ("attention", 0.5))
        self.assertIsNone(infer_family(_Call3(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, dropout_p=0.1)),
                                       q))

    def test_attention_written_out_with_products_and_a_softmax(self):
        q3 = [torch.randn(6, 16, 8) for _ in range(3)]
        bmm = infer_family(_Call3(lambda a, b, c: torch.bmm(torch.softmax(torch.bmm(a, b.transpose(1, 2)) * 0.25,
                                                                          dim=-1), c)), q3)
        self.assertEqual((bmm.family, bmm.params, bmm.binding),
                         ("attention", {"causal": "0"}, {"Q": (0, None), "K": (1, None), "V": (2, None),
                                                         "BH": (0, (0,)), "S": (0, (1,)), "D": (0, (2,)),
                                                         "scale": 0.25}))
        q4 = [torch.randn(2, 3, 16, 8) for _ in range(3)]
        four = infer_family(_Call3(lambda a, b, c: F.softmax(a @ b.transpose(-2, -1) / 8.0, dim=3) @ c), q4)
        self.assertEqual((four.binding["BH"], four.binding["scale"]), ((0, (0, 1)), 0.125))
        for fn in (lambda a, b, c: torch.bmm(torch.softmax(torch.bmm(a, b.transpose(1, 2)), dim=1), c),  # not last
                   lambda a, b, c: torch.bmm(torch.softmax(torch.bmm(a, b), dim=-1), c),  # k not transposed
                   lambda a, b, c: torch.bmm(torch.softmax(torch.bmm(a, b.transpose(1, 2)) + 1.0, dim=-1), c),
                   lambda a, b, c: torch.bmm(torch.softmax(torch.bmm(b, a.transpose(1, 2)), dim=-1), c)):
            self.assertIsNone(infer_family(_Call3(fn), q3))

    def test_pooling_without_padding(self):
        x4 = [torch.randn(2, 3, 8, 8)]
        pooled = infer_family(nn.MaxPool2d(2), x4)
        self.assertEqual((pooled.family, pooled.params["combine"]), ("pool2d", "fmaxf(a, b)"))
        self.assertEqual(infer_family(nn.AvgPool2d(3, stride=1), x4).params["finish"], "s / k")
        self.assertIsNone(infer_family(nn.MaxPool2d(2, ceil_mode=True), x4))

    def test_a_depthwise_convolution_gets_the_depthwise_family(self):
        x4 = [torch.randn(2, 4, 9, 7)]
        plain = infer_family(nn.Conv2d(4, 4, (3, 5), stride=(1, 2), padding=(1, 0), dilation=(2, 1), groups=4,
                                       bias=False), x4)
        self.assertEqual((plain.family, plain.binding),
                         ("depthwise_conv2d_nchw", {"x": (0, None), "w": ("0.weight", None), "N": (0, (0,)),
                                                    "C": (0, (1,)), "H": (0, (2,)), "W": (0, (3,)),
                                                    "KH": ("0.weight", (2,)), "KW": ("0.weight", (3,)), "SH": 1,
                                                    "SW": 2, "PH": 1, "PW": 0, "DH": 2, "DW": 1}))
        one_d = infer_family(nn.Conv1d(4, 4, 5, padding=2, groups=4, bias=False), [torch.randn(2, 4, 30)])
        self.assertEqual((one_d.family, one_d.binding["H"], one_d.binding["KH"], one_d.binding["W"]),
                         ("depthwise_conv2d_nchw", 1, 1, (0, (2,))))
        relu6 = infer_family(nn.Sequential(nn.Conv2d(4, 4, 3, padding=1, groups=4), nn.ReLU()), x4)
        self.assertEqual((relu6.family, relu6.binding["bias"], relu6.params["op"]),
                         ("depthwise_conv2d_nchw_bias", ("0.bias", None), "v > 0.0f ? v : 0.0f"))
        self.assertIsNone(infer_family(nn.Conv2d(4, 8, 3, groups=4), x4), "a channel multiplier of 2")

    def test_pooling_with_padding_dilation_or_in_one_or_three_dimensions(self):
        x3, x4, x5 = [torch.randn(2, 3, 16)], [torch.randn(2, 3, 8, 8)], [torch.randn(2, 3, 6, 8, 8)]
        padded = infer_family(nn.MaxPool2d(2, padding=1), x4)
        self.assertEqual((padded.family, padded.params["finish"], padded.binding["PH"], padded.binding["D"],
                          padded.binding["KD"], padded.binding["H"]), ("pool3d_ncdhw", "s", 1, 1, 1, (0, (2,))))
        one_d = infer_family(nn.MaxPool1d(8, stride=1, padding=4, dilation=3), x3)
        self.assertEqual({k: one_d.binding[k] for k in ("D", "H", "W", "KW", "SW", "PW", "DW", "KH", "DH")},
                         {"D": 1, "H": 1, "W": (0, (2,)), "KW": 8, "SW": 1, "PW": 4, "DW": 3, "KH": 1, "DH": 1})
        three_d = infer_family(nn.AvgPool3d((3, 2, 2), stride=2, padding=1), x5)
        self.assertEqual((three_d.params["finish"], three_d.binding["D"], three_d.binding["KD"], three_d.binding["KW"],
                          three_d.binding["SD"], three_d.binding["DD"]), ("s / k", (0, (2,)), 3, 2, 2, 1))
        excluding = infer_family(nn.AvgPool1d(4, padding=2, count_include_pad=False), x3)
        self.assertEqual((excluding.family, excluding.params["finish"]), ("pool3d_ncdhw", "s / v"))
        self.assertIsNone(infer_family(nn.MaxPool3d(2, ceil_mode=True), x5), "ceil mode")
        self.assertIsNone(infer_family(nn.MaxPool1d(2, return_indices=True), x3), "indices")
        self.assertIsNone(infer_family(nn.AvgPool2d(2, padding=1, divisor_override=3), x4), "a divisor of its own")
        self.assertIsNone(infer_family(nn.MaxPool2d(2, padding=1), [torch.randn(3, 8, 8)]), "unbatched")


    def test_an_element_wise_graph_of_the_input_is_one_activation_op(self):
        cases = {
            _Chain(): "(x > 0.0f ? x : 0.0f) * 2.0f",
            _Call(lambda x: torch.where(x > 0, x, 0.2 * x)): "(x > 0.0f) ? x : (0.2f * x)",
            _Call(lambda x: F.hardtanh(x, min_val=-0.5, max_val=0.5)): "fminf(fmaxf(x, -0.5f), 0.5f)",
            nn.Hardtanh(): "fminf(fmaxf(x, -1.0f), 1.0f)",
            _Call(lambda x: torch.clamp(x, min=0.0)): "fmaxf(x, 0.0f)",
            _Call(lambda x: x.clamp_max(3)): "fminf(x, 3.0f)",
            _Call(lambda x: x * torch.sigmoid(x)): "x * (1.0f / (1.0f + expf(-x)))",
            _Call(lambda x: F.leaky_relu(x, 0.1)): "x > 0.0f ? x : 0.1f * x",
            _Call(lambda x: -x.pow(2) + 1.0): "([](float x) { return -x; }(x * x)) + 1.0f",
            _Call(lambda x: (x > 0) * x): "(x > 0.0f) * x",
            _Call(lambda x: torch.rsqrt(x.float().contiguous())): "rsqrtf(x)",
        }
        for model, op in cases.items():
            with self.subTest(op=op):
                guess = infer_family(model, self.x)
                self.assertEqual((guess.family, guess.params), ("activation", {"op": op}))
        for model in (_Call(lambda x: x > 0),  # a condition, not a value
                      _Call(lambda x: x + x.mean()),  # a reduction inside
                      _Call(lambda x: x),  # a copy
                      _Call(lambda x: torch.clamp(x)),  # no bound: PyTorch refuses it; nothing to compute
                      _Call(lambda x: x.pow(x))):  # a tensor exponent
            with self.subTest(model=model):
                self.assertIsNone(infer_family(model, self.x))

    def test_a_batched_product_is_a_batched_gemm(self):
        ab = [torch.randn(2, 4, 8), torch.randn(2, 8, 3)]
        for fn in (torch.bmm, torch.matmul, lambda a, b: a @ b):
            guess = infer_family(_Call2(fn), ab)
            self.assertEqual((guess.family, guess.binding),
                             ("batched_gemm", {"A": (0, None), "B": (1, None), "batch": (0, (0,)), "M": (0, (1,)),
                                               "K": (0, (2,)), "N": (1, (2,))}))
        self.assertIsNone(infer_family(_Call2(lambda a, b: torch.bmm(b, a)), [ab[1], ab[0]][::-1]))

    def test_the_transposed_copy_of_a_matrix(self):
        for fn in (lambda x: x.t().contiguous(), lambda x: x.T, lambda x: x.permute(1, 0).contiguous(),
                   lambda x: torch.transpose(x, 0, 1)):
            guess = infer_family(_Call(fn), self.x)
            self.assertEqual((guess.family, guess.binding),
                             ("transpose", {"in": (0, None), "rows": (0, (0,)), "cols": (0, (1,))}))
        self.assertIsNone(infer_family(_Call(lambda x: x.t() * 2.0), self.x))
        self.assertIsNone(infer_family(_Call(lambda x: x.transpose(1, 2).contiguous()), [torch.randn(2, 3, 4)]))

    def test_an_embedding_lookup_gathers_rows(self):
        ids = [torch.randint(0, 10, (2, 5))]
        for model in (nn.Embedding(10, 4), _Embed(), _Embed(functional=True)):
            guess = infer_family(model, ids)
            table = "0.weight" if isinstance(model, nn.Embedding) else "table.weight" \
                if not model.functional else "weight"
            self.assertEqual((guess.family, guess.binding, guess.gathered),
                             ("gather_rows", {"table": (table, None), "idx": (0, None), "n": (0, (0, 1)),
                                              "dim": (table, (1,))}, (table,)))
        self.assertIsNone(infer_family(nn.Embedding(10, 4, max_norm=1.0), ids), "max_norm renormalises rows")
        self.assertIsNone(infer_family(nn.Embedding(10, 4), [torch.randn(2, 5)]), "indices are integers")

    def test_layer_norm_and_rms_norm_over_the_last_dimension(self):
        x3 = [torch.randn(2, 3, 8)]
        ln = infer_family(nn.LayerNorm(8, eps=1e-6), x3)
        self.assertEqual((ln.family, ln.binding),
                         ("layernorm", {"in": (0, None), "gamma": ("0.weight", None), "beta": ("0.bias", None),
                                        "N": (0, (0, 1)), "C": (0, (2,)), "eps": 1e-6}))
        functional = infer_family(_Norm(lambda m, x: F.layer_norm(x, (8,), m.w, m.b)), x3)
        self.assertEqual((functional.family, functional.binding["gamma"], functional.binding["eps"]),
                         ("layernorm", ("w", None), 1e-5))
        rms = infer_family(nn.RMSNorm(8, eps=1e-5), x3)
        self.assertEqual((rms.family, rms.binding["weight"], rms.binding["eps"]), ("rmsnorm", ("0.weight", None), 1e-5))
        written = (
            lambda m, x: x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * m.w,
            lambda m, x: m.w * (x / torch.sqrt(torch.mean(x * x, -1, keepdim=True) + 1e-6)),
            lambda m, x: (x.float() * torch.rsqrt(torch.square(x.float()).mean(2, keepdim=True) + 1e-6)).type_as(x)
            * m.w,
        )
        for fn in written:
            guess = infer_family(_Norm(fn), x3)
            self.assertEqual((guess.family, guess.binding["weight"], guess.binding["eps"], guess.binding["N"]),
                             ("rmsnorm", ("w", None), 1e-6, (0, (0, 1))))
        for fn in (lambda m, x: x * torch.rsqrt(x.pow(2).mean(dim=1, keepdim=True) + 1e-6) * m.w,  # not the last
                   lambda m, x: x * torch.rsqrt(x.pow(2).mean(dim=-1) + 1e-6) * m.w,  # no keepdim
                   lambda m, x: x * torch.rsqrt(x.pow(3).mean(dim=-1, keepdim=True) + 1e-6) * m.w):
            self.assertIsNone(infer_family(_Norm(fn), x3))
        self.assertIsNone(infer_family(nn.LayerNorm(8, bias=False), x3), "the family takes a bias")
        # Over the trailing dimensions (KernelBench's nn.LayerNorm((features, dim1, dim2))): rows of their product.
        trailing = infer_family(nn.LayerNorm((3, 8)), x3)
        self.assertEqual((trailing.family, trailing.binding["N"], trailing.binding["C"]),
                         ("layernorm", (0, (0,)), (0, (1, 2))))
        self.assertIsNone(infer_family(nn.LayerNorm((2, 3, 8)), x3), "no leading dimension left")
        self.assertIsNone(infer_family(nn.LayerNorm((2, 8)), x3), "not the trailing dimensions")
        self.assertIsNone(infer_family(nn.RMSNorm(8), x3), "eps None is the precision's own")

    def test_instance_group_and_affine_free_layer_norms(self):
        x4 = [torch.randn(2, 6, 5, 7)]
        plain = infer_family(nn.InstanceNorm2d(6), x4)
        self.assertEqual((plain.family, plain.binding),
                         ("row_standardize", {"x": (0, None), "eps": 1e-5, "rows": (0, (0, 1)), "cols": (0, (2, 3))}))
        self.assertEqual(infer_family(nn.InstanceNorm1d(6, eps=1e-3), [torch.randn(2, 6, 9)]).binding,
                         {"x": (0, None), "eps": 1e-3, "rows": (0, (0, 1)), "cols": (0, (2,))})
        affine = infer_family(nn.InstanceNorm2d(6, affine=True), x4)
        self.assertEqual((affine.family, affine.binding["G"], affine.binding["gamma"], affine.binding["HW"]),
                         ("group_norm", (0, (1,)), ("0.weight", None), (0, (2, 3))))
        group = infer_family(nn.GroupNorm(3, 6), x4)
        self.assertEqual((group.family, group.binding),
                         ("group_norm", {"x": (0, None), "eps": 1e-5, "gamma": ("0.weight", None),
                                         "beta": ("0.bias", None), "N": (0, (0,)), "C": (0, (1,)),
                                         "HW": (0, (2, 3)), "G": 3}))
        layer = infer_family(nn.LayerNorm((5, 7), elementwise_affine=False), x4)
        self.assertEqual((layer.family, layer.binding["rows"], layer.binding["cols"]),
                         ("row_standardize", (0, (0, 1)), (0, (2, 3))))
        self.assertIsNone(infer_family(nn.InstanceNorm2d(6, track_running_stats=True), x4), "running statistics")
        self.assertIsNone(infer_family(nn.InstanceNorm2d(6), [torch.randn(6, 5, 7)]), "an unbatched input")
        self.assertIsNone(infer_family(nn.GroupNorm(3, 6, affine=False), x4), "rows N * G: no shape product")
        # A GroupNorm of an N x C input (after a linear layer): planes of one element.
        flat = infer_family(nn.GroupNorm(3, 6), [torch.randn(4, 6)])
        self.assertEqual((flat.family, flat.binding["C"], flat.binding["HW"]), ("group_norm", (0, (1,)), (0, ())))

    def test_batch_norm_by_the_batch_or_by_its_running_statistics(self):
        x4 = [torch.randn(2, 6, 5, 7)]
        train = infer_family(nn.BatchNorm2d(6), x4)  # a module is built in training mode
        self.assertEqual((train.family, train.binding, train.unused),
                         ("batchnorm_train", {"x": (0, None), "gamma": ("0.weight", None), "beta": ("0.bias", None),
                                              "eps": 1e-5, "N": (0, (0,)), "C": (0, (1,)), "H": (0, (2,)),
                                              "W": (0, (3,))},
                          ("0.running_mean", "0.running_var", "0.num_batches_tracked")))
        one_d = infer_family(nn.BatchNorm1d(6), [torch.randn(4, 6, 9)])
        self.assertEqual((one_d.binding["H"], one_d.binding["W"]), (1, (0, (2,))))
        self.assertEqual(infer_family(nn.BatchNorm3d(6), [torch.randn(2, 6, 3, 5, 7)]).binding["H"], (0, (2, 3)))
        stateless = infer_family(nn.BatchNorm2d(6, track_running_stats=False), x4)
        self.assertEqual((stateless.family, stateless.unused), ("batchnorm_train", ()))
        frozen = infer_family(nn.BatchNorm2d(6).eval(), x4)
        self.assertEqual((frozen.family, frozen.binding["mean"], frozen.binding["var"], frozen.unused),
                         ("batchnorm", ("0.running_mean", None), ("0.running_var", None), ("0.num_batches_tracked",)))
        self.assertIsNone(infer_family(nn.BatchNorm2d(6, affine=False), x4), "the families take gamma and beta")
        self.assertIsNone(infer_family(nn.BatchNorm2d(6), [torch.randn(2, 6, 5)]), "BatchNorm2d wants 4-D")

    def test_the_input_scaled_by_a_statistic_of_itself(self):
        x2, x4 = [torch.randn(4, 8)], [torch.randn(2, 6, 5, 7)]
        rows2 = {"in": (0, None), "rows": (0, (0,)), "cols": (0, (1,))}
        l2 = ("v * v", "a + b", "0.0f", "rsqrtf(s)")
        cases = [  # (module, input, family, (map, combine, identity, finish), binding)
            (lambda x: x / torch.norm(x, p=2, dim=1, keepdim=True), x2, "row_normalize", l2, rows2),
            (lambda x: x / x.norm(dim=-1, keepdim=True), x2, "row_normalize", l2, rows2),
            (lambda x: x / torch.linalg.vector_norm(x, 2, 1, True), x2, "row_normalize", l2, rows2),
            (lambda x: x / torch.norm(x, p="fro"), x4, "row_normalize", l2,
             {"in": (0, None), "rows": 1, "cols": (0, (0, 1, 2, 3))}),
            (lambda x: x / torch.mean(torch.abs(x), dim=1, keepdim=True), x2, "row_normalize",
             ("fabsf(v)", "a + b", "0.0f", "(1.0f / (s / n))"), rows2),
            (lambda x: x / torch.norm(x, p=1, dim=1, keepdim=True), x2, "row_normalize",
             ("fabsf(v)", "a + b", "0.0f", "(1.0f / s)"), rows2),
            (lambda x: x / torch.norm(x, p=float("inf"), dim=1, keepdim=True), x2, "row_normalize",
             ("fabsf(v)", "fmaxf(a, b)", "-INFINITY", "(1.0f / s)"), rows2),
            (lambda x: F.normalize(x, dim=-1), x2, "row_normalize",
             ("v * v", "a + b", "0.0f", "(1.0f / fmaxf(sqrtf(s), 1e-12f))"), rows2),
            (lambda x: x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6), x2, "row_normalize",
             ("v * v", "a + b", "0.0f", "rsqrtf((1e-06f + (s / n)))"), rows2),
            (lambda x: x / x.sum(dim=(2, 3), keepdim=True), x4, "row_normalize", ("v", "a + b", "0.0f", "(1.0f / s)"),
             {"in": (0, None), "rows": (0, (0, 1)), "cols": (0, (2, 3))}),
            # KernelBench's RMSNorm over the channels, and F.normalize's default dim=1 of an NCHW tensor.
            (lambda x: x / torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + 1e-5), x4, "mid_normalize",
             ("v * v", "a + b", "0.0f", "rsqrtf((1e-05f + (s / n)))"),
             {"in": (0, None), "batch": (0, (0,)), "rows": (0, (1,)), "cols": (0, (2, 3))}),
            (lambda x: F.normalize(x), x4, "mid_normalize",
             ("v * v", "a + b", "0.0f", "(1.0f / fmaxf(sqrtf(s), 1e-12f))"),
             {"in": (0, None), "batch": (0, (0,)), "rows": (0, (1,)), "cols": (0, (2, 3))}),
            (lambda x: x / x.abs().sum(0, keepdim=True), x4,
             "mid_normalize", ("fabsf(v)", "a + b", "0.0f", "(1.0f / s)"),
             {"in": (0, None), "batch": 1, "rows": (0, (0,)), "cols": (0, (1, 2, 3))}),
        ]
        for fn, x, family, (map_, combine, identity, finish), binding in cases:
            guess = infer_family(_Call(fn), x)
            self.assertIsNotNone(guess, binding)
            self.assertEqual((guess.family, guess.params, guess.binding),
                             (family, {"map": map_, "combine": combine, "identity": identity, "finish": finish},
                              binding))
        for fn in (lambda x: x / torch.norm(x, dim=1),  # no keepdim: broadcasts against the wrong dimension
                   lambda x: x / torch.norm(x, p=3, dim=1, keepdim=True),  # another p
                   lambda x: x / x.norm(dim=(1, 3), keepdim=True),  # not trailing dimensions
                   lambda x: x / (torch.norm(x, dim=1, keepdim=True) + x.sum(dim=2, keepdim=True)),  # two statistics
                   lambda x: torch.relu(x) / torch.norm(x, dim=1, keepdim=True),  # not the input itself
                   lambda x: x / torch.norm(torch.exp(x), dim=1, keepdim=True)):  # a map no family has
            self.assertIsNone(infer_family(_Call(fn), x4))

    def test_scalar_losses_of_two_inputs(self):
        pair = [torch.randn(4, 8), torch.randn(4, 8)]
        binding = {"x": (0, None), "y": (1, None), "n": (0, (0, 1))}
        smooth = "[](float z) { return z < 0.5f ? 0.5f * z * z / 0.5f : z - 0.5f * 0.5f; }(fabsf(x - y))"
        smooth1 = "[](float z) { return z < 1.0f ? 0.5f * z * z / 1.0f : z - 0.5f * 1.0f; }(fabsf(x - y))"
        huber = "[](float z) { return z < 2.0f ? 0.5f * z * z : 2.0f * (z - 0.5f * 2.0f); }(fabsf(x - y))"
        cases = [
            # An element-wise expression of both inputs, then a mean or a sum of every element.
            (_Call2(lambda p, t: torch.mean((p - t) ** 2)), "[](float x) { return x * x; }(x - y)", "s / n"),
            (_Call2(lambda p, t: ((p - t) * (p - t)).mean()), "(x - y) * (x - y)", "s / n"),
            (_Call2(lambda p, t: torch.mean(torch.clamp(1 - p * t, min=0))), "fmaxf(1.0f - (x * y), 0.0f)", "s / n"),
            (_Call2(lambda p, t: (p - t).abs().sum()), "[](float x) { return fabsf(x); }(x - y)", "s"),
            (_Call2(lambda p, t: torch.sum(torch.abs(t - p))), "[](float x) { return fabsf(x); }(y - x)", "s"),
            # PyTorch's losses, as functions (input and target in either order) and as modules.
            (_Call2(F.mse_loss), "(x - y) * (x - y)", "s / n"),
            (_Call2(lambda p, t: F.mse_loss(t, p, reduction="sum")), "(y - x) * (y - x)", "s"),
            (nn.MSELoss(), "(x - y) * (x - y)", "s / n"),
            (_Call2(lambda p, t: F.l1_loss(p, t)), "fabsf(x - y)", "s / n"),
            (nn.L1Loss(reduction="sum"), "fabsf(x - y)", "s"),
            (_Call2(lambda p, t: F.smooth_l1_loss(p, t, beta=0.5)), smooth, "s / n"),
            (nn.SmoothL1Loss(beta=0.5), smooth, "s / n"),
            (nn.SmoothL1Loss(), smooth1, "s / n"),
            (_Call2(lambda p, t: F.smooth_l1_loss(p, t, beta=0.0, reduction="sum")), "fabsf(x - y)", "s"),
            (_Call2(lambda p, t: F.huber_loss(p, t, delta=2.0)), huber, "s / n"),
            (nn.HuberLoss(delta=2.0, reduction="sum"), huber, "s"),
            (_Call2(F.huber_loss), "[](float z) { return z < 1.0f ? 0.5f * z * z : 1.0f * (z - 0.5f * 1.0f); }"
                                   "(fabsf(x - y))", "s / n"),
        ]
        for model, loss_map, finish in cases:
            with self.subTest(map=loss_map, finish=finish):
                guess = infer_family(model, pair)
                self.assertEqual((guess.family, guess.params, guess.binding),
                                 ("loss", {"map": loss_map, "finish": finish}, binding))
        sub_module = _Call2(nn.SmoothL1Loss(beta=0.5))  # a loss module inside the Model: a call_module node
        self.assertEqual(infer_family(sub_module, pair).params["map"], smooth)
        three = infer_family(nn.MSELoss(), [torch.randn(2, 3, 4), torch.randn(2, 3, 4)])
        self.assertEqual(three.binding["n"], (0, (0, 1, 2)))
        self.assertIn("smooth L1 loss (beta 0.5)", infer_family(nn.SmoothL1Loss(beta=0.5), pair).reason)
        for model, inputs, why in (
                (nn.MSELoss(), [torch.randn(4, 8), torch.randn(8)], "broadcasting"),
                (_Call2(lambda p, t: torch.mean((p - t) ** 2)), [torch.randn(4, 1), torch.randn(1, 8)], "broadcasting"),
                (nn.MSELoss(), [torch.randn(4, 8), torch.randn(8, 4)], "another shape, the same count"),
                (nn.L1Loss(reduction="none"), pair, "reduction none: a tensor"),
                (_Call2(lambda p, t: F.mse_loss(p, t, reduction="none")), pair, "reduction none: a tensor"),
                (_Call2(lambda p, t: torch.mean((p - t) ** 2, dim=1)), pair, "a mean over a dimension"),
                (_Call2(lambda p, t: (p - t).abs().sum(dim=-1)), pair, "a sum over a dimension"),
                (_Call2(lambda p, t: torch.sum((p - t) ** 2, dtype=torch.float64)), pair, "a cast"),
                (_Call2(lambda p, t: torch.mean(p * 2.0)), pair, "one input unused"),
                (_Call2(lambda p, t: torch.mean((p - t) ** 2) * 2.0), pair, "something after the reduction"),
                (_Call2(lambda p, t: torch.mean((p - t) ** 2) + t.sum()), pair, "a second reduction"),
                (_Call2(lambda p, t: torch.amax((p - t) ** 2)), pair, "not a sum"),
                (_Call2(lambda p, t: torch.mean(p > t)), pair, "a condition"),
                (_Call2(lambda p, t: F.smooth_l1_loss(p, p)), pair, "one input twice"),
                (nn.MSELoss(), [torch.randint(0, 9, (4, 8)), torch.randint(0, 9, (4, 8))], "integers")):
            with self.subTest(why=why):
                self.assertIsNone(infer_family(model, inputs))

    def test_kl_divergence(self):
        """F.kl_div / nn.KLDivLoss: loss for reductions mean and sum (and batchmean of a vector), loss_rows for
        batchmean (the sum over the first dimension's count), as KernelBench's 98_KLDivLoss writes it."""
        pair = [torch.rand(4, 8) + 0.1, torch.rand(4, 8)]
        flat = {"x": (0, None), "y": (1, None), "n": (0, (0, 1))}
        rows = {"x": (0, None), "y": (1, None), "rows": (0, (0,)), "cols": (0, (1,))}
        kb = "(y == 0.0f ? 0.0f : y * logf(y)) - y * logf(x)"
        cases = [
            (_Call2(lambda p, t: F.kl_div(torch.log(p), t, reduction="batchmean")), pair, "loss_rows", kb, "s / rows",
             rows),
            (_Call2(lambda p, t: torch.nn.functional.kl_div(input=torch.log(p), target=t, reduction="batchmean")),
             pair, "loss_rows", kb, "s / rows", rows),
            (_Call2(lambda p, t: F.kl_div(p, t, reduction="batchmean")), pair, "loss_rows",
             "(y == 0.0f ? 0.0f : y * logf(y)) - y * x", "s / rows", rows),
            (_Call2(lambda p, t: F.kl_div(torch.log(p), t, reduction="sum")), pair, "loss", kb, "s", flat),
            (_Call2(lambda p, t: F.kl_div(torch.log(p), t, reduction="mean")), pair, "loss", kb, "s / n", flat),
            (_Call2(lambda p, t: F.kl_div(torch.log(p), t, reduction="batchmean")), [torch.rand(8), torch.rand(8)],
             "loss", kb, "s / n", {"x": (0, None), "y": (1, None), "n": (0, (0,))}),
            (_Call2(lambda p, t: F.kl_div(torch.log(p), t, reduction="batchmean")),
             [torch.rand(2, 3, 4), torch.rand(2, 3, 4)], "loss_rows", kb, "s / rows",
             {"x": (0, None), "y": (1, None), "rows": (0, (0,)), "cols": (0, (1, 2))}),
            (_Call2(lambda t, p: F.kl_div(torch.log(p), t, reduction="batchmean")), pair, "loss_rows",
             "(x == 0.0f ? 0.0f : x * logf(x)) - x * logf(y)", "s / rows", rows),
            (nn.KLDivLoss(reduction="batchmean", log_target=True), pair, "loss_rows", "expf(y) * (y - x)", "s / rows",
             rows),
            (_Call2(nn.KLDivLoss(reduction="sum")), pair, "loss", "(y == 0.0f ? 0.0f : y * logf(y)) - y * x", "s",
             flat),
            (_Call2(lambda p, t: F.kl_div(torch.log(p), torch.exp(t), reduction="batchmean")), pair, "loss_rows",
             "[](float t, float i) { return (t == 0.0f ? 0.0f : t * logf(t)) - t * i; }(expf(y), logf(x))",
             "s / rows", rows),
        ]
        for model, inputs, family, loss_map, finish, binding in cases:
            with self.subTest(family=family, map=loss_map, finish=finish):
                guess = infer_family(model, inputs)
                self.assertIsNotNone(guess)
                self.assertEqual((guess.family, guess.params, guess.binding),
                                 (family, {"map": loss_map, "finish": finish}, binding))
        for model, inputs, why in (
                (_Call2(lambda p, t: F.kl_div(torch.log(p), t, reduction="none")), pair, "reduction none: a tensor"),
                (nn.KLDivLoss(reduction="none"), pair, "reduction none: a tensor"),
                (_Call2(lambda p, t: F.kl_div(torch.log(p), t, size_average=False)), pair, "legacy size_average"),
                (_Call2(lambda p, t: F.kl_div(torch.log(p), p, reduction="batchmean")), pair, "one input unused"),
                (_Call2(lambda p, t: F.kl_div(torch.log_softmax(p, 1), t, reduction="batchmean")), pair,
                 "not element-wise"),
                (_Call2(lambda p, t: F.kl_div(torch.log(p), t, reduction="batchmean") * 2.0), pair,
                 "something after the loss"),
                (_Call2(lambda p, t: F.kl_div(torch.log(p), t, reduction="batchmean")),
                 [torch.rand(4, 8), torch.rand(8)], "broadcast targets"),
                (_Call2(lambda p, t: F.kl_div(torch.log(p), t, reduction="batchmean")),
                 [torch.rand(()), torch.rand(())], "0-dim")):
            with self.subTest(why=why):
                self.assertIsNone(infer_family(model, inputs))

    def test_loss_of_targets_broadcast_along_the_rows(self):
        """loss_rows_broadcast: the mean or sum of an element-wise expression of x and a y broadcast along x's
        leading dimensions (its shape, leading 1s dropped, the trailing part of x's), as KernelBench's 100_HingeLoss
        writes it; y[j] beside x[i][j], cols the dimensions y covers."""
        hinge = _Call2(lambda p, t: torch.mean(torch.clamp(1 - p * t, min=0)))
        rows = {"x": (0, None), "y": (1, None), "rows": (0, (0,)), "cols": (0, (1,))}
        cases = [
            (hinge, [torch.rand(32, 16), torch.rand(16)], "fmaxf(1.0f - (x * y), 0.0f)", "s / (rows * cols)", rows),
            # B == N, as in KernelBench (32768 x 32768 against 32768 targets): PyTorch aligns the trailing dimension.
            (hinge, [torch.rand(16, 16), torch.rand(16)], "fmaxf(1.0f - (x * y), 0.0f)", "s / (rows * cols)", rows),
            (hinge, [torch.rand(32, 16), torch.rand(1, 16)], "fmaxf(1.0f - (x * y), 0.0f)", "s / (rows * cols)", rows),
            (hinge, [torch.rand(16), torch.rand(32, 16)], "fmaxf(1.0f - (y * x), 0.0f)", "s / (rows * cols)",
             {"x": (1, None), "y": (0, None), "rows": (1, (0,)), "cols": (1, (1,))}),
            (hinge, [torch.rand(2, 3, 4), torch.rand(3, 4)], "fmaxf(1.0f - (x * y), 0.0f)", "s / (rows * cols)",
             {"x": (0, None), "y": (1, None), "rows": (0, (0,)), "cols": (0, (1, 2))}),
            (hinge, [torch.rand(2, 3, 4), torch.rand(4)], "fmaxf(1.0f - (x * y), 0.0f)", "s / (rows * cols)",
             {"x": (0, None), "y": (1, None), "rows": (0, (0, 1)), "cols": (0, (2,))}),
            (_Call2(lambda p, t: ((p - t) ** 2).sum()), [torch.rand(32, 16), torch.rand(16)],
             "[](float x) { return x * x; }(x - y)", "s", rows),
        ]
        for model, inputs, loss_map, finish, binding in cases:
            with self.subTest(map=loss_map, finish=finish, shapes=[tuple(t.shape) for t in inputs]):
                guess = infer_family(model, inputs)
                self.assertIsNotNone(guess)
                self.assertEqual((guess.family, guess.params, guess.binding),
                                 ("loss_rows_broadcast", {"map": loss_map, "finish": finish}, binding))
        for model, inputs, why in (
                (hinge, [torch.rand(32, 16), torch.rand(32, 1)], "broadcast along the last dimension (targets B x 1)"),
                (hinge, [torch.rand(16, 16), torch.rand(16, 1)], "broadcast along the last dimension, B == N"),
                (hinge, [torch.rand(32, 1), torch.rand(1, 16)], "both inputs broadcast"),
                (hinge, [torch.rand(2, 3, 4), torch.rand(3, 1)], "a middle broadcast"),
                (hinge, [torch.rand(32, 16), torch.rand(1)], "one target for every element"),
                (nn.MSELoss(), [torch.rand(32, 16), torch.rand(16)], "a named loss on other shapes (PyTorch warns)"),
                (_Call2(lambda p, t: torch.mean(torch.clamp(1 - p * t, min=0), dim=1)),
                 [torch.rand(32, 16), torch.rand(16)], "a mean over a dimension"),
                (_Call2(lambda p, t: torch.amax(p * t)), [torch.rand(32, 16), torch.rand(16)], "not a sum"),
                (_Call2(lambda p, t: torch.mean(p * t.unsqueeze(0))), [torch.rand(32, 16), torch.rand(16)],
                 "a reshape of the targets"),
                (hinge, [torch.randint(0, 9, (32, 16)), torch.randint(0, 9, (16,))], "integers")):
            with self.subTest(why=why):
                self.assertIsNone(infer_family(model, inputs))

    def test_mean_cross_entropy_of_logits_and_class_indices(self):
        logits, targets = torch.randn(4, 7), torch.randint(0, 7, (4,))
        binding = {"logits": (0, None), "labels": (1, None), "N": (0, (0,)), "C": (0, (1,))}
        for model in (nn.CrossEntropyLoss(), _Call2(F.cross_entropy), _Call2(nn.CrossEntropyLoss()),
                      _Call2(lambda x, t: F.cross_entropy(x, t, reduction="mean", ignore_index=-100)),
                      _Call2(lambda x, t: F.cross_entropy(input=x, target=t, label_smoothing=0.0)),
                      nn.CrossEntropyLoss(ignore_index=-100, reduction="mean")):
            with self.subTest(model=model):
                guess = infer_family(model, [logits, targets])
                self.assertEqual((guess.family, guess.params, guess.binding), ("cross_entropy_mean", {}, binding))
        # The targets first, as the forward takes them: bound by what is passed where.
        first = infer_family(_Call2(lambda t, x: F.cross_entropy(x, t)), [targets, logits])
        self.assertEqual((first.family, first.binding),
                         ("cross_entropy_mean", {"logits": (1, None), "labels": (0, None), "N": (1, (0,)),
                                                 "C": (1, (1,))}))
        self.assertEqual(infer_family(nn.CrossEntropyLoss(), [logits, targets.int()]).family, "cross_entropy_mean")
        self.assertEqual(infer_family(nn.CrossEntropyLoss(), [logits.bfloat16(), targets]).family,
                         "cross_entropy_mean")
        pair = [logits, targets]
        for model, inputs, why in (
                (nn.CrossEntropyLoss(reduction="sum"), pair, "reduction sum"),
                (nn.CrossEntropyLoss(reduction="none"), pair, "reduction none: a tensor"),
                (_Call2(lambda x, t: F.cross_entropy(x, t, reduction="sum")), pair, "reduction sum"),
                (_Call2(lambda x, t: F.cross_entropy(x, t, reduction="none")), pair, "reduction none"),
                (nn.CrossEntropyLoss(weight=torch.ones(7)), pair, "class weights"),
                (_Call2(lambda x, t: F.cross_entropy(x, t, weight=torch.ones(7))), pair, "class weights"),
                (nn.CrossEntropyLoss(label_smoothing=0.1), pair, "label smoothing"),
                (_Call2(lambda x, t: F.cross_entropy(x, t, label_smoothing=0.1)), pair, "label smoothing"),
                (nn.CrossEntropyLoss(ignore_index=0), pair, "another ignore_index"),
                (_Call2(lambda x, t: F.cross_entropy(x, t, ignore_index=-1)), pair, "another ignore_index"),
                (_Call2(lambda x, t: F.cross_entropy(x, t, size_average=False)), pair, "legacy size_average"),
                (nn.CrossEntropyLoss(), [logits, torch.softmax(torch.randn(4, 7), 1)], "class probabilities"),
                (nn.CrossEntropyLoss(), [torch.randn(4, 7, 3), torch.randint(0, 7, (4, 3))], "3-D logits"),
                (nn.CrossEntropyLoss(), [torch.randn(7), torch.tensor(3)], "one sample, 1-D logits"),
                (_Call2(lambda x, t: F.cross_entropy(x, t) * 2.0), pair, "something after the loss"),
                (_Call2(lambda x, t: F.cross_entropy(x * 2.0, t)), pair, "something before the loss"),
                (_Call3(lambda x, t, u: F.cross_entropy(x, t)), [logits, targets, targets], "a third input")):
            with self.subTest(why=why):
                self.assertIsNone(infer_family(model, inputs))


if __name__ == "__main__":
    unittest.main()
