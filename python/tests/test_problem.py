"""Loading problems (kopt_torch.problem) and deriving their ABI (kopt_torch.abi), on the CPU."""

from __future__ import annotations

import tempfile
import textwrap
import unittest
from pathlib import Path


from kopt_torch import ProblemError
from kopt_torch import expr as kexpr
from kopt_torch.abi import derive_abi
from kopt_torch.problem import load_problem, problem_constants

PROBLEMS = Path(__file__).parent / "problems"


def _write(tmp: str, name: str, text: str) -> Path:
    p = Path(tmp) / name
    p.write_text(textwrap.dedent(text))
    return p


class LoadProblemTest(unittest.TestCase):
    def test_constants_in_source_order(self) -> None:
        self.assertEqual(problem_constants(PROBLEMS / "linear_relu.py"),
                         {"batch_size": 64, "in_features": 128, "out_features": 96})

    def test_overrides_and_derived_constants_follow(self) -> None:
        p = load_problem(PROBLEMS / "linear_relu.py", {"in_features": 40})
        try:
            self.assertEqual(p.constants["in_features"], 40)
            self.assertEqual(p.module.hidden, 80)  # hidden = in_features * 2 follows the override
            (x,) = p.inputs()
            self.assertEqual(tuple(x.shape), (64, 40))
            model = p.make_model()
            self.assertEqual(tuple(model(x).shape), (64, 96))
        finally:
            p.unload()

    def test_annotated_and_literal_expression_constants(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = _write(tmp, "p.py", """
                import torch
                N: int = 16 * 4
                M = N + 1          # derived, not a constant
                D = 3
                D = 4              # assigned twice: not a constant
                class Model(torch.nn.Module):
                    def forward(self, x):
                        return x
                def get_inputs():
                    return [torch.zeros(N, M)]
                """)
            self.assertEqual(problem_constants(path), {"N": 64})
            p = load_problem(path, {"N": 8})
            self.assertEqual(p.module.M, 9)
            self.assertEqual(p.init_inputs(), [])  # no get_init_inputs(): no arguments
            p.unload()

    def test_errors_name_the_file_and_function(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            cases = {
                "nomodel.py": ("import torch\ndef get_inputs():\n    return []\n", "no class Model"),
                "noinputs.py": ("import torch\nclass Model(torch.nn.Module):\n    pass\n", "get_inputs()"),
                "raises.py": ("raise RuntimeError('boom')\n", "executing the module raised RuntimeError: boom"),
                "syntax.py": ("def f(:\n", "syntax error"),
            }
            for name, (src, want) in cases.items():
                path = _write(tmp, name, src)
                with self.assertRaises(ProblemError) as cm:
                    load_problem(path)
                self.assertIn(name, str(cm.exception))
                self.assertIn(want, str(cm.exception))
                self.assertEqual(len(str(cm.exception).splitlines()), 1)
            path = _write(tmp, "badinputs.py", """
                import torch
                class Model(torch.nn.Module):
                    def forward(self, x):
                        return x
                def get_inputs():
                    return [torch.zeros(2), "text"]
                """)
            p = load_problem(path)
            with self.assertRaises(ProblemError) as cm:
                p.inputs()
            self.assertIn("badinputs.py: get_inputs()[1] is a str", str(cm.exception))
            with self.assertRaises(ProblemError) as cm:
                load_problem(path, {"nope": 3})
            self.assertIn("cannot override 'nope'", str(cm.exception))


class AbiTest(unittest.TestCase):
    def _shape_ok(self, abi, case_name: str) -> None:
        """Every expression reproduces the evaluated shapes at a size case."""
        case = next(s for s in abi.sizes if s.name == case_name)
        snap = abi.snapshots[case_name]
        for t, s in zip(abi.tensors, snap.tensors):
            self.assertEqual(tuple(kexpr.evaluate(d, case.values) for d in t["shape"]), s.shape, t["name"])

    def test_linear_relu(self) -> None:
        abi = derive_abi(PROBLEMS / "linear_relu.py")
        j = abi.to_json()
        self.assertEqual(j["schema"], "kopt.torch_abi/1")
        self.assertEqual(j["size_params"], ["batch_size", "in_features", "out_features"])
        self.assertEqual([(t["name"], t["kind"]) for t in j["tensors"]],
                         [("x", "input"), ("linear_weight", "parameter"), ("linear_bias", "parameter"),
                          ("out", "output")])
        self.assertEqual(j["tensors"][1]["key"], "linear.weight")
        self.assertEqual(j["tensors"][1]["shape"], ["out_features", "in_features"])
        self.assertEqual(j["tensors"][3]["shape"], ["batch_size", "out_features"])
        self.assertEqual([s["name"] for s in j["sizes"]], ["problem", "small", "odd"])
        self.assertEqual(j["sizes"][1]["values"], {"batch_size": 16, "in_features": 32, "out_features": 24})
        self.assertEqual(j["sizes"][2]["values"], {"batch_size": 21, "in_features": 43, "out_features": 33})
        self.assertEqual(abi.flops, "2*batch_size*in_features*out_features")
        for c in ("problem", "small", "odd"):
            self._shape_ok(abi, c)

    def test_causal_attention_counts_the_lower_triangle(self) -> None:
        # The flop counter counts a causal attention's whole score matrix; a causal kernel computes half of it,
        # so the work model (the speed-of-light bound) counts half: the corpus's causal and full sdpa problems.
        corpus = Path(__file__).resolve().parents[2] / "suites" / "pytorch" / "level1"
        self.assertEqual(derive_abi(corpus / "sdpa_causal.py").flops,
                         "2*batch_size*num_heads*seq_len*seq_len*head_dim")
        self.assertEqual(derive_abi(corpus / "sdpa.py").flops, "4*batch_size*num_heads*seq_len*seq_len*head_dim")

    def test_convolution_flops_are_per_output_element_times_the_output(self) -> None:
        # 2*Cin*K*K per output element; the output's height and width are quotients no monomial gives.
        corpus = Path(__file__).resolve().parents[2] / "suites" / "pytorch" / "level1"
        self.assertEqual(derive_abi(corpus / "conv2d.py").flops,
                         "2*in_channels*kernel_size*kernel_size*batch_size*out_channels"
                         "*((height - kernel_size + 2*padding)/stride + 1)"
                         "*((width - kernel_size + 2*padding)/stride + 1)")

    def test_conv_stride2_output_is_a_quotient(self) -> None:
        abi = derive_abi(PROBLEMS / "conv_stride2.py")
        out = abi.tensors[-1]
        self.assertEqual(out["name"], "out")
        self.assertRegex(out["shape"][2], r"^\(height .*\)/2 \+ 1$")
        self.assertRegex(out["shape"][3], r"^\(width .*\)/2 \+ 1$")
        self.assertEqual(abi.dim_params, [])
        for c in ("problem", "small", "odd"):
            self._shape_ok(abi, c)

    def test_pool_with_stride_constant(self) -> None:
        abi = derive_abi(PROBLEMS / "pool_strided.py")
        self.assertIn("stride", abi.size_params)
        self.assertNotIn("padding", abi.size_params)  # padding 2 or 5 exceeds half the window: fails
        self.assertEqual(abi.tensors[-1]["shape"][2], "(height - kernel_size + 2)/stride + 1")

    def test_two_outputs(self) -> None:
        j = derive_abi(PROBLEMS / "two_outputs.py").to_json()
        outs = [t for t in j["tensors"] if t["kind"] == "output"]
        self.assertEqual([(t["name"], t["index"], t["shape"]) for t in outs],
                         [("out0", 0, ["rows", "cols"]), ("out1", 1, ["rows"])])

    def test_embedding_int64_indices(self) -> None:
        j = derive_abi(PROBLEMS / "embedding.py").to_json()
        self.assertEqual(j["tensors"][0], {"name": "idx", "kind": "input", "index": 0, "dtype": "i64",
                                           "shape": ["batch_size"]})
        self.assertEqual([t["name"] for t in j["tensors"]], ["idx", "emb_weight", "norm_weight", "norm_bias", "out"])

    def test_float_constant_and_number_input(self) -> None:
        j = derive_abi(PROBLEMS / "scale_number.py").to_json()
        self.assertEqual(j["size_params"], ["N"])
        self.assertEqual(j["fixed_inputs"], [{"index": 1, "value": 2.0}])
        self.assertEqual([t["name"] for t in j["tensors"]], ["x", "out"])

    def test_bf16_dtypes_and_non_persistent_buffer(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = _write(tmp, "bn.py", """
                import torch
                class Model(torch.nn.Module):
                    def __init__(self, c):
                        super().__init__()
                        self.bn = torch.nn.BatchNorm1d(c)
                        self.register_buffer("mask", torch.ones(c, dtype=torch.bool), persistent=False)
                    def forward(self, x, *rest):
                        return self.bn(x) * self.mask + rest[0].sum()
                B = 16
                C = 40
                def get_inputs():
                    return [torch.randn(B, C), torch.randn(3)]
                def get_init_inputs():
                    return [C]
                """)
            j = derive_abi(path, "bf16").to_json()
            rows = [(t["name"], t["kind"], t["dtype"], t["shape"]) for t in j["tensors"]]
            self.assertEqual(rows, [
                ("x", "input", "bf16", ["B", "C"]), ("arg1", "input", "bf16", [3]),
                ("bn_weight", "parameter", "bf16", ["C"]), ("bn_bias", "parameter", "bf16", ["C"]),
                ("bn_running_mean", "buffer", "bf16", ["C"]), ("bn_running_var", "buffer", "bf16", ["C"]),
                ("bn_num_batches_tracked", "buffer", "i64", []), ("mask", "buffer", "u8", ["C"]),
                ("out", "output", "bf16", ["B", "C"])])

    def test_unsupported_dtype(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = _write(tmp, "f64.py", """
                import torch
                class Model(torch.nn.Module):
                    def forward(self, x):
                        return x * 2
                N = 8
                def get_inputs():
                    return [torch.zeros(N, dtype=torch.float64)]
                """)
            with self.assertRaises(ProblemError) as cm:
                derive_abi(path)
            self.assertIn("f64.py", str(cm.exception))
            self.assertIn("float64 is not supported", str(cm.exception))

    def test_axis_constant_is_not_a_size(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = _write(tmp, "red.py", """
                import torch
                class Model(torch.nn.Module):
                    def __init__(self, dim):
                        super().__init__()
                        self.dim = dim
                    def forward(self, x):
                        return x.sum(dim=self.dim)
                batch_size = 16
                dim1 = 64
                dim2 = 48
                reduce_dim = 1
                def get_inputs():
                    return [torch.randn(batch_size, dim1, dim2)]
                def get_init_inputs():
                    return [reduce_dim]
                """)
            abi = derive_abi(path)
            self.assertEqual(abi.size_params, ["batch_size", "dim1", "dim2"])
            self.assertEqual(abi.tensors[-1]["shape"], ["batch_size", "dim2"])


    def test_cpu_fallback_when_meta_fails(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = _write(tmp, "item.py", """
                import torch
                class Model(torch.nn.Module):
                    def forward(self, x):
                        return x / (float(x.abs().max().item()) + 1.0)
                batch_size = 256
                dim = 96
                def get_inputs():
                    return [torch.randn(batch_size, dim)]
                """)
            abi = derive_abi(path)
            self.assertEqual(abi.mode, "cpu")
            self.assertEqual(abi.size_params, ["batch_size", "dim"])
            self.assertEqual(abi.tensors[-1]["shape"], ["batch_size", "dim"])
            self.assertTrue(any("does not run on the meta device" in n for n in abi.notes), abi.notes)


class ExprTest(unittest.TestCase):
    def test_c_semantics(self) -> None:
        self.assertEqual(kexpr.evaluate("(H - 4)/3 + 1", {"H": 2}), 1)  # -2/3 truncates to 0
        self.assertEqual(kexpr.evaluate("ceil_div(N, 4)", {"N": 9}), 3)
        self.assertEqual(kexpr.evaluate("-7 % 3", {}), -1)
        with self.assertRaises(ProblemError):
            kexpr.evaluate("N/0", {"N": 1})
        self.assertEqual(kexpr.product([1, "N", 4, "C - 1"]), "4*N*(C - 1)")
        self.assertEqual(kexpr.product([2, 3]), 6)


if __name__ == "__main__":
    unittest.main()
