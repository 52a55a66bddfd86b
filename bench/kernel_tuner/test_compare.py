#!/usr/bin/env python3
"""CPU checks of compare.py (no GPU, no Kernel Tuner needed): the space translation, --restrict, the
readers of kopt's store and of Kernel Tuner's cache, and the per-size task copy.
Run: python3 -m unittest bench/kernel_tuner/test_compare.py"""

import contextlib
import io
import json
import sqlite3
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402


class SpaceTest(unittest.TestCase):
    def setUp(self):
        self.source = compare.DEFAULT_KERNEL.read_text()
        self.sizes = {"M": 4096, "N": 4096, "K": 4096}

    def test_the_sgemm_space_has_kopts_count(self):
        space = compare.Space(self.source)
        self.assertEqual(list(space.knobs), ["BM", "BN", "BK", "TM", "TN", "VEC", "PAD", "PREFETCH"])
        self.assertEqual(sum(1 for _ in space.valid_configurations(self.sizes)), compare.KOPT_VALID_COUNT)

    def test_kernel_tuner_problem(self):
        problem = compare.kernel_tuner_problem(compare.Space(self.source), self.sizes)
        self.assertEqual(problem["problem_size"], [4096, 4096])
        self.assertEqual(problem["grid_div"], [["BN"], ["BM"]])
        self.assertEqual(problem["tune_params"]["block_size_x"], [64, 128, 256, 512, 1024])
        self.assertIn("block_size_x * TM * TN == BM * BN", problem["restrictions"])
        self.assertEqual(problem["python_count"], compare.KOPT_VALID_COUNT)

    def test_translation(self):
        self.assertEqual(compare.to_python("a / b && !c || d != e"), "a // b  and   not c  or  d != e")
        with self.assertRaises(ValueError):
            compare.to_python("a ? b : c")
        self.assertEqual(compare.split_launch_field("grid=(ceil_div(N, BN), ceil_div(M, BM)) block=(256)", "grid"),
                         ["ceil_div(N, BN)", "ceil_div(M, BM)"])

    def test_launch_of_a_configuration(self):
        space = compare.Space(self.source)
        config = {"BM": 128, "BN": 64, "BK": 8, "TM": 8, "TN": 4, "VEC": 4, "PAD": 0, "PREFETCH": 1}
        grid, block = space.launch(config, {"M": 129, "N": 67, "K": 33})
        self.assertEqual(grid, (2, 2, 1))
        self.assertEqual(block, (256, 1, 1))

    def test_restrict_keeps_a_subset_on_both_sides(self):
        restricted = compare.restrict_source(self.source, ["BK=8,16", "PAD=4"])
        space = compare.Space(restricted)
        self.assertEqual(space.knobs["BK"], [8, 16])
        self.assertEqual(space.knobs["PAD"], [4])
        self.assertEqual(sum(1 for _ in space.valid_configurations(self.sizes)), 258)
        with self.assertRaises(ValueError):
            compare.restrict_source(self.source, ["BK=12"])
        with self.assertRaises(ValueError):
            compare.restrict_source(self.source, ["NOPE=1"])


