// A chain task shared by the chain tests (docs/task-format.md, "Chains"): nn.Linear with a GELU, then a
// softmax over the features, as KernelBench's Matmul_GELU_Softmax computes it.
#pragma once

#include <string>

namespace kopt::test {

// `type` is "float" or "__nv_bfloat16"; the task folder needs a reference.cu (any text: it is not built).
inline std::string linear_softmax_chain_toml(std::string const& type = "float") {
  std::string const dtype = type == "float" ? "f32" : "bf16";
  return "name = \"linear_gelu_softmax\"\n"
         "description = \"softmax(gelu(x W^T + b), dim=1)\"\n"
         "[entry]\n"
         "signature = 'extern \"C\" void forward(const " +
         type + "* x, const " + type + "* weight, const " + type + "* bias, " + type +
         "* out, int M, int N, int K)'\n"
         "[buffers.x]\nlength = \"M * K\"\n"
         "[buffers.weight]\nlength = \"N * K\"\n"
         "[buffers.bias]\nlength = \"N\"\n"
         "[buffers.out]\nlength = \"M * N\"\n"
         "[[sizes]]\nname = \"odd\"\nM = 7\nN = 37\nK = 19\nverify_only = true\n"
         "[[sizes]]\nname = \"large\"\nM = 1024\nN = 2048\nK = 1024\n"
         "[reference]\nsource = \"reference.cu\"\n"
         "[[intermediates]]\nname = \"t0\"\nlength = \"M * N\"\n"
         "[[stages]]\nfamily = \"linear\"\nreads = [\"x\", \"weight\", \"bias\"]\nwrites = [\"t0\"]\n"
         "strategy_params = { op = \"0.5f * v * (1.0f + erff(v * 0.70710678f))\" }\n"
         "binding = { M = \"M\", N = \"N\", K = \"K\" }\n"
         "[[stages]]\nfamily = \"row_softmax\"\nreads = [\"t0\"]\nwrites = [\"out\"]\n"
         "binding = { N = \"M\", C = \"N\" }\n";
}

}  // namespace kopt::test
