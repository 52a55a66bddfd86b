"""kopt_torch.export: model_new.py from a task folder and a launcher (CPU only; the GPU run is the lead's).

The task folder is written by hand here (task.toml, problem.py, torch_abi.json of docs/pytorch.md), so
these tests do not depend on the importer. The extension itself cannot be built and loaded without a
GPU: ModelNew runs with a stand-in extension (torch arithmetic) to check what it passes to the kernel,
and the generated CUDA translation unit is compiled (not linked, not loaded) with nvcc against torch's
headers when nvcc is there.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path
from types import ModuleType

import torch

from kopt_torch import expr as kexpr
from kopt_torch.errors import ProblemError
from kopt_torch.export import (CUDA_CFLAGS, _kopt_ceil_div, _kopt_compare, _kopt_tdiv, _kopt_tmod, build_export,
                               detect_mode, export, parse_signature, render_expr, size_plan, solve_sizes)

PYTHON_DIR = Path(__file__).resolve().parents[1]

PROBLEM = '''\
import torch
import torch.nn as nn


class Model(nn.Module):
    """y = relu(x @ W.T + b)."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.linear(x))


batch_size = 8
in_features = 16
out_features = 12


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
'''

TASK_TOML = '''\
name = "tiny_linear_relu"
description = "y = relu(x @ W.T + b)"

[entry]
signature = 'extern "C" void forward(const {t}* x, const {t}* linear_weight, const {t}* linear_bias, {t}* out, int batch_size, int in_features, int out_features)'

[buffers.x]
length = "batch_size*in_features"
dtype = "{d}"

[buffers.linear_weight]
length = "out_features*in_features"
dtype = "{d}"

[buffers.linear_bias]
length = "out_features"
dtype = "{d}"

[buffers.out]
length = "batch_size*out_features"
dtype = "{d}"

[[sizes]]
name = "problem"
batch_size = 8
in_features = 16
out_features = 12

[tolerance]
f32 = {{ atol = 0.0001, rtol = 0.0001 }}
bf16 = {{ atol = 0.01, rtol = 0.02 }}

[reference]
torch = "problem.py"
precision = "{p}"
'''

LAUNCHER = '''\
// y = relu(x @ W^T + b), one thread per output element.
#include <cuda_runtime.h>

__global__ void linear_relu(const float* x, const float* w, const float* b, float* y, int n, int k, int m) {
  int const row = blockIdx.y;
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= m) return;
  float acc = b[col];
  for (int i = 0; i < k; ++i) acc += x[row * k + i] * w[col * k + i];
  y[row * m + col] = acc > 0.f ? acc : 0.f;
}

extern "C" void forward(const float* x, const float* linear_weight, const float* linear_bias, float* out,
                        int batch_size, int in_features, int out_features) {
  dim3 const grid((out_features + 127) / 128, batch_size);
  linear_relu<<<grid, 128>>>(x, linear_weight, linear_bias, out, batch_size, in_features, out_features);
}
'''

# BF16, two outputs, implicit __nv_bfloat16 -> float conversions (which PyTorch's default nvcc macros forbid).
TWO_OUTPUT_PROBLEM = '''\
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=1), x.amax(dim=1)


rows = 4
cols = 32


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
'''

TWO_OUTPUT_LAUNCHER = '''\
#include <cuda_bf16.h>

__global__ void rows_kernel(const __nv_bfloat16* x, __nv_bfloat16* sm, __nv_bfloat16* mx, int r, int c) {
  int const row = blockIdx.x;
  if (row >= r || threadIdx.x != 0) return;
  float m = -1e30f;
  for (int j = 0; j < c; ++j) {
    float const v = x[row * c + j];
    m = v > m ? v : m;
  }
  float s = 0.f;
  for (int j = 0; j < c; ++j) s += __expf(float(x[row * c + j]) - m);
  for (int j = 0; j < c; ++j) sm[row * c + j] = __expf(float(x[row * c + j]) - m) / s;
  mx[row] = m;
}