class ReadersTest(unittest.TestCase):
    def test_kopt_store(self):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "kopt.db"
            con = sqlite3.connect(db)
            con.executescript("""
              CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at TEXT);
              CREATE TABLE candidates (id INTEGER PRIMARY KEY, run_id INTEGER, knobs TEXT);
              CREATE TABLE evaluations (id INTEGER PRIMARY KEY, candidate_id INTEGER, status TEXT,
                                        tier TEXT, sizes TEXT, created_at TEXT);
              INSERT INTO runs VALUES (1, '2026-11-30T10:00:00.000Z');
              INSERT INTO candidates VALUES (1, 1, '{"BM": "64"}'), (2, 1, '{"BM": "128"}'),
                                            (3, 1, '{"BM": "256"}');
            """)
            sizes = lambda us: json.dumps([{"size": "odd", "verify_only": True, "median_us": None},
                                           {"size": "bench", "verify_only": False, "median_us": us}])
            con.executemany("INSERT INTO evaluations VALUES (?, ?, ?, ?, ?, ?)", [
                (1, 1, "ok", "screen", sizes(3000.0), "2026-11-30T10:00:01.500Z"),
                (2, 2, "ok", "screen", sizes(2000.0), "2026-11-30T10:00:04.000Z"),
                (3, 3, "wrong_output", "screen", sizes(None), "2026-11-30T10:00:05.000Z"),
                (4, 2, "ok", "confirm", sizes(1900.0), "2026-11-30T10:00:09.000Z")])
            con.commit()
            con.close()
            rows, started = compare.read_kopt_store(db)
            self.assertEqual(len(rows), 3)  # the confirm evaluation is not a search point
            summary = compare.summarise(rows, 10.0, started, "median_ms")
            self.assertEqual(summary["evaluated"], 3)
            self.assertEqual(summary["ok"], 2)
            self.assertEqual(summary["best_config"], {"BM": 128})
            self.assertAlmostEqual(summary["best_ms"], 2.0)
            self.assertAlmostEqual(summary["time_to_best_seconds"], 4.0)
            self.assertAlmostEqual(summary["configs_per_second"], 0.3)

    def test_kernel_tuner_cache_left_open(self):
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp) / "cache.json"
            cache.write_text('{\n"device_name": "NVIDIA H200",\n"tune_params_keys": ["BM", "block_size_x"],\n'
                             '"cache": {\n'
                             '"64,128": {"BM": 64, "block_size_x": 128, "time": 3.0, '
                             '"timestamp": "2026-11-30 10:00:02.000000+00:00"},\n'
                             '"128,256": {"BM": 128, "block_size_x": 256, "time": "CompilationFailedConfig", '
                             '"timestamp": "2026-11-30 10:00:03.000000+00:00"},\n')
            rows = compare.read_kt_cache(cache, {"BM": [64, 128], "block_size_x": [128, 256]})
            self.assertEqual(len(rows), 2)
            self.assertEqual(rows[0]["config"], {"BM": 64})
            self.assertEqual(rows[1]["error"], "CompilationFailedConfig")
            started = compare.parse_utc("2026-11-30T10:00:00+00:00")
            summary = compare.summarise(rows, 4.0, started, "time_ms")
            self.assertEqual(summary["best_config"], {"BM": 64})
            self.assertAlmostEqual(summary["time_to_best_seconds"], 2.0)

    def test_config_key(self):
        self.assertEqual(compare.parse_config_key("BK=16;BM=128;PAD=4"), {"BK": 16, "BM": 128, "PAD": 4})


class RepeatTest(unittest.TestCase):
    def test_each_tuner_gets_empty_caches_of_its_own(self):
        with tempfile.TemporaryDirectory() as tmp:
            kt = compare.fresh_cache_env(Path(tmp), "kernel_tuner")
            kopt = compare.fresh_cache_env(Path(tmp), "kopt")
            self.assertEqual(set(kt), {"CUPY_CACHE_DIR", "CUDA_CACHE_PATH"})
            self.assertEqual(set(kopt), {"KOPT_CACHE_DIR"})
            for folder in list(kt.values()) + list(kopt.values()):
                self.assertTrue(Path(folder).is_dir())
                self.assertEqual(list(Path(folder).iterdir()), [])

    def test_summary_takes_the_minimum_ratio(self):
        runs = []
        for kopt, kt in ((40.0, 4.0), (45.0, 4.1), (38.0, 4.2)):
            run = {"kopt": {"configs_per_second": kopt}, "kernel_tuner": {"configs_per_second": kt}}
            run["ratios"] = compare.run_ratios(run["kernel_tuner"], run["kopt"], {})
            runs.append(run)
        runs.append({"kopt": {"failure": "x"}, "ratios": {}})  # a failed run adds no ratio
        summary = compare.repeat_summary(runs)
        self.assertEqual(summary["runs"], 4)
        self.assertEqual(len(summary["ratios"]), 3)
        self.assertAlmostEqual(summary["min_ratio"], 38.0 / 4.2)
        self.assertAlmostEqual(summary["median_ratio"], 10.0)
        self.assertAlmostEqual(summary["max_ratio"], 45.0 / 4.1)

    def test_table_shows_each_sides_setup_and_process_time(self):
        report = {"kernel_tuner": {"evaluated": 258, "wall_seconds": 64.0, "setup_seconds": 2.5,
                                   "process_wall_seconds": 70.0},
                  "kopt": {"evaluated": 258, "wall_seconds": 5.5, "setup_seconds": 1.4,
                           "process_wall_seconds": 8.0}}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            compare.print_table(report)
        lines = {line.split("  ")[0]: line.split() for line in out.getvalue().splitlines()}
        self.assertEqual(lines["setup before it (s)"][-2:], ["2.5", "1.4"])
        self.assertEqual(lines["process seconds"][-2:], ["70.0", "8.0"])


class TaskTest(unittest.TestCase):
    def test_another_size_gets_a_copy_with_an_absolute_reference(self):
        with tempfile.TemporaryDirectory() as tmp:
            task = compare.kopt_task_dir(2048, Path(tmp))
            text = (task / "task.toml").read_text()
            self.assertIn("M = 2048\nN = 2048\nK = 2048", text)
            self.assertIn("M = 129", text)
            reference = str((compare.REPO / "examples" / "sgemm" / "reference.cu").resolve())
            self.assertIn(f'source = "{reference}"', text)
        self.assertEqual(compare.kopt_task_dir(4096, Path("/nonexistent")), compare.TASK_TEMPLATE.parent)


if __name__ == "__main__":
    unittest.main()
