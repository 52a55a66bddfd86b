// Profiler output parsing and the Nsight Compute command line. Pure text processing: no
// GPU, no ncu and no disassembler are needed to use or test this module (docs/profiling.md).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/result.hpp"

namespace kopt {

// ---------------------------------------------------------------------------------------------------
// Nsight Compute CSV

struct LaunchDim {
  std::int64_t x = 1;
  std::int64_t y = 1;
  std::int64_t z = 1;
  std::int64_t count() const noexcept { return x * y * z; }
  friend bool operator==(LaunchDim const&, LaunchDim const&) = default;
};

// One profiled kernel launch.
struct NcuKernelRow {
  std::string kernel_name;         // "Kernel Name" column (ncu's --kernel-name-base, default function)
  std::optional<std::int64_t> id;  // "ID" column: ncu's running launch number
  std::optional<LaunchDim> block;  // "Block Size" column, e.g. "(256, 1, 1)"
  std::optional<LaunchDim> grid;   // "Grid Size" column
  // Metric name -> numeric value as printed (with --print-units base: base units; "%" stays percent).
  // Values that are empty, "n/a" or not numbers are absent here (never 0).
  std::map<std::string, double, std::less<>> metrics;
  // Metric name -> unit as printed ("byte", "ns", "%", "block", ...); metrics with no unit are absent.
  std::map<std::string, std::string, std::less<>> units;
  // Raw strings of every non-numeric field: the identity columns ("Kernel Name", "Process ID",
  // "Device", "CC", ...) and metric values that are not numbers ("n/a", "NVIDIA H200", "(256, 1, 1)").
  std::map<std::string, std::string, std::less<>> text_fields;

