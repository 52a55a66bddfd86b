"""The families kopt import-torch infers for the corpus under suites/pytorch/ (docs/pytorch.md, "Families"),
and, when kopt's programs are built ($KOPT_BINARY_DIR/bin/kopt, as ctest sets it), that the library's
strategies bind to every task that gets one: `kopt strategies TASK --json` finds at least one that applies
and, where the importer wrote a [binding], exactly one binding for it (nothing left to verification).

A problem that leaves this table, or joins it, is a change of the importer's behaviour: update the table
with the reason. Problems absent from it get no family from the importer (kopt's own family inference,
verified on the GPU, may still find one when it optimizes them).

Run: ``cd python && ../.venv/bin/python -m unittest -v tests.test_corpus_families``
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import tempfile
import tomllib
import unittest
from pathlib import Path

from kopt_torch.importer import import_problem

SUITE = Path(__file__).resolve().parents[2] / "suites" / "pytorch"
KOPT = Path(os.environ["KOPT_BINARY_DIR"]) / "bin" / "kopt" if os.environ.get("KOPT_BINARY_DIR") else None

FAMILIES = {
    "level1/argmax_dim": "mid_argmax",
    "level1/batch_norm": "batchnorm_train",
    "level1/batched_matmul": "batched_gemm",
    "level1/conv2d": "conv2d_nchw_bias",
    "level1/conv2d_stride2": "conv2d_nchw_strided_bias",
    "level1/cross_entropy_loss": "cross_entropy_mean",
    "level1/cumsum": "row_scan",
    "level1/embedding": "gather_rows",
    "level1/gelu": "activation",
    "level1/group_norm": "group_norm",
    "level1/hardtanh": "activation",
    "level1/instance_norm": "row_standardize",
    "level1/l2_normalize": "row_normalize",
    "level1/layer_norm": "layernorm",
    "level1/leaky_where": "activation",
    "level1/log_softmax": "row_log_softmax",
    "level1/matmul_skinny": "gemm",
    "level1/matmul_square": "gemm",
    "level1/matmul_transposed_b": "gemm_nt",
    "level1/max_dim": "mid_reduce",
    "level1/max_pool2d": "pool2d",
    "level1/mean_dim": "row_reduce",
    "level1/mse_loss": "loss",
    "level1/relu": "activation",
    "level1/rms_norm": "rmsnorm",
    "level1/sdpa": "attention",
    "level1/sdpa_causal": "attention",
    "level1/silu": "activation",
    "level1/smooth_l1_loss": "loss",
    "level1/softmax": "row_softmax",
    "level1/sqrt": "activation",
    "level1/sum_dim": "mid_reduce",
    "level1/tanh": "activation",
    "level1/transpose_copy": "transpose",
    "level2/attention_bmm_softmax": "attention",
    "level2/conv2d_relu_bias": "conv2d_nchw_bias_channel",  # `+ self.bias` after the ReLU: p (2026-12-06)
    "level2/linear_gelu_scale": "linear",
    "level2/linear_relu": "linear",
}

# The problems no one family serves that kopt import-torch writes as a chain of families (docs/pytorch.md, "Chains
# of families"; 2026-12-07): each stage's family, in order. gemm_dropout_mean (dropout in training mode is random),
# swiglu_mlp (two products of the one input feed one product) and transformer_block get none; level3's
# resnet_basic_block and small_cnn (six and five stages) since chains may have six.
CHAINS = {
    "level2/conv2d_batchnorm_relu": ["conv2d_nchw_bias", "batchnorm_train", "activation"],
    "level2/conv2d_groupnorm_gelu": ["conv2d_nchw_bias", "group_norm", "activation"],
    "level2/conv2d_maxpool_sigmoid": ["conv2d_nchw_bias", "pool2d", "activation"],
    "level2/gemm_sum": ["linear", "row_reduce"],
    "level2/linear_residual_layernorm": ["linear", "elementwise", "layernorm"],
    "level3/resnet_basic_block": ["conv2d_nchw", "batchnorm_train", "activation", "conv2d_nchw", "batchnorm_train",
                                  "elementwise"],
    "level3/small_cnn": ["conv2d_nchw_bias", "pool2d", "conv2d_nchw_bias", "pool2d", "linear"],
    "level2/matmul_softmax": ["gemm", "row_softmax"],
    "level3/mlp": ["linear", "linear", "linear"],  # the ReLUs in the first two's op
}


class CorpusFamiliesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.tasks: dict[str, tuple[Path, dict]] = {}
        for path in sorted(SUITE.glob("level*/*.py")):
            key = f"{path.parent.name}/{path.stem}"
            out = Path(cls.tmp.name) / key.replace("/", "-")
            with contextlib.redirect_stdout(io.StringIO()):
                import_problem(path, out)
            with open(out / "task.toml", "rb") as f:
                cls.tasks[key] = (out, tomllib.load(f))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_every_problem_gets_the_family_of_the_table(self) -> None:
        inferred = {key: task["family"] for key, (_, task) in self.tasks.items() if "family" in task}
        self.assertEqual(inferred, FAMILIES)

    def test_every_chain_is_the_one_of_the_table(self) -> None:
        chains = {key: [s["family"] for s in task["stages"]] for key, (_, task) in self.tasks.items()
                  if "stages" in task}
        self.assertEqual(chains, CHAINS)
        for key in CHAINS:
            with self.subTest(problem=key):
                task = self.tasks[key][1]
                self.assertEqual(len(task["intermediates"]), len(task["stages"]) - 1)
                self.assertEqual([s["writes"] for s in task["stages"]],
                                 [[t["name"]] for t in task["intermediates"]] + [["out"]])

    def test_the_library_binds_every_task_with_a_family(self) -> None:
        if KOPT is None or not KOPT.exists():
            self.skipTest("kopt is not built here (ctest sets KOPT_BINARY_DIR)")
        for key, (out, task) in self.tasks.items():
            if "family" not in task:
                continue
            with self.subTest(problem=key):
                r = subprocess.run([str(KOPT), "strategies", str(out), "--json"], capture_output=True,
                                   text=True, timeout=120)
                self.assertEqual(r.returncode, 0, r.stderr)
                applying = [s for s in json.loads(r.stdout)["strategies"] if s["applies"]]
                self.assertTrue(applying, f"no strategy of family {task['family']} binds")
                if "binding" in task:
                    for s in applying:
                        self.assertEqual(len(s["bindings"]), 1, f"{s['name']}: {s['bindings']}")


if __name__ == "__main__":
    unittest.main()
