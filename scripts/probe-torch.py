"""What the GPU machine's PyTorch offers the bridge (docs/pytorch.md, "Decisions"): torch and CUDA versions,
import time, whether torch.compile and load_inline work and how long their first call takes, TF32's default,
ninja and the compilers. Writes $OUT/probe.json. Run on the GPU host: `python3 scripts/probe-torch.py`.
Result of 2026-12-04 (H200): docs/results/pytorch-2026-12-04/probe.json."""
import os, sys, time, json, shutil, subprocess
r = {}
t0 = time.time()
import torch
r["import_s"] = time.time() - t0
r["torch"] = torch.__version__; r["cuda"] = torch.version.cuda; r["avail"] = torch.cuda.is_available()
r["torch_dir"] = os.path.dirname(torch.__file__)
r["libs"] = sorted(os.listdir(os.path.join(r["torch_dir"], "lib")))[:60]
r["has_include"] = os.path.isdir(os.path.join(r["torch_dir"], "include"))
r["ninja"] = shutil.which("ninja"); r["nvcc"] = shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")
r["gcc"] = shutil.which("gcc"); r["cxx"] = shutil.which("c++")
r["python"] = sys.version
try:
    import triton; r["triton"] = triton.__version__
except Exception as e: r["triton"] = str(e)
dev = torch.device("cuda")
a = torch.randn(4096, 4096, device=dev); b = torch.randn(4096, 4096, device=dev)
torch.cuda.synchronize()
s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
for _ in range(3): a @ b
s.record(); 
for _ in range(10): a @ b
e.record(); torch.cuda.synchronize(); r["mm_ms"] = s.elapsed_time(e) / 10
r["tf32_default"] = torch.backends.cuda.matmul.allow_tf32
try:
    t0 = time.time()
    f = torch.compile(lambda x: torch.relu(x) * 2 + 1)
    y = f(a); torch.cuda.synchronize()
    r["compile_first_s"] = time.time() - t0
except Exception as ex:
    r["compile_err"] = repr(ex)[:2000]
try:
    from torch.utils.cpp_extension import load_inline
    t0 = time.time()
    cuda_src = "__global__ void k(float* x, int n){int i=blockIdx.x*blockDim.x+threadIdx.x; if(i<n) x[i]*=2;}\n torch::Tensor dbl(torch::Tensor x){auto y=x.clone(); int n=y.numel(); k<<<(n+255)/256,256>>>(y.data_ptr<float>(), n); return y;}"
    cpp_src = "torch::Tensor dbl(torch::Tensor x);"
    m = load_inline(name="probe_ext", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=["dbl"], verbose=False, build_directory=None)
    r["load_inline_s"] = time.time() - t0
    r["load_inline_ok"] = bool((m.dbl(a) == a * 2).all().item())
except Exception as ex:
    r["load_inline_err"] = repr(ex)[:3000]
r["pip"] = subprocess.run([sys.executable, "-m", "pip", "list"], capture_output=True, text=True).stdout[-4000:]
out = os.environ.get("OUT", ".")
json.dump(r, open(os.path.join(out, "probe.json"), "w"), indent=1)
print(json.dumps({k: v for k, v in r.items() if k not in ("libs", "pip")}, indent=1))
