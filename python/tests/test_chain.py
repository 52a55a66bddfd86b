"""Chains of families (kopt_torch.chain): a forward that no one family serves split into stages that each get one,
and the [[intermediates]] / [[stages]] tables kopt import-torch writes for it (docs/pytorch.md, "Chains of
families"), on the CPU."""

from __future__ import annotations

import json
import unittest
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

from kopt_torch import expr as kexpr
from kopt_torch.chain import chain_or_reason, chain_shapes, infer_chain
from kopt_torch.elementwise import GELU_ERF

from tests.test_importer import ImportTestCase

PROBLEMS = Path(__file__).parent / "problems"
GELU_V = GELU_ERF.replace("x", "v")


class _LinearGeluSoftmax(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 6)

    def forward(self, x):
        return torch.softmax(F.gelu(self.linear(x)), dim=1)


class _ConvReluGroupNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.norm = nn.GroupNorm(2, 8)

    def forward(self, x):
        return self.norm(torch.relu(self.conv(x)))


class _LinearLogSumExp(nn.Module):
    """A log-sum-exp over the features (KernelBench level 2's 45, 64): a row_reduce stage."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 6)

    def forward(self, x):
        return torch.logsumexp(self.linear(x), dim=1)


class _LinearLogCumSumExp(nn.Module):
    """No family for its second segment (a cumulative log-sum-exp)."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 6)

    def forward(self, x):
        return torch.logcumsumexp(self.linear(x), dim=1)


class _FiveStages(nn.Module):
    """linear, group_norm, row_softmax, row_standardize, row_reduce (or, with `twice`, softmax and standardize
    again before the sum: seven stages, one too many)."""

    def __init__(self, twice: bool = False):
        super().__init__()
        self.linear = nn.Linear(8, 6)
        self.norm = nn.GroupNorm(2, 6)
        self.plain = nn.LayerNorm(6, elementwise_affine=False)
        self.twice = twice

    def forward(self, x):
        x = self.plain(torch.softmax(self.norm(self.linear(x)), dim=1))
        if self.twice:
            x = self.plain(torch.softmax(x, dim=1))
        return x.sum(dim=1)


class _Residual(nn.Module):
    """The convolution's value is read after the GroupNorm too: two values flow past the cut after it."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.norm = nn.GroupNorm(2, 8)

    def forward(self, x):
        y = self.conv(x)
        return torch.logsumexp(y + torch.tanh(self.norm(y)), dim=1)


class _LinearPoolSum(nn.Module):
    """A pooling of the features seen as one row (unsqueeze, MaxPool1d, squeeze), then a sum: the reshapes are
    no stage's."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 16)
        self.pool = nn.MaxPool1d(2)

    def forward(self, x):
        x = self.linear(x)
        x = self.pool(x.unsqueeze(1)).squeeze(1)
        return torch.sum(x, dim=1)


