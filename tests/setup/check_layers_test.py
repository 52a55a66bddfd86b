"""scripts/check-layers.py on a small tree of its own: what it calls a violation, and its debt file."""

import importlib.util
import pathlib
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check-layers.py"
spec = importlib.util.spec_from_file_location("check_layers", SCRIPT)
check_layers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_layers)


class ModuleOfTarget(unittest.TestCase):
    def test_longest_module_name_wins(self):
        modules = ["run", "run_report", "worker", "report"]
        self.assertEqual(check_layers.module_of_target("kopt_run_report", modules), "run_report")
        self.assertEqual(check_layers.module_of_target("kopt_worker_client", modules), "worker")
        self.assertEqual(check_layers.module_of_target("kopt_report", modules), "report")
        self.assertIsNone(check_layers.module_of_target("kopt_warnings", modules))
        self.assertIsNone(check_layers.module_of_target("fmt::fmt", modules))


class IncludeViolations(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = pathlib.Path(self.tmp.name)
        for module in ("eval", "worker"):
            (root / "src" / module).mkdir(parents=True)
        (root / "include" / "kopt").mkdir(parents=True)
        (root / "src" / "worker" / "protocol.hpp").write_text("#pragma once\n")
        (root / "src" / "worker" / "own.cpp").write_text('#include "worker/protocol.hpp"\n')
        (root / "src" / "eval" / "uses.cpp").write_text(
            '#include "kopt/eval.hpp"\n#include <vector>\n  #  include "worker/protocol.hpp"\n')
        (root / "include" / "kopt" / "eval.hpp").write_text('#include "eval/private.hpp"\n')
        self.saved = check_layers.ROOT
        check_layers.ROOT = root

    def tearDown(self):
        check_layers.ROOT = self.saved
        self.tmp.cleanup()

    def test_another_modules_private_header_and_a_public_header_reaching_into_src(self):
        found = check_layers.include_violations(["eval", "worker"])
        self.assertEqual(found, ["include eval -> worker/protocol.hpp",
                                 "include public kopt/eval.hpp -> eval/private.hpp"])


class PublicIncludeViolations(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = pathlib.Path(self.tmp.name)
        for module in ("suite_bench", "report", "common"):
            (root / "src" / module).mkdir(parents=True)
        (root / "include" / "kopt" / "worker").mkdir(parents=True)
        for header in ("report.hpp", "suite_bench.hpp", "text.hpp", "worker/protocol.hpp", "orphan.hpp"):
            (root / "include" / "kopt" / header).write_text("#pragma once\n")
        # suite_bench (proposers) calls into report (output) through its public header: refused; report
        # including suite_bench's header (down) and anyone including common's are fine.
        (root / "src" / "suite_bench" / "tables.cpp").write_text(
            '#include "kopt/report.hpp"\n#include "kopt/suite_bench.hpp"\n#include "kopt/text.hpp"\n')
        (root / "src" / "report" / "render.cpp").write_text('#include "kopt/suite_bench.hpp"\n')
        self.saved = check_layers.ROOT
        check_layers.ROOT = root

    def tearDown(self):
        check_layers.ROOT = self.saved
        self.tmp.cleanup()

    def test_an_upward_public_include_and_an_unowned_header(self):
        found = check_layers.public_include_violations(["suite_bench", "report", "common"])
        self.assertEqual(found, ["include suite_bench (proposers) -> kopt/report.hpp (report, output)",
                                 "unowned public kopt/orphan.hpp"])

    def test_owners_by_name_by_prefix_and_by_table(self):
        modules = ["run", "run_report", "worker", "optimize"]
        owner = check_layers.owner_of_public_header
        self.assertEqual(owner("run_log.hpp", modules), "run")
        self.assertEqual(owner("run_report.hpp", modules), "run_report")
        self.assertEqual(owner("optimize_space.hpp", modules), "optimize")
        self.assertEqual(owner("worker/protocol.hpp", modules), "worker")
        self.assertEqual(owner("runs.hpp", modules), "run")
        self.assertIsNone(owner("nobody.hpp", modules))


class Layers(unittest.TestCase):
    def test_every_module_of_the_source_tree_has_a_layer(self):
        self.assertEqual([m for m in check_layers.modules_on_disk() if m not in check_layers.RANK], [])

    def test_the_cli_is_on_top_and_common_at_the_bottom(self):
        self.assertEqual(check_layers.RANK["common"], 0)
        self.assertEqual(check_layers.RANK["cli"], len(check_layers.LAYERS) - 1)


if __name__ == "__main__":
    unittest.main()
