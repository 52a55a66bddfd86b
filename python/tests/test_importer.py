"""kopt_torch.importer: task folders from problems (task.toml parsed with tomllib), on the CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import tomllib
import unittest
from pathlib import Path

from kopt_torch import ProblemError
from kopt_torch.importer import import_problem, round_up_sig

PROBLEMS = Path(__file__).parent / "problems"
CORPUS = Path(__file__).resolve().parents[2] / "suites" / "pytorch"
PYTHON_DIR = Path(__file__).resolve().parents[1]
TOP_KEYS = {"name", "description", "family", "trials", "entry", "scalars", "buffers", "generators", "sizes",
            "tolerance", "reference", "baseline", "work", "launch", "strategy_params", "binding"}


class ImportTestCase(unittest.TestCase):
    """A temporary folder per test, and a problem of tests/problems imported into it."""

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def import_into(self, stem: str, folder: str, **kw):
        """(the import summary, the parsed task.toml, the task folder)."""
        out = self.tmp / folder
        summary = import_problem(PROBLEMS / f"{stem}.py", out, **kw)
        with open(out / "task.toml", "rb") as f:
            return summary, tomllib.load(f), out


class ImporterTest(ImportTestCase):
    def _import(self, stem: str, **kw):
        summary, task, out = self.import_into(stem, stem, **kw)
        abi = json.loads((out / "torch_abi.json").read_text())
        return summary, task, abi, out

    def test_linear_relu_task(self) -> None:
        summary, task, abi, out = self._import("linear_relu")
        self.assertEqual((out / "problem.py").read_bytes(), (PROBLEMS / "linear_relu.py").read_bytes())
        self.assertLessEqual(set(task), TOP_KEYS)
        self.assertEqual(task["name"], "linear_relu_fp32")
        self.assertEqual(task["description"], "A linear layer followed by ReLU. (imported by kopt import-torch)")
        # nn.Linear then ReLU: the linear family, its epilogue, and the contract's sizes from the weight's shape.
        self.assertEqual(task["family"], "linear")
        self.assertEqual(task["strategy_params"], {"op": "v > 0.0f ? v : 0.0f"})
        self.assertEqual(task["binding"], {"M": "batch_size", "N": "out_features", "K": "in_features"})
        self.assertEqual(task["entry"]["signature"],
                         'extern "C" void forward(const float* x, const float* linear_weight, '
                         'const float* linear_bias, float* out, int batch_size, int in_features, int out_features)')
        self.assertEqual(task["buffers"]["linear_weight"]["length"], "out_features*in_features")
        self.assertEqual(task["buffers"]["out"]["dtype"], "f32")
        self.assertNotIn("generators", task["buffers"]["x"])  # kopt's default cycle
        gens = task["buffers"]["linear_weight"]["generators"]
        self.assertEqual([g["kind"] for g in gens], ["uniform", "normal"])
        self.assertAlmostEqual(gens[0]["high"], -gens[0]["low"])
        self.assertAlmostEqual(gens[1]["std"], gens[0]["high"] / 2)
        self.assertEqual([s["name"] for s in task["sizes"]], ["problem", "small", "odd"])
        self.assertTrue(task["sizes"][2]["verify_only"])
        self.assertEqual(task["sizes"][0], {"name": "problem", "batch_size": 64, "in_features": 128, "out_features": 96})
        self.assertEqual(task["tolerance"], {"f32": {"atol": 1e-4, "rtol": 1e-4}, "bf16": {"atol": 1e-2, "rtol": 2e-2}})
        self.assertEqual(task["reference"], {"torch": "problem.py", "precision": "fp32"})
        self.assertEqual(task["work"]["flops"], "2*batch_size*in_features*out_features")
        self.assertNotIn("math", task["work"])
        self.assertEqual(abi["tensors"][0]["name"], "x")
        self.assertEqual(summary["schema"], "kopt.torch_import/1")
        self.assertEqual(summary["size_params"], ["batch_size", "in_features", "out_features"])

    def test_bf16_family_name_and_math(self) -> None:
        _, task, abi, _ = self._import("linear_relu", precision="bf16", name="my task", family="gemm")
        self.assertEqual(task["name"], "my_task")
        self.assertEqual(task["family"], "gemm")
        self.assertIn("const __nv_bfloat16* x", task["entry"]["signature"])
        self.assertIn("__nv_bfloat16* out", task["entry"]["signature"])
        self.assertEqual(task["work"]["math"], "tensor")
        self.assertEqual(task["reference"]["precision"], "bf16")
        self.assertEqual(abi["precision"], "bf16")

    def test_nonnegative_input(self) -> None:
        summary, task, _, out = self._import("log_nonneg")
        self.assertEqual(task["buffers"]["x"]["generators"],
                         [{"kind": "uniform", "low": 0.0, "high": 1.0}, {"kind": "uniform", "low": 0.5, "high": 2.0}])
        self.assertNotIn("generators", task["buffers"]["y"])
        self.assertIn("# x kept non-negative: the reference returns NaN on negative inputs",
                      (out / "task.toml").read_text())
        self.assertIn("x kept non-negative: the reference returns NaN on negative inputs", summary["notes"])

    def test_integer_input_range_and_constant_parameters(self) -> None:
        _, task, _, _ = self._import("embedding")
        self.assertEqual(task["buffers"]["idx"]["generators"],
                         [{"kind": "int_uniform", "low": 0, "high": "num_embeddings - 1"}])
        self.assertIn("const long long* idx", task["entry"]["signature"])
        self.assertEqual(task["buffers"]["norm_weight"]["generators"], [{"kind": "uniform", "low": 0.5, "high": 1.5}])
        self.assertEqual(task["buffers"]["norm_bias"]["generators"], [{"kind": "uniform", "low": -0.5, "high": 0.5}])
        # The lookup then the LayerNorm is a chain since 2026-12-07 (gather_rows then layernorm, tests.test_chain):
        # the table counts as many elements as the lookup writes.
        self.assertEqual(task["work"]["bytes"], "8*batch_size + 8*batch_size*dim + 8*dim")

    def test_conv_and_number_input(self) -> None:
        _, task, _, _ = self._import("conv_stride2")
        self.assertEqual(task["buffers"]["out"]["length"],
                         "batch_size*out_channels*((height - kernel_size + 2)/2 + 1)*((width - kernel_size + 2)/2 + 1)")
        _, task, abi, _ = self._import("scale_number")
        self.assertEqual(abi["fixed_inputs"], [{"index": 1, "value": 2.0}])
        self.assertEqual(task["entry"]["signature"], 'extern "C" void forward(const float* x, float* out, int N)')

    def test_a_gathered_table_counts_one_output_of_bytes_and_eps_is_a_number(self) -> None:
        # An embedding reads only the rows its ids select: the work model counts one output's worth of the
        # table (as the suite's own embedding task does), else the speed-of-light bound would call a correct
        # kernel implausibly fast (it did on an H100, 2026-12-06).
        out = self.tmp / "embedding"
        import_problem(CORPUS / "level1" / "embedding.py", out, precision="bf16")
        with open(out / "task.toml", "rb") as f:
            task = tomllib.load(f)
        self.assertEqual(task["family"], "gather_rows")
        self.assertEqual(task["work"]["bytes"], "8*batch_size*seq_len + 4*batch_size*seq_len*embedding_dim")
        # A norm's eps is a constant of the module: a TOML number in [binding], not an expression.
        out = self.tmp / "layer_norm"
        import_problem(CORPUS / "level1" / "layer_norm.py", out)
        with open(out / "task.toml", "rb") as f:
            task = tomllib.load(f)
        self.assertEqual((task["family"], task["binding"]["eps"], task["binding"]["gamma"]),
                         ("layernorm", 1e-5, "norm_weight"))

    def test_a_problem_that_asks_for_the_gpu_imports_without_one(self) -> None:
        # device="cuda" in get_inputs (as KernelBench's attention problem writes its inputs), .cuda() and
        # .to("cuda") in the constructor: the importer evaluates them on the meta device or the CPU. Before,
        # this machine's import failed with "Found no NVIDIA driver".
        summary, task, abi, _ = self._import("cuda_inputs")
        self.assertEqual(summary["size_params"], ["batch", "features"])
        self.assertEqual(task["entry"]["signature"],
                         'extern "C" void forward(const float* a, const float* b, const float* scale, '
                         'const float* shift, float* out, int batch, int features)')
        self.assertEqual([t["kind"] for t in abi["tensors"]], ["input", "input", "parameter", "buffer", "output"])
        self.assertEqual(task["buffers"]["out"]["length"], "batch*features")

    def test_a_module_too_large_for_the_cpu_is_never_built_there(self) -> None:
        # 2^29 weights or more in every size case: the importer derives the ABI on the meta device and reads no
        # initial values on the CPU (KernelBench's level3/2_ShallowWideMLP was killed for memory there).
        summary, task, _, _ = self._import("wide_list_mlp")
        notes = " ".join(summary["notes"])
        self.assertIn("parameters and buffers take kopt's default generators", notes)
        self.assertIn("the negative-input check did not run", notes)
        self.assertNotIn("generators", task["buffers"]["layer_weight"])

    def test_refuses_non_empty_folder_unless_forced(self) -> None:
        out = self.tmp / "t"
        out.mkdir()
        (out / "keep.txt").write_text("x")
        with self.assertRaises(ProblemError) as cm:
            import_problem(PROBLEMS / "two_outputs.py", out)
        self.assertIn("--force", str(cm.exception))
        import_problem(PROBLEMS / "two_outputs.py", out, force=True)
        self.assertTrue((out / "task.toml").is_file())

    def test_cli_error_is_one_line(self) -> None:
        r = subprocess.run([sys.executable, "-m", "kopt_torch", "import", str(self.tmp / "missing.py"), "-o",
                            str(self.tmp / "o")], cwd=PYTHON_DIR, capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.strip().count("\n"), 0)
        self.assertTrue(r.stderr.startswith("kopt_torch: "), r.stderr)
        self.assertIn("missing.py", r.stderr)

    def test_cli_summary_on_stdout_prints_on_stderr(self) -> None:
        prob = self.tmp / "noisy.py"
        prob.write_text("import torch\nprint('module says hi')\nclass Model(torch.nn.Module):\n"
                        "    def forward(self, x):\n        return x + 1\nN = 64\n"
                        "def get_inputs():\n    return [torch.randn(N)]\n")
        r = subprocess.run([sys.executable, "-m", "kopt_torch", "import", str(prob), "-o", str(self.tmp / "o")],
                           cwd=PYTHON_DIR, capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        summary = json.loads(r.stdout)
        self.assertEqual(summary["name"], "noisy_fp32")
        self.assertEqual(summary["sizes"][0], {"name": "problem", "values": {"N": 64}, "verify_only": False})
        self.assertIn("module says hi", r.stderr)

    def test_round_up_sig(self) -> None:
        self.assertEqual(round_up_sig(0.0312347), 0.0313)
        self.assertEqual(round_up_sig(4.5), 4.5)
        self.assertEqual(round_up_sig(123456.0), 124000.0)


if __name__ == "__main__":
    unittest.main()


KOPT = Path(os.environ["KOPT_BINARY_DIR"]) / "bin" / "kopt" if os.environ.get("KOPT_BINARY_DIR") else None


@unittest.skipIf(KOPT is None, "kopt is not built here (ctest sets KOPT_BINARY_DIR)")
class ImporterDigestTest(unittest.TestCase):
    def test_kopt_reuses_what_this_importer_wrote(self) -> None:
        # The importer records its digest in torch_abi.json (Python); kopt reuses a folder only when its own
        # digest of kopt_torch/*.py (C++) is the same: a second `--import-only` must keep the folder as it is.
        with tempfile.TemporaryDirectory() as tmp:
            problem = CORPUS / "level1" / "relu.py"
            run = [str(KOPT), "bench", str(problem), "--import-only", "--tasks", tmp, "--precision", "fp32",
                   "--json"]
            env = {**os.environ, "KOPT_PYTHON": sys.executable}
            first = subprocess.run(run, capture_output=True, text=True, env=env, timeout=600)
            self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
            task_dir = Path(json.loads(first.stdout)["problems"][0]["task_dir"])
            written = (task_dir / "task.toml").stat().st_mtime_ns
            second = subprocess.run(run, capture_output=True, text=True, env=env, timeout=600)
            self.assertEqual(second.returncode, 0, second.stdout + second.stderr)
            self.assertEqual((task_dir / "task.toml").stat().st_mtime_ns, written,
                             "kopt imported again what this importer had just written: the two digests differ")