extern "C" void forward(const __nv_bfloat16* x, __nv_bfloat16* out0, __nv_bfloat16* out1, int rows, int cols) {
  rows_kernel<<<rows, 32>>>(x, out0, out1, rows, cols);
}
'''

KERNEL_MODE = '''\
// kopt:launch grid=(ceil_div(batch_size*out_features, 256)) block=(256)
__global__ void forward(const float* x, const float* linear_weight, const float* linear_bias, float* out,
                        int batch_size, int in_features, int out_features) {}
'''


def abi_record(precision: str = "fp32") -> dict:
    d = {"fp32": "f32", "bf16": "bf16"}[precision]
    return {
        "schema": "kopt.torch_abi/1", "problem": "problem.py", "precision": precision, "torch": "2.11.0",
        "entry": "forward", "size_params": ["batch_size", "in_features", "out_features"],
        "constants": {"batch_size": 8, "in_features": 16, "out_features": 12},
        "tensors": [
            {"name": "x", "kind": "input", "index": 0, "dtype": d, "shape": ["batch_size", "in_features"]},
            {"name": "linear_weight", "kind": "parameter", "key": "linear.weight", "dtype": d,
             "shape": ["out_features", "in_features"]},
            {"name": "linear_bias", "kind": "parameter", "key": "linear.bias", "dtype": d, "shape": ["out_features"]},
            {"name": "out", "kind": "output", "index": 0, "dtype": d, "shape": ["batch_size", "out_features"]},
        ],
        "fixed_inputs": [],
        "sizes": [{"name": "problem", "values": {"batch_size": 8, "in_features": 16, "out_features": 12}}],
    }


def two_output_abi() -> dict:
    return {
        "schema": "kopt.torch_abi/1", "problem": "problem.py", "precision": "bf16", "torch": "2.11.0",
        "entry": "forward", "size_params": ["rows", "cols"], "constants": {"rows": 4, "cols": 32},
        "tensors": [
            {"name": "x", "kind": "input", "index": 0, "dtype": "bf16", "shape": ["rows", "cols"]},
            {"name": "out0", "kind": "output", "index": 0, "dtype": "bf16", "shape": ["rows", "cols"]},
            {"name": "out1", "kind": "output", "index": 1, "dtype": "bf16", "shape": ["rows"]},
        ],
        "fixed_inputs": [],
        "sizes": [{"name": "problem", "values": {"rows": 4, "cols": 32}}],
    }


def write_task(folder: Path, precision: str = "fp32") -> Path:
    import json

    folder.mkdir(parents=True, exist_ok=True)
    t = {"fp32": "float", "bf16": "__nv_bfloat16"}[precision]
    d = {"fp32": "f32", "bf16": "bf16"}[precision]
    (folder / "task.toml").write_text(TASK_TOML.format(t=t, d=d, p=precision), encoding="utf-8")
    (folder / "problem.py").write_text(PROBLEM, encoding="utf-8")
    (folder / "torch_abi.json").write_text(json.dumps(abi_record(precision), indent=1), encoding="utf-8")
    return folder


def write_two_output_task(folder: Path) -> Path:
    import json

    folder.mkdir(parents=True, exist_ok=True)
    toml = textwrap.dedent('''\
        name = "two_outputs_bf16"
        description = "row softmax and row max"

        [entry]
        signature = 'extern "C" void forward(const __nv_bfloat16* x, __nv_bfloat16* out0, __nv_bfloat16* out1, int rows, int cols)'

        [buffers.x]
        length = "rows*cols"
        dtype = "bf16"

        [buffers.out0]
        length = "rows*cols"
        dtype = "bf16"

        [buffers.out1]
        length = "rows"
        dtype = "bf16"

        [[sizes]]
        name = "problem"
        rows = 4
        cols = 32

        [reference]
        torch = "problem.py"
        precision = "bf16"
        ''')
    (folder / "task.toml").write_text(toml, encoding="utf-8")
    (folder / "problem.py").write_text(TWO_OUTPUT_PROBLEM, encoding="utf-8")
    (folder / "torch_abi.json").write_text(json.dumps(two_output_abi(), indent=1), encoding="utf-8")
    return folder


def import_file(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class StandIn:
    """An extension stand-in: records what the kernel would get and computes with torch."""

    def __init__(self, compute):
        self.compute = compute
        self.calls: list[tuple[list[torch.Tensor], list[int]]] = []

    def kopt_forward(self, tensors, sizes):
        self.calls.append((list(tensors), list(sizes)))
        return self.compute(tensors, sizes)


class ExportFileTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory()
        cls.tmp = Path(cls._tmp.name)
        cls.task = write_task(cls.tmp / "task")
        cls.kernel = cls.tmp / "best.cu"
        cls.kernel.write_text(LAUNCHER, encoding="utf-8")
        cls.out = cls.tmp / "model_new.py"
        cls.result = export(cls.task, cls.kernel, cls.out, run_info="run 3, candidate 17")
        cls.text = cls.out.read_text(encoding="utf-8")
        cls.module = import_file(cls.out, "kopt_test_model_new")

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def test_file_parses_and_embeds_the_problem_verbatim_first(self) -> None:
        tree = ast.parse(self.text)
        self.assertIn(PROBLEM, self.text)
        before = self.text[: self.text.index(PROBLEM)]
        self.assertTrue(all(line.startswith("#") or not line for line in before.splitlines()),
                        "only the header comment comes before the problem")
        self.assertIn("run 3, candidate 17", before)
        self.assertIn("precision fp32", before)
        self.assertIn("--check", before)
        self.assertIn(f"torch.ops.kopt.{self.result.name}", before)
        classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        self.assertEqual([ast.unparse(b) for b in classes["ModelNew"].bases], ["Model"])
        self.assertIn(repr(LAUNCHER) if "'''" in LAUNCHER else LAUNCHER, self.text)

    def test_names_and_flags(self) -> None:
        self.assertEqual(self.result.name, "tiny_linear_relu")
        self.assertRegex(self.result.extension, r"^kopt_tiny_linear_relu_[0-9a-f]{10}$")
        self.assertIn("--default-stream=per-thread", CUDA_CFLAGS)
        self.assertIn("-std=c++17", CUDA_CFLAGS)
        other = self.tmp / "other.cu"
        other.write_text(LAUNCHER.replace("128", "256"), encoding="utf-8")
        self.assertNotEqual(build_export(self.task, other).extension, self.result.extension,
                            "another kernel gets another extension name")
        self.assertEqual(build_export(self.task, self.kernel, name="mine").name, "mine")

    def test_wrapper_checks_and_streams(self) -> None:
        body = self.result.wrapper_body
        for t in ("x", "linear_weight", "linear_bias"):
            self.assertIn(f'check_tensor(t_{t}, "{t}", torch::kFloat32', body)
        self.assertIn("s_batch_size * s_in_features", body)
        self.assertIn("torch::empty(std::vector<int64_t>{s_batch_size, s_out_features}", body)
        self.assertIn("cudaStreamWaitEvent(cudaStreamPerThread, ev.before", body)
        self.assertIn("cudaStreamWaitEvent(stream, ev.after", body)
        self.assertIn("c10::cuda::getCurrentCUDAStream", body)
        self.assertIn("static_cast<int>(s_out_features)", body)
        self.assertIn("std::vector<torch::Tensor> kopt_forward(std::vector<torch::Tensor> tensors, "
                      "std::vector<int64_t> sizes)", body)

    def test_custom_op_is_registered_by_name(self) -> None:
        self.assertTrue(hasattr(torch.ops.kopt, self.result.name))
        self.assertTrue(issubclass(self.module.ModelNew, self.module.Model))
        import_file(self.out, "kopt_test_model_new_again")  # a second import registers nothing new
        other = self.tmp / "other_name.cu"
        other.write_text(LAUNCHER.replace("128", "64"), encoding="utf-8")
        clash = self.tmp / "clash.py"
        export(self.task, other, clash)
        with self.assertRaisesRegex(RuntimeError, "already registered by another export"):
            import_file(clash, "kopt_test_clash")

    def _stand_in(self) -> StandIn:
        def compute(tensors, sizes):
            x, w, b = tensors
            return [torch.relu(x @ w.T + b)]

        stand_in = StandIn(compute)
        self.module._kopt_extension = stand_in
        return stand_in

    def test_model_new_gathers_inputs_and_parameters_and_solves_sizes(self) -> None:
        m = self.module
        stand_in = self._stand_in()
        torch.manual_seed(0)
        ref = m.Model(*m.get_init_inputs())
        torch.manual_seed(0)
        new = m.ModelNew(*m.get_init_inputs())
        self.assertTrue(all(torch.equal(a, b) for a, b in zip(ref.state_dict().values(), new.state_dict().values())))
        torch.manual_seed(1)
        x = m.get_inputs()
        with torch.no_grad():
            self.assertTrue(torch.equal(new(*x), ref(*x)))
        tensors, sizes = stand_in.calls[-1]
        self.assertEqual(sizes, [8, 16, 12])
        self.assertEqual(tensors[0].data_ptr(), x[0].data_ptr())
        self.assertEqual(tensors[1].data_ptr(), new.linear.weight.data_ptr())
        self.assertEqual(tensors[2].data_ptr(), new.linear.bias.data_ptr())
        # a non-contiguous input is made contiguous; another batch size is read off x
        xt = torch.randn(16, 5).T  # a (5, 16) view, not contiguous
        self.assertFalse(xt.is_contiguous())
        with torch.no_grad():
            new(xt)
        tensors, sizes = stand_in.calls[-1]
        self.assertEqual(sizes, [5, 16, 12])
        self.assertTrue(tensors[0].is_contiguous())

    def test_model_new_rejects_wrong_inputs(self) -> None:
        m = self.module
        self._stand_in()
        new = m.ModelNew(*m.get_init_inputs())
        with self.assertRaisesRegex(TypeError, "expected 1 inputs"):
            new(torch.randn(8, 16), torch.randn(1))
        with self.assertRaisesRegex(ValueError, "tensor x has 3 dimensions"):
            new(torch.randn(2, 8, 16))

    def test_torch_compile_goes_through_the_custom_op(self) -> None:
        m = self.module
        stand_in = self._stand_in()
        torch.manual_seed(0)
        new = m.ModelNew(*m.get_init_inputs())
        x = m.get_inputs()
        compiled = torch.compile(new, backend="aot_eager", fullgraph=True)
        with torch.no_grad():
            y = compiled(*x)
            self.assertTrue(torch.allclose(y, new(*x)))
        self.assertGreaterEqual(len(stand_in.calls), 2)

    def test_check_without_a_gpu_says_so(self) -> None:
        if torch.cuda.is_available():
            self.skipTest("a GPU is there: the check would build the extension")
        run = subprocess.run([sys.executable, str(self.out), "--check"], capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 1)
        self.assertIn("needs a CUDA GPU", run.stdout)
        usage = subprocess.run([sys.executable, str(self.out)], capture_output=True, text=True, timeout=120)
        self.assertEqual(usage.returncode, 2)
        self.assertIn("--check", usage.stderr)

    @unittest.skipUnless(torch.cuda.is_available(), "needs a GPU")
    def test_check_on_a_gpu(self) -> None:
        """Builds the extension with nvcc and compares ModelNew with Model (slow: the first build)."""
        run = subprocess.run([sys.executable, str(self.out), "--check"], capture_output=True, text=True, timeout=600)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("ModelNew", run.stdout)