class _ResidualInput(nn.Module):
    """The forward's own input read again by the second stage: elementwise of the intermediate and x."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 8)
        self.norm = nn.LayerNorm(8)

    def forward(self, x):
        return self.norm(self.linear(x) + x)


def _run(chain, model, inputs):
    """The chain run stage by stage on flat buffers, as kopt runs it: each stage's segment module reads its inputs
    in the shapes it saw them in (the reshapes between stages are only views of the buffers)."""
    shapes = chain_shapes(model, inputs, chain)
    buffers = {}
    for stage in chain.stages:
        args = [(inputs[i] if kind == "input" else buffers[i]).reshape(shapes[view])
                for (kind, i), view in zip(stage.inputs, stage.views)]
        out = stage.module(*args).reshape(-1)
        if stage.output[0] == "output":
            return out
        buffers[stage.output[1]] = out


class InferChainTest(unittest.TestCase):
    def test_the_stages_one_after_another_compute_the_forward(self):
        torch.manual_seed(0)
        for model, inputs in ((_LinearGeluSoftmax(), [torch.randn(4, 8)]),
                              (_ConvReluGroupNorm(), [torch.randn(2, 3, 10, 12)]),
                              (_LinearPoolSum(), [torch.randn(4, 8)]),
                              (_ResidualInput(), [torch.randn(4, 8)]),
                              (_LinearLogSumExp(), [torch.randn(4, 8)]),
                              (nn.Sequential(nn.Linear(8, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Softmax(dim=1)),
                               [torch.randn(5, 8)])):
            with self.subTest(model=type(model).__name__), torch.no_grad():
                chain = infer_chain(model, inputs)
                self.assertGreaterEqual(len(chain.stages), 2)
                torch.testing.assert_close(_run(chain, model, inputs), model(*inputs).reshape(-1))

    def test_linear_gelu_then_softmax(self):
        chain = infer_chain(_LinearGeluSoftmax(), [torch.randn(4, 8)])
        self.assertEqual([s.guess.family for s in chain.stages], ["linear", "row_softmax"])
        first, second = chain.stages
        self.assertEqual(first.guess.params, {"op": GELU_V})
        self.assertEqual((first.inputs, first.keys, first.output),
                         ([("input", 0)], ["linear.weight", "linear.bias"], ("intermediate", 0)))
        self.assertEqual(first.guess.binding,
                         {"M": (0, (0,)), "N": ("linear.weight", (0,)), "K": ("linear.weight", (1,))})
        self.assertEqual((second.inputs, second.keys, second.output), ([("intermediate", 0)], [], ("output", 0)))
        self.assertEqual(second.guess.binding, {"in": (0, None), "N": (0, (0,)), "C": (0, (1,))})
        self.assertEqual((len(chain.nodes), chain.dtypes), (1, [torch.float32]))
        self.assertIn("linear (the module is a linear layer then gelu) then row_softmax", chain.reason)

    def test_on_the_meta_device(self):
        with torch.device("meta"):
            model, x = _LinearGeluSoftmax(), torch.randn(4, 8)
        self.assertEqual([s.guess.family for s in infer_chain(model, [x]).stages], ["linear", "row_softmax"])
        # A meta module with CPU inputs (as the importer calls it): the inputs follow the module.
        self.assertIsNotNone(infer_chain(model, [torch.randn(4, 8)]))

    def test_a_convolution_with_its_relu_then_a_group_norm(self):
        chain = infer_chain(_ConvReluGroupNorm(), [torch.randn(2, 3, 10, 12)])
        self.assertEqual([s.guess.family for s in chain.stages], ["conv2d_nchw_bias", "group_norm"])
        conv, norm = chain.stages
        self.assertEqual(conv.guess.params, {"op": "v > 0.0f ? v : 0.0f"})
        self.assertEqual(norm.keys, ["norm.weight", "norm.bias"])
        self.assertEqual({role: norm.guess.binding[role] for role in ("x", "gamma", "HW", "G")},
                         {"x": (0, None), "gamma": ("norm.weight", None), "HW": (0, (2, 3)), "G": 2})

    def test_a_segment_without_a_family_gives_none(self):
        self.assertIsNone(infer_chain(_LinearLogCumSumExp(), [torch.randn(4, 8)]))
        self.assertIn("no family for the operators from logcumsumexp on",
                      chain_or_reason(_LinearLogCumSumExp(), [torch.randn(4, 8)]))
        self.assertIsNone(infer_chain(_Residual(), [torch.randn(2, 3, 10, 12)]))

    def test_at_most_six_stages(self):
        five = infer_chain(_FiveStages(), [torch.randn(4, 8)])
        self.assertEqual([s.guess.family for s in five.stages],
                         ["linear", "group_norm", "row_softmax", "row_standardize", "row_reduce"])
        self.assertEqual(chain_or_reason(_FiveStages(twice=True), [torch.randn(4, 8)]), "more than 6 stages")

    def test_one_family_or_one_operator_is_no_chain(self):
        self.assertIsNone(infer_chain(nn.Sequential(nn.Linear(8, 4), nn.ReLU()), [torch.randn(4, 8)]))
        self.assertIsNone(infer_chain(nn.Softmax(dim=1), [torch.randn(4, 8)]))

    def test_reshapes_between_stages_are_no_stage(self):
        chain = infer_chain(_LinearPoolSum(), [torch.randn(4, 8)])
        self.assertEqual([s.guess.family for s in chain.stages], ["linear", "pool3d_ncdhw", "row_reduce"])
        linear, pool, total = chain.stages
        # The intermediate is what flows out of the first segment (the unsqueezed product); the pooling sees
        # that node's shape, N x 1 x 16.
        self.assertEqual((chain.nodes[0], pool.views, pool.inputs), ("unsqueeze", ["unsqueeze"], [("intermediate", 0)]))
        self.assertEqual({role: pool.guess.binding[role] for role in ("N", "C", "W", "KW")},
                         {"N": (0, (0,)), "C": (0, (1,)), "W": (0, (2,)), "KW": 2})
        self.assertEqual((total.inputs, total.guess.binding["cols"]), ([("intermediate", 1)], (0, (1,))))

    def test_a_later_stage_may_read_the_forward_input(self):
        chain = infer_chain(_ResidualInput(), [torch.randn(4, 8)])
        self.assertEqual([s.guess.family for s in chain.stages], ["linear", "elementwise", "layernorm"])
        self.assertEqual((chain.stages[1].inputs, chain.stages[1].guess.params),
                         ([("intermediate", 0), ("input", 0)], {"op": "a + b"}))


class ImportChainTest(ImportTestCase):
    def _import(self, stem: str, **kw):
        summary, task, out = self.import_into(stem, kw.get("name", stem), **kw)
        return summary, task, (out / "task.toml").read_text()

    def test_the_importer_writes_the_stages_and_intermediates(self):
        summary, task, text = self._import("chain_linear_softmax")
        for key in ("family", "binding", "strategy_params"):
            self.assertNotIn(key, task)
        self.assertEqual(task["intermediates"], [{"name": "t0", "length": "batch_size*out_features", "dtype": "f32"}])
        self.assertEqual(task["intermediates"][0]["length"], task["buffers"]["out"]["length"])
        self.assertEqual(task["stages"], [
            {"family": "linear", "reads": ["x", "linear_weight", "linear_bias"], "writes": ["t0"],
             "strategy_params": {"op": GELU_V},
             "binding": {"M": "batch_size", "N": "out_features", "K": "in_features"}},
            {"family": "row_softmax", "reads": ["t0"], "writes": ["out"],
             "binding": {"in": "t0", "N": "batch_size", "C": "out_features"}}])
        self.assertIn("# Stage 1 of 2: a linear layer then gelu.\n[[stages]]", text)
        self.assertIn("# Stage 2 of 2: one softmax over the last dimension.\n[[stages]]", text)
        self.assertIn("chain inferred: linear (a linear layer then gelu) then row_softmax (one softmax over the last "
                      "dimension) (--family overrides it)", summary["notes"])
        _, bf16, _ = self._import("chain_linear_softmax", precision="bf16", name="bf16")
        self.assertEqual(bf16["intermediates"][0]["dtype"], "bf16")
        _, named, _ = self._import("chain_linear_softmax", name="named", family="row_softmax")
        self.assertEqual(named["family"], "row_softmax")
        self.assertNotIn("stages", named)

    def test_intermediates_of_shapes_no_launcher_tensor_has(self):
        _, task, _ = self._import("chain_conv_pool_mean")
        self.assertEqual([s["family"] for s in task["stages"]], ["conv2d_nchw_bias", "pool2d", "row_reduce"])
        self.assertEqual([s["writes"] for s in task["stages"]], [["t0"], ["t1"], ["out"]])
        # Sized over the size names (the convolution's output height is height - kernel_size + 1): right at every
        # size case, and at other values of the constants (read at perturbed points, not only at the cases).
        problem = PROBLEMS / "chain_conv_pool_mean.py"
        for case in task["sizes"]:
            values = {k: v for k, v in case.items() if k not in ("name", "verify_only")}
            for constants in (values, {**values, "kernel_size": 5, "width": values["width"] + 3}):
                with self.subTest(case=case["name"], constants=constants):
                    from kopt_torch.problem import load_problem
                    loaded = load_problem(problem, constants)
                    try:
                        model, x = loaded.make_model(), loaded.inputs()[0]
                        with torch.no_grad():
                            conv = model.conv(x)
                            pooled = model.pool(conv)
                    finally:
                        loaded.unload()
                    lengths = [kexpr.evaluate(t["length"], constants) for t in task["intermediates"]]
                    self.assertEqual(lengths, [conv.numel(), pooled.numel()])
                    cols = kexpr.evaluate(task["stages"][2]["binding"]["cols"], constants)
                    self.assertEqual(cols, pooled.shape[2] * pooled.shape[3])

    def test_a_parameter_no_stage_reads_writes_no_chain(self):
        summary, task, _ = self._import("chain_unread_parameter")
        self.assertNotIn("stages", task)
        self.assertNotIn("family", task)
        self.assertTrue(any(n.startswith("a chain of families was read off the graph") and
                            n.endswith("but not written: no stage reads unused") for n in summary["notes"]),
                        summary["notes"])

    def test_a_one_family_problem_keeps_its_family(self):
        _, task, _ = self._import("linear_relu")
        self.assertEqual(task["family"], "linear")
        self.assertNotIn("stages", task)
        self.assertNotIn("intermediates", task)

    def test_a_chain_with_an_embedding_counts_the_rows_it_gathers(self):
        summary, task, _ = self._import("embedding")
        self.assertEqual([s["family"] for s in task["stages"]], ["gather_rows", "layernorm"])
        # The table counts as many elements as the lookup writes (batch_size * dim), not num_embeddings * dim.
        self.assertEqual(task["work"]["bytes"], "8*batch_size + 8*batch_size*dim + 8*dim")
        self.assertEqual(json.loads(json.dumps(summary))["schema"], "kopt.torch_import/1")


if __name__ == "__main__":
    unittest.main()
