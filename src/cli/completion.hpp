// Shell completion scripts for `kopt`, generated from the command line's own definition (CLI11), so a
// new command or option completes with no edit here: `kopt completion bash` / `kopt completion zsh`.
#pragma once

#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace kopt::cli {

// A bash script: `source <(kopt completion bash)`, or saved as
// ~/.local/share/bash-completion/completions/kopt. Completes commands, each command's options, the
// values of options with a fixed set of choices, and file names elsewhere.
std::string bash_completion(CLI::App const& app);

// A zsh script (#compdef kopt): saved as _kopt in a folder of $fpath. Commands and options come with
// their descriptions.
std::string zsh_completion(CLI::App const& app);

}  // namespace kopt::cli
