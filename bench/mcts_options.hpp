// The MCTS constants as command-line options, shared by the ablation benches.
#pragma once

#include <CLI/CLI.hpp>

#include "kopt/search.hpp"

namespace kopt::bench {

inline void add_mcts_options(CLI::App& app, MctsConfig& config) {
  app.add_option("--exploration", config.exploration, "MCTS UCT constant");
  app.add_option("--roots-k", config.roots_k, "MCTS forest widening factor");
  app.add_option("--roots-alpha", config.roots_alpha, "MCTS forest widening exponent");
  app.add_option("--widening-k", config.widening_k, "MCTS progressive widening factor");
  app.add_option("--widening-alpha", config.widening_alpha, "MCTS progressive widening exponent");
  app.add_option("--max-backup-weight", config.max_backup_weight, "MCTS weight of the max in node values");
  app.add_option("--dead-end-window", config.dead_end_window, "MCTS failed expansions that end a node");
}

}  // namespace kopt::bench