  std::optional<double> metric(std::string_view name) const;
  std::optional<std::string_view> text(std::string_view name) const;
};

// Parses the output of `ncu --csv --page raw --print-units base` (row 1: column names, row 2: units,
// then one row per profiled launch) or of `ncu --csv` without --page raw (long format: one row per
// metric with "Metric Name", "Metric Unit", "Metric Value"; rows are grouped by "ID"). Tolerates a
// UTF-8 BOM, CRLF line ends, thousands separators ("268,449,792"), and lines that are not ncu CSV rows
// (==PROF== / ==WARNING== lines, the application's own output) before or among the rows. Rows come
// in input order. Fails (invalid_argument, message starting with `source`) when there is no header
// row or no kernel row; the message quotes ncu's first ==ERROR== / ==WARNING== line when there is one.
Result<std::vector<NcuKernelRow>> parse_ncu_raw_csv(std::string_view text,
                                                    std::string_view source = "ncu output");

// Parses one ncu number: optional sign, digits with optional "," thousands groups, optional fraction
// and exponent ("268,449,792", "16.31", "4.0e-05"). Empty, "n/a", decimal commas ("9,00"), inf/nan
// and anything else give nullopt.
std::optional<double> parse_ncu_number(std::string_view text);

// ---------------------------------------------------------------------------------------------------
// Nsight Compute command

enum class NcuKernelNameBase { function, demangled, mangled };

// Profiled launches: ncu collects `metrics` for `launch_count` launches (default one) of `target_argv`,
// skipping the first `launch_skip` launches that match the filters (kernel name and/or NVTX range),
// and leaves the GPU clocks alone.
struct NcuCommand {
  std::string ncu_path = "ncu";
  std::string kernel_name;  // exact name, matched as regex:^<escaped name>$; empty: any kernel
  NcuKernelNameBase kernel_name_base = NcuKernelNameBase::function;
  std::string nvtx_include;  // --nvtx --nvtx-include <this> ("range/" = a push/pop range); empty: none
  int launch_skip = 0;
  int launch_count = 1;
  std::vector<std::string> metrics;  // metric names (ncu also takes regex:, group:, breakdown:)
  std::string log_file;              // --log-file path; empty: the CSV shares stdout with the app
  // The program to profile and its arguments; empty: the caller appends them (ncu as a wrapper).
  std::vector<std::string> target_argv;
};

// The argv (argv[0] = ncu_path) for `command`: --clock-control none (always: kopt never locks the
// clocks), --kernel-name-base and --print-kernel-base (both kernel_name_base, so the CSV's "Kernel
// Name" reads like kernel_name), --kernel-name regex:^NAME$ (when set), --nvtx --nvtx-include RANGE
// (when set), --launch-skip, --launch-count, --metrics a,b,c (duplicates dropped, order kept), --csv
// --page raw --print-units base, --log-file PATH (when set), then the target argv; the caller runs it
// (as an argv: profile_launch starts the worker under it, no shell). Fails (invalid_argument) on an empty
// ncu path or metric list, a target whose program name is empty, neither a kernel name nor an NVTX range
// (every kernel would be profiled), a negative launch skip, a launch count below 1, or a metric name with a
// comma, whitespace or a control character.
Result<std::vector<std::string>> ncu_arguments(NcuCommand const& command);

// `text` with every ECMAScript/POSIX extended regex metacharacter backslash-escaped.
std::string escape_regex(std::string_view text);

// ---------------------------------------------------------------------------------------------------
// SASS (cuobjdump -sass / nvdisasm text)

// Memory instructions of one state space, by access width in bits per thread (LDG.E.128 -> 128,
// LDG.E.64 -> 64, LDG.E -> 32, LDG.E.U8 -> 8; LDSM/STSM: 32 x the matrix count).
struct SassMemoryCounts {
  std::map<int, int> loads_by_width;
  std::map<int, int> stores_by_width;
  int loads() const noexcept;
  int stores() const noexcept;
  int loads_of_width(int bits) const noexcept;
  int stores_of_width(int bits) const noexcept;
};

// Static instruction counts of one function. Instructions predicated on @!PT never execute: they
// are counted in never_executed only.
struct SassFunction {
  std::string name;  // mangled, as the disassembler prints it
  std::string arch;  // "sm_90" when the text says so, else empty
  int instructions = 0;
  int never_executed = 0;
  std::map<std::string, int, std::less<>> opcodes;    // base opcode ("LDG") -> count
  std::map<std::string, int, std::less<>> mnemonics;  // with modifiers ("LDG.E.128.CONSTANT") -> count
  SassMemoryCounts global;                            // LDG / STG; LDGSTS (cp.async) counts as a global load
  SassMemoryCounts shared;                            // LDS / STS / LDSM / STSM
  SassMemoryCounts local;  // LDL / STL (spills and dynamically indexed local arrays)
  int generic_loads = 0;   // LD (address space unknown at compile time)
  int generic_stores = 0;  // ST
  int async_copies = 0;    // LDGSTS
  int bulk_copies = 0;     // TMA / bulk copies: UTMALDG, UTMASTG, UTMAPF, UTMAREDG, UBLKCP, UBLKRED, UBLKPF
  int tensor_instructions = 0;     // HMMA, IMMA, DMMA, BMMA, HGMMA, IGMMA, QGMMA, BGMMA, ... (*MMA)
  int warpgroup_instructions = 0;  // WARPGROUP.ARRIVE / WARPGROUP.DEPBAR (wgmma fencing)
  int atomics = 0;                 // ATOM, ATOMG, ATOMS, RED, REDG
  int barriers = 0;                // BAR (BAR.SYNC, BAR.ARV, BAR.RED, ...)
  int memory_fences = 0;           // MEMBAR, FENCE
  int mbarrier_instructions = 0;   // SYNCS (mbarrier arrive / wait, Hopper)

  bool has_128bit_global_loads() const noexcept;
  bool uses_tensor_cores() const noexcept;
  int local_memory_instructions() const noexcept;
  int count(std::string_view base_opcode) const;
};

struct SassSummary {
  std::vector<SassFunction> functions;  // in input order

  // The first function with this name (and this arch, when `arch` is not empty); nullptr if none.
  SassFunction const* find(std::string_view name, std::string_view arch = {}) const;
  // Every function's counts summed; name "(all)", arch kept only when all functions share it.
  SassFunction total() const;
  bool has_128bit_global_loads() const noexcept;
  bool uses_tensor_cores() const noexcept;
  int local_memory_instructions() const noexcept;
};

// Reads cuobjdump -sass output ("Function : name" headers, "/*0080*/  @P0 LDG.E.128 R4, [R2.64] ;"
// lines with optional /* 0x... */ encodings) and nvdisasm output (".section .text.<name>" / ".text.<name>:"
// headers, with or without /*addr*/ offsets). A line counts as an instruction when it ends in ';'.
// Instructions before any function header go to a function with an empty name. Never fails: text
// with no instructions gives no functions.
SassSummary parse_sass(std::string_view text);

}  // namespace kopt