class Bf16TwoOutputTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory()
        cls.tmp = Path(cls._tmp.name)
        cls.task = write_two_output_task(cls.tmp / "task")
        cls.kernel = cls.tmp / "best.cu"
        cls.kernel.write_text(TWO_OUTPUT_LAUNCHER, encoding="utf-8")
        cls.out = cls.tmp / "model_new.py"
        cls.result = export(cls.task, cls.kernel, cls.out)
        cls.module = import_file(cls.out, "kopt_test_two_outputs")

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def test_casts_to_bf16_and_returns_a_tuple(self) -> None:
        m = self.module

        def compute(tensors, sizes):
            (x,) = tensors
            return [torch.softmax(x.float(), dim=1).to(torch.bfloat16), x.amax(dim=1)]

        stand_in = StandIn(compute)
        m._kopt_extension = stand_in
        new = m.ModelNew(*m.get_init_inputs())
        x = m.get_inputs()
        out = new(*x)
        self.assertIsInstance(out, tuple)
        self.assertEqual([o.dtype for o in out], [torch.bfloat16, torch.bfloat16])
        self.assertEqual([tuple(o.shape) for o in out], [(4, 32), (4,)])
        tensors, sizes = stand_in.calls[-1]
        self.assertEqual(tensors[0].dtype, torch.bfloat16)
        self.assertEqual(sizes, [4, 32])
        self.assertIn('check_tensor(t_x, "x", torch::kBFloat16', self.result.wrapper_body)
        self.assertIn("return {t_out0, t_out1};", self.result.wrapper_body)
        self.assertEqual(m._kopt_output_shapes([4, 32]), [(4, 32), (4,)])
        # the task.toml has no [tolerance]: the bf16 default of docs/task-format.md
        self.assertEqual(m._KOPT_TOLERANCE[0], {"atol": 0.01, "rtol": 0.016, "mismatch_fraction": 0.0})

    @unittest.skipUnless(shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc"), "needs nvcc")
    def test_cuda_translation_unit_compiles(self) -> None:
        """nvcc -c of the .cu load_inline would build (the wrapper and the kernel) against torch's headers.

        Slow: about 40 s on two cores (torch's headers). The flags are the extension's, with PyTorch's
        COMMON_NVCC_FLAGS before them as load_inline passes them, except -O0 for -O3 (time); nothing is
        linked or loaded.
        """
        from torch.utils.cpp_extension import COMMON_NVCC_FLAGS, include_paths

        nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        unit = self.tmp / "cuda.cu"
        unit.write_text(self.result.cuda_translation_unit(), encoding="utf-8")
        flags = [f for f in self.result.cuda_cflags if f != "-O3"] + ["-O0", "-Xcompiler", "-O0"]
        abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)
        cmd = ([nvcc, "-c", str(unit), "-o", str(self.tmp / "cuda.o"), "-arch=sm_90", "--compiler-options", "-fPIC",
                f"-D_GLIBCXX_USE_CXX11_ABI={abi}"] + [f"-I{p}" for p in include_paths(device_type="cuda")]
               + COMMON_NVCC_FLAGS + flags)
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr[-4000:])


class RefusalsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory()
        cls.tmp = Path(cls._tmp.name)

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def _task(self, name: str) -> Path:
        return write_task(self.tmp / name)

    def _kernel(self, text: str, name: str = "k.cu") -> Path:
        path = self.tmp / name
        path.write_text(text, encoding="utf-8")
        return path

    def test_kernel_mode_candidate_gets_a_generated_launcher(self) -> None:
        result = build_export(self._task("km"), self._kernel(KERNEL_MODE, "km.cu"))
        unit = result.cuda_translation_unit()
        self.assertIn("__global__ void kopt_kernel_forward(", unit)
        self.assertIn('extern "C" void forward(const float* x, const float* linear_weight', unit)
        self.assertIn("kopt_kernel_forward<<<kopt_grid, kopt_block, (size_t)(0)>>>(x, linear_weight, linear_bias, "
                      "out, batch_size, in_features, out_features);", unit)
        self.assertIn("dim3 const kopt_grid((unsigned int)(kopt_ceil_div(batch_size*out_features, 256)));", unit)

    def test_kernel_mode_knobs_become_defines_and_flags_are_named(self) -> None:
        knobbed = ("// kopt:knob BLOCK = [128, 256]\n// kopt:flag FAST_MATH = [\"\", \"--use_fast_math\"]\n"
                   "// kopt:launch grid=(64) block=(BLOCK) kernel=scale args=(out, i32(batch_size * 2))\n"
                   "__global__ void scale(float* out, int n) {}\n")
        result = build_export(self._task("km_other"), self._kernel(knobbed, "km_other.cu"),
                              knobs={"BLOCK": 128, "FAST_MATH": "--use_fast_math"})
        unit = result.cuda_translation_unit()
        self.assertIn("#define BLOCK 128", unit)
        self.assertNotIn("#define FAST_MATH", unit)
        self.assertIn("scale<<<kopt_grid, kopt_block, (size_t)(0)>>>(out, (int)(batch_size * 2));", unit)
        self.assertIn("compiler-flag knobs left out: FAST_MATH=--use_fast_math", result.text)

    def test_kernel_mode_candidate_without_a_launch_line_is_refused(self) -> None:
        bare = "__global__ void forward(float* out) {}\n"
        with self.assertRaisesRegex(ProblemError, "without a // kopt:launch line"):
            build_export(self._task("km_bare"), self._kernel(bare, "km_bare.cu"))

    def test_no_launcher(self) -> None:
        with self.assertRaisesRegex(ProblemError, "defines no host function forward"):
            build_export(self._task("nl"), self._kernel("__device__ void forward(float* x) {}\n", "nl.cu"))

    def test_not_a_pytorch_task(self) -> None:
        task = self._task("cuda_ref")
        toml = (task / "task.toml").read_text()
        (task / "task.toml").write_text(toml.replace('torch = "problem.py"', 'source = "reference.cu"'))
        with self.assertRaisesRegex(ProblemError, r"task.toml: \[reference\] has no 'torch' key"):
            build_export(task, self._kernel(LAUNCHER))

    def test_signature_and_abi_disagree(self) -> None:
        task = self._task("disagree")
        toml = (task / "task.toml").read_text()
        (task / "task.toml").write_text(toml.replace("const float* linear_bias, ", ""))
        with self.assertRaisesRegex(ProblemError, "signature's pointers"):
            build_export(task, self._kernel(LAUNCHER))

    def test_missing_abi(self) -> None:
        task = self._task("no_abi")
        (task / "torch_abi.json").unlink()
        with self.assertRaisesRegex(ProblemError, "torch_abi.json: cannot read"):
            build_export(task, self._kernel(LAUNCHER))

    def test_command_line(self) -> None:
        task = self._task("cli")
        env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), PYTHONDONTWRITEBYTECODE="1")
        out = self.tmp / "cli_model_new.py"
        ok = subprocess.run([sys.executable, "-m", "kopt_torch", "export", str(task), str(self._kernel(LAUNCHER)),
                             "-o", str(out), "--run-info", "run 1, candidate 2"],
                            capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertIn("torch.ops.kopt.tiny_linear_relu", ok.stdout)
        self.assertTrue(out.is_file())
        bad = subprocess.run([sys.executable, "-m", "kopt_torch", "export", str(task),
                              str(self._kernel("__global__ void forward(float* out) {}\n", "km2.cu")),
                              "-o", str(self.tmp / "x.py")],
                             capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(bad.returncode, 2)
        self.assertTrue(bad.stderr.startswith("kopt_torch: ") and bad.stderr.count("\n") == 1, bad.stderr)
        self.assertFalse((self.tmp / "x.py").exists())


KOPT = Path(os.environ["KOPT_BINARY_DIR"]) / "bin" / "kopt" if os.environ.get("KOPT_BINARY_DIR") else None
CORPUS = PYTHON_DIR.parent / "suites" / "pytorch"


@unittest.skipIf(KOPT is None, "kopt is not built here (ctest sets KOPT_BINARY_DIR)")
class ChainExportTest(unittest.TestCase):
    """A chain's launcher (`kopt strategies TASK --instantiate "a + b"`, what a chain session stores) exported.

    The corpus's level2/gemm_sum (linear then a row sum) imported by the importer, its first combination
    instantiated by kopt, exported with knob values as `kopt export RUN --torch` passes a run's configuration.
    nvcc of the translation unit is test_cuda_translation_unit_compiles's, not repeated here (it takes a minute
    and a half for a chain; run once by hand, docs/pytorch.md "Export back to PyTorch").
    """

    def test_a_chains_launcher_exports_with_its_knobs_and_intermediates(self) -> None:
        from kopt_torch.importer import import_problem

        with tempfile.TemporaryDirectory() as tmp:
            task = Path(tmp) / "gemm_sum"
            import_problem(CORPUS / "level2" / "gemm_sum.py", task)
            listing = subprocess.run([str(KOPT), "strategies", str(task), "--json"], capture_output=True, text=True,
                                     timeout=120)
            self.assertEqual(listing.returncode, 0, listing.stderr)
            combination = json.loads(listing.stdout)["combinations"][0]
            self.assertIn(" + ", combination)
            kernel = Path(tmp) / "chain.cu"
            made = subprocess.run([str(KOPT), "strategies", str(task), "--instantiate", combination, "-o", str(kernel)],
                                  capture_output=True, text=True, timeout=120)
            self.assertEqual(made.returncode, 0, made.stderr)
            knobs = {"S0_BM": 64, "S0_BN": 64, "S0_BK": 16, "S0_TM": 4, "S0_TN": 4}
            result = build_export(task, kernel, knobs=knobs)
            unit = result.cuda_translation_unit()
            # The run's configuration before the chain's text, whose own defaults are #ifndef-guarded.
            defines = unit.index("#define S0_BM 64")
            self.assertLess(defines, unit.index("kopt_stage_0"))
            self.assertIn("#ifndef S0_BM", unit)
            # One launcher for the whole chain: the intermediate is its own buffer, not a tensor of the op.
            self.assertIn('extern "C" void forward(const float* x, const float* linear_weight, '
                          'const float* linear_bias, float* out, int batch_size, int in_features, int out_features)',
                          unit)
            self.assertIn("kopt_chain_t0", unit)
            call = unit[unit.index("  forward(reinterpret_cast"):]
            call = call[:call.index(";")]
            for name in ("t_x", "t_linear_weight", "t_linear_bias", "t_out", "batch_size", "in_features",
                         "out_features"):
                self.assertIn(name, call)
            self.assertNotIn("t0", call)
            ast.parse(result.text)


class HelpersTest(unittest.TestCase):
    def test_size_plan_two_outputs(self) -> None:
        abi = two_output_abi()
        plan = size_plan(abi)
        self.assertEqual(plan, [("dim", 0, 0, 2), ("dim", 0, 1, 2)])
        self.assertEqual(solve_sizes(plan, [torch.empty(3, 7)], ["x"]), [3, 7])
        with self.assertRaisesRegex(ValueError, "tensor x has 1 dimensions"):
            solve_sizes(plan, [torch.empty(21)], ["x"])

    def test_size_plan_parameter_only_in_a_product(self) -> None:
        abi = {
            "size_params": ["N", "C", "H", "out_dim0"], "constants": {"N": 4, "C": 3, "H": 5},
            "tensors": [
                {"name": "x", "kind": "input", "index": 0, "dtype": "f32", "shape": ["N*C", "H"]},
                {"name": "w", "kind": "parameter", "key": "w", "dtype": "f32", "shape": [2, "H"]},
                {"name": "out", "kind": "output", "index": 0, "dtype": "f32", "shape": ["out_dim0"]},
            ],
            "sizes": [{"name": "problem", "values": {"N": 4, "C": 3, "H": 5, "out_dim0": 9}}],
        }
        plan = size_plan(abi)
        self.assertEqual(plan, [("const", 4), ("const", 3), ("dim", 0, 1, 2), ("const", 9)])
        self.assertEqual(solve_sizes(plan, [torch.empty(12, 6), torch.empty(2, 6)], ["x", "w"]), [4, 3, 6, 9])
        del abi["sizes"]
        with self.assertRaisesRegex(ProblemError, "size parameter out_dim0 is no dimension"):
            size_plan(abi)

    def test_first_dimension_wins(self) -> None:
        abi = abi_record()
        plan = size_plan(abi)
        # out_features: linear_weight's dimension 0 (position 1), not linear_bias's
        self.assertEqual(plan, [("dim", 0, 0, 2), ("dim", 0, 1, 2), ("dim", 1, 0, 2)])

    def test_division_helpers_match_kopt_expressions(self) -> None:
        for a, b in itertools.product(range(-9, 10), [-4, -3, -1, 1, 2, 3, 5]):
            env = {"a": a, "b": b}
            self.assertEqual(_kopt_tdiv(a, b), kexpr.evaluate("a / b", env), (a, b))
            self.assertEqual(_kopt_tmod(a, b), kexpr.evaluate("a % b", env), (a, b))
            self.assertEqual(_kopt_ceil_div(a, b), kexpr.evaluate("ceil_div(a, b)", env), (a, b))

    def test_rendered_expressions(self) -> None:
        params = ["a", "b"]
        exprs = ["(a + 1)/2", "ceil_div(a, 4) * b", "a % 3 - b", "min(a, b) + max(a, 2)", "abs(a - b)", 7, "-a + b*b"]
        for e in exprs:
            py = render_expr(e, params, "py", "test")
            for a, b in itertools.product(range(-5, 9), range(1, 6)):
                value = eval(py, {"_kopt_tdiv": _kopt_tdiv, "_kopt_tmod": _kopt_tmod,  # noqa: S307 - our own text
                                  "_kopt_ceil_div": _kopt_ceil_div}, {"s": [a, b]})
                self.assertEqual(value, kexpr.evaluate(e, {"a": a, "b": b}), (e, a, b))
        self.assertEqual(render_expr("(a + 1)/2", params, "cpp", "t"), "kopt_export::div((s_a + int64_t{1}), int64_t{2})")
        self.assertEqual(render_expr("min(a, b)", params, "cpp", "t"), "std::min<int64_t>(s_a, s_b)")
        with self.assertRaisesRegex(ProblemError, "unknown identifier 'z'"):
            render_expr("z + 1", params, "cpp", "t")

    def test_detect_mode(self) -> None:
        self.assertEqual(detect_mode(LAUNCHER, "forward"), "launcher")
        self.assertEqual(detect_mode(KERNEL_MODE, "forward"), "kernel")
        commented = "// __global__ void forward(float* x) {}\n/* __global__ void forward() {} */\n" + LAUNCHER
        self.assertEqual(detect_mode(commented, "forward"), "launcher")
        declared = 'extern "C" void forward(const float* x);\n__global__ void k() {}\n'
        self.assertIsNone(detect_mode(declared, "forward"))
        block = 'extern "C" {\nvoid forward(float* x, int n) { }\n}\n'
        self.assertEqual(detect_mode(block, "forward"), "launcher")

    def test_parse_signature(self) -> None:
        params = parse_signature('extern "C" void forward(const __nv_bfloat16 *x, float* out, long long n, int m)',
                                 "forward", "t")
        self.assertEqual([(p.ctype, p.name) for p in params],
                         [("const __nv_bfloat16*", "x"), ("float*", "out"), ("long long", "n"), ("int", "m")])
        with self.assertRaisesRegex(ProblemError, "expected 'extern"):
            parse_signature("void other(int n)", "forward", "t")

    def test_compare(self) -> None:
        ref = torch.tensor([1.0, -2.0, 4.0, float("nan")])
        ok, _ = _kopt_compare(ref + 1e-5, ref, 1e-4, 1e-4, 0.0)
        self.assertTrue(ok)
        ok, report = _kopt_compare(ref + torch.tensor([0.0, 0.0, 0.1, 0.0]), ref, 1e-4, 1e-4, 0.0)
        self.assertFalse(ok)
        self.assertIn("1 of 4 elements outside", report)
        ok, report = _kopt_compare(torch.zeros(4), torch.tensor([0.0, 1e-9, 0.0, 0.0]), 1e-4, 0.0, 0.5)
        self.assertFalse(ok)
        self.assertIn("constant where the reference is not", report)
        ok, report = _kopt_compare(torch.zeros(3), torch.zeros(4), 1e-4, 1e-4, 0.0)
        self.assertFalse(ok)
        self.assertIn("shape", report)
        ok, _ = _kopt_compare(torch.tensor([1, 2]), torch.tensor([1, 2]), 0.0, 0.0, 0.0)
        self.assertTrue(ok)


if __name__ == "__main__":
    unittest.main()
