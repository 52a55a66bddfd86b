// A property of the whole command line (issue #23, item 4): every command and every option of kopt, given
// hostile values (very long, empty, not UTF-8, negative, huge, NaN, a folder where a file is expected, a
// path inside a symbolic-link loop, ...), ends with exit code 0-3 and a message when it is not 0: never
// exit 4 ("a bug in kopt"), a signal or a hang; and what it prints on stderr holds no terminal escape
// sequence and stays short however long the value was.
//
// The commands and options are read from the command line's own definition (the registry), so a new
// command or option is covered with no edit here. Each invocation runs the built kopt executable in a
// scratch folder with HOME pointing into it (nothing of the user's is read or written), with a plausible
// value for every positional argument (a copy of examples/vector_add as the task, one of its candidates,
// its reference) and one option or positional replaced by a hostile value. Every path among the values
// lies inside the scratch folder (the tests may run as root: a value such as /etc/passwd given to an
// option that writes would be written). Every value is tried on every option and positional argument
// (KOPT_CLI_PROPERTY_VALUES=N: N of them, drawn per option; scripts/sanitize.sh sets it, as a sanitized kopt
// starts ten times slower); a fixed seed chooses the draw, the spelling ("--opt value" or "--opt=value")
// and whether --json is added, so a failure, printed as the command line to repeat, comes back next run.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_registry.hpp"
#include "kopt/optimize.hpp"
#include "kopt/store.hpp"
#include "kopt/task.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

extern char** environ;

namespace kopt::cli {
namespace cli_property_test {

namespace fs = std::filesystem;

// One command of the command line: the words that choose it and its CLI11 definition.
struct CommandShape {
  std::vector<std::string> words;
  std::vector<CLI::Option const*> positionals;
  std::vector<CLI::Option const*> options;  // named options and flags, without --help
};

void collect_commands(CLI::App const& app, std::vector<std::string> const& words,
                      std::vector<CommandShape>& shapes) {
  for (CLI::App const* sub : app.get_subcommands({})) {
    auto path = words;
    path.push_back(sub->get_name());
    if (!sub->get_subcommands({}).empty()) collect_commands(*sub, path, shapes);
    CommandShape shape{path, {}, {}};
    for (CLI::Option const* option : sub->get_options()) {
      if (option->get_positional()) {
        shape.positionals.push_back(option);
      } else if (option != sub->get_help_ptr() && option != sub->get_help_all_ptr()) {
        shape.options.push_back(option);
      }
    }
    // A group such as `task` with no positional and only --help is chosen through its commands.
    if (!shape.positionals.empty() || !shape.options.empty()) shapes.push_back(std::move(shape));
  }
}

// The command line as kopt defines it; the shapes point into `app`, which lives as long as they do.
struct CommandLine {
  CommandLine() {
    for (CliCommand const& command : cli_commands()) command.define(app, arguments);
    collect_commands(app, {}, shapes);
  }
  CLI::App app;
  CliArguments arguments;  // the options bind to it
  std::vector<CommandShape> shapes;
};

std::string option_word(CLI::Option const& option) {
  if (!option.get_lnames().empty()) return "--" + option.get_lnames().front();
  return "-" + option.get_snames().front();
}

bool is_flag(CLI::Option const& option) {
  return option.get_type_size() == 0;
}

// A folder the invocations share: a task, a suite holding it, a store with one finished run of it (run 1,
// recorded with a fake evaluator), a symbolic-link loop.
struct Scratch {
  kopt::test::TempDir dir;
  fs::path task;
  fs::path suite;
  fs::path candidate;
  fs::path launcher;
  fs::path loop;
  fs::path store;

  Scratch() {
    fs::path const example = fs::path(KOPT_SOURCE_DIR) / "examples" / "vector_add";
    suite = dir.path() / "suite";
    task = suite / "vector_add";
    fs::create_directories(suite);
    fs::copy(example, task, fs::copy_options::recursive);
    candidate = task / "candidates" / "vector_add_float4_kernel.cu";
    launcher = task / "reference.cu";
    loop = dir.path() / "loop";
    fs::create_directory_symlink(dir.path() / "loop_b", loop);
    fs::create_directory_symlink(loop, dir.path() / "loop_b");
    store = dir.path() / "kopt.db";
    record_a_run();
    std::ofstream(dir.path() / "empty.cu").flush();
    fs::create_directories(dir.path() / "victim");
    std::ofstream(dir.path() / "victim" / "file.txt") << "not a task\n";
  }

  void record_a_run() const {
    auto loaded = load_task(task);
    ASSERT_TRUE(loaded) << loaded.error().message;
    auto opened = Store::open(store);
    ASSERT_TRUE(opened) << opened.error().message;
    fs::path const tunable = task / "tunable" / "vector_add_tunable_kernel.cu";
    std::ifstream in(tunable, std::ios::binary);
    std::stringstream source;
    source << in.rdbuf();
    FakeCandidateEvaluator evaluator([](auto const& knobs) {
      double const block = std::stod(knobs.at("BLOCK"));
      return FakeResult{CandidateStatus::ok, "", {100.0 - block / 64.0, 900.0}, {100.0, 1000.0}};
    });
    OptimizeOptions options;
    options.strategy = "exhaustive";
    options.max_evaluations = 4;
    options.source_path = tunable;
    auto result = optimize(*loaded, source.str(), options, evaluator, *opened);
    ASSERT_TRUE(result) << result.error().message;
  }

  // What a user would give for an option the command requires, or for --store.
  std::string plausible_option(CLI::Option const& option) const {
    if (option.check_lname("store")) return store.string();
    if (option.check_lname("intent")) return "add two vectors element by element";
    if (option.check_lname("out") || option.check_lname("output")) return (dir.path() / "out").string();
    return "1";
  }

  // What a user would give for a positional argument of this name.
  std::string plausible(CLI::Option const& positional) const {
    std::string const name = positional.get_name();
    if (name == "launcher") return launcher.string();
    if (name == "task-dir") return task.string();
    if (name.starts_with("candidate")) return candidate.string();
    if (name == "suite") return suite.string();
    if (name == "shell") return "bash";
    if (name == "run") return "1";
    return "1";
  }

  std::vector<std::string> hostile_values() const {
    return {
        "",
        std::string(70000, 'a'),                         // longer than any buffer or recursion depth allows
        "--" + std::string(20000, 'x') + "=1",           // an option-like value
        std::string("\xff\xfe\xc3\x28 not UTF-8 \x80"),  // invalid UTF-8 that ends up in messages and JSON
        "-1",
        "0",
        "-9223372036854775809",
        "99999999999999999999999999999",
        "nan",
        "inf",
        "1e400",
        "0x7fffffff",
        "%s%s%n%x{}{0}",  // format strings
        "a\nb\tc\r\x01\x1b[31m",
        dir.path().string(),                                     // a folder where a file is expected
        (loop / "x").string(),                                   // inside a symbolic-link loop
        (dir.path() / "empty.cu").string(),                      // an empty file
        (dir.path() / "missing" / "deep" / "file.cu").string(),  // a path that does not exist
        "../victim/file.txt",  // relative to the invocation's folder, a file where a folder may be expected
        "redis://[::1",        // a malformed URL
        "a,b,,c,=,==",
    };
  }
};

struct Invocation {
  std::vector<std::string> args;  // after "kopt"
};

struct Outcome {
  int exit_code = -1;  // -1: not exited normally
  int signal = 0;      // the signal that ended it, if any
  bool timed_out = false;
  std::string err;  // the first part of stderr (stdout when stderr is empty)
  std::uintmax_t err_bytes = 0;
  bool stderr_has_escape = false;
};

std::string shell_quoted(std::string const& word) {
  std::string text = "'";
  for (char c : word) {
    if (c == '\'') {
      text += "'\\''";
    } else {
      text += c;
    }
  }
  return text + "'";
}

std::string describe(Invocation const& invocation) {
  std::string line = "kopt";
  for (auto const& word : invocation.args) {
    line += ' ';
    line += word.size() > 200
                ? shell_quoted(word.substr(0, 40)) + "...(" + std::to_string(word.size()) + " bytes)"
                : shell_quoted(word);
  }
  return line;
}

std::string slurp_prefix(fs::path const& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  std::string text(limit, '\0');
  in.read(text.data(), static_cast<std::streamsize>(limit));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

// Runs kopt with argv given word by word (no shell: every byte reaches kopt as written), stdout and stderr
// to files in `work`, in `work` as the current folder, killed after `limit`.
Outcome run_kopt(fs::path const& kopt, fs::path const& work, fs::path const& home,
                 Invocation const& invocation, std::chrono::seconds limit) {
  std::vector<std::string> words{kopt.string()};
  words.insert(words.end(), invocation.args.begin(), invocation.args.end());
  std::vector<char*> argv;
  argv.reserve(words.size() + 1);
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_words{"HOME=" + home.string(),
                                     "KOPT_NO_CONFIG=1",
                                     "NO_COLOR=1",
                                     "XDG_CONFIG_HOME=" + (home / ".config").string(),
                                     "XDG_CACHE_HOME=" + (home / ".cache").string(),
                                     "KOPT_CACHE_DIR=" + (home / "kopt-cache").string()};
  for (char** e = environ; *e != nullptr; ++e) {
    std::string_view const entry(*e);
    bool const replaced = entry.starts_with("HOME=") || entry.starts_with("KOPT_") ||
                          entry.starts_with("XDG_CONFIG_HOME=") || entry.starts_with("XDG_CACHE_HOME=") ||
                          entry.starts_with("NO_COLOR=");
    if (!replaced) env_words.emplace_back(entry);
  }
  std::vector<char*> envp;
  envp.reserve(env_words.size() + 1);
  for (auto& word : env_words) envp.push_back(word.data());
  envp.push_back(nullptr);

  auto const out_path = work / "stdout";
  auto const err_path = work / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addchdir_np(&actions, work.c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP);  // its own group: a timeout kills its children
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  int const spawned = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  Outcome outcome;
  if (spawned != 0) {
    outcome.err = "posix_spawn failed: " + std::to_string(spawned);
    return outcome;
  }
  auto const deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (true) {
    pid_t const done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      outcome.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!outcome.timed_out) {
    if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  }
  std::error_code size_error;
  outcome.err_bytes = fs::file_size(err_path, size_error);
  std::string const err = slurp_prefix(err_path, 1 << 20);
  outcome.stderr_has_escape = err.find('\x1b') != std::string::npos;
  outcome.err = err.empty() ? slurp_prefix(out_path, 4000) : err.substr(0, 4000);
  return outcome;
}

// The invocations: for every command, one per flag, and for every option and positional argument one per
// hostile value; each with and without --json where the command has it (JSON output of a message that
// quotes bad bytes was one of the classes found).
std::vector<Invocation> invocations(Scratch const& scratch, std::vector<CommandShape> const& shapes) {
  std::mt19937 random(1);
  auto const all_values = scratch.hostile_values();
  std::size_t per_option = all_values.size();
  if (char const* text = std::getenv("KOPT_CLI_PROPERTY_VALUES"); text != nullptr && *text != '\0') {
    per_option = std::clamp<std::size_t>(std::strtoul(text, nullptr, 10), 1, all_values.size());
  }
  auto draw = [&] {
    auto values = all_values;
    std::shuffle(values.begin(), values.end(), random);
    values.resize(per_option);
    return values;
  };
  std::vector<Invocation> all;
  for (CommandShape const& shape : shapes) {
    bool const has_json = std::ranges::any_of(
        shape.options, [](CLI::Option const* option) { return option->check_lname("json"); });
    // Plausible positional arguments, the required options and --store; the option under test left out.
    auto base = [&](CLI::Option const* under_test = nullptr) {
      std::vector<std::string> args = shape.words;
      for (CLI::Option const* positional : shape.positionals) args.push_back(scratch.plausible(*positional));
      for (CLI::Option const* option : shape.options) {
        if (option == under_test || !(option->get_required() || option->check_lname("store"))) continue;
        args.push_back(option_word(*option) + "=" + scratch.plausible_option(*option));
      }
      return args;
    };
    auto add = [&](std::vector<std::string> args) {
      if (has_json && random() % 2 == 0) args.emplace_back("--json");
      all.push_back(Invocation{std::move(args)});
    };
    for (CLI::Option const* option : shape.options) {
      if (is_flag(*option)) {
        auto args = base(option);
        args.push_back(option_word(*option));
        add(std::move(args));
        continue;
      }
      for (auto const& value : draw()) {
        auto args = base(option);
        // Both spellings: "--opt value" and "--opt=value" (a value starting with '-' needs the second).
        if (!option->get_lnames().empty() && random() % 2 == 0) {
          args.push_back(option_word(*option) + "=" + value);
        } else {
          args.push_back(option_word(*option));
          args.push_back(value);
        }
        add(std::move(args));
      }
    }
    for (std::size_t i = 0; i < shape.positionals.size(); ++i) {
      for (auto const& value : draw()) {
        auto args = base();
        args[shape.words.size() + i] = value;
        add(std::move(args));
      }
    }
  }
  return all;
}

TEST(CliProperty, TheDefinitionListsEveryRegisteredCommand) {
  CommandLine const line;
  auto const& shapes = line.shapes;
  for (CliCommand const& command : cli_commands()) {
    bool const found = std::ranges::any_of(shapes, [&](CommandShape const& shape) {
      std::string path;
      for (auto const& word : shape.words) path += (path.empty() ? "" : " ") + word;
      return path == command.path;
    });
    EXPECT_TRUE(found) << command.path;
  }
}

TEST(CliProperty, EveryCommandAndOptionEndsWithAnExitCodeAndAMessageOnHostileValues) {
  fs::path const kopt = fs::path(KOPT_BINARY_DIR) / "bin" / "kopt";
  if (!fs::exists(kopt)) GTEST_SKIP() << "build the kopt executable first (" << kopt << ")";
  Scratch const scratch;
  CommandLine const line;
  auto const& shapes = line.shapes;
  auto const all = invocations(scratch, shapes);
  ASSERT_GT(all.size(), 100U);

  std::atomic<std::size_t> next{0};
  std::vector<double> seconds(all.size(), 0.0);  // each invocation's wall time, for the slowest below
  std::mutex failures_mutex;
  std::vector<std::string> failures;
  std::atomic<std::size_t> exits[4] = {};
  auto worker = [&](unsigned index) {
    fs::path const work = scratch.dir.path() / ("work" + std::to_string(index));
    fs::create_directories(work);
    fs::path const home = scratch.dir.path() / ("home" + std::to_string(index));
    fs::create_directories(home);
    for (std::size_t i = next++; i < all.size(); i = next++) {
      auto const started = std::chrono::steady_clock::now();
      Outcome const outcome = run_kopt(kopt, work, home, all[i], std::chrono::seconds(120));
      seconds[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::string problem;
      if (outcome.timed_out) {
        problem = "did not end within 120 s";
      } else if (outcome.signal != 0) {
        problem = "ended by signal " + std::to_string(outcome.signal);
      } else if (outcome.exit_code < 0 || outcome.exit_code > 3) {
        problem = "exit code " + std::to_string(outcome.exit_code);
      } else if (outcome.exit_code != 0 && outcome.err.empty()) {
        problem = "exit code " + std::to_string(outcome.exit_code) + " with no message";
      } else if (outcome.err.find("bug in kopt") != std::string::npos) {
        problem = "reported an internal error";
      } else if (outcome.stderr_has_escape) {
        problem = "printed a terminal escape sequence (a quoted value must be shown, not obeyed)";
      } else if (outcome.err_bytes > 16384) {
        problem = "printed " + std::to_string(outcome.err_bytes) +
                  " bytes on stderr (a quoted value must be shortened)";
      } else {
        ++exits[outcome.exit_code];
      }
      if (!problem.empty()) {
        std::lock_guard lock(failures_mutex);
        failures.push_back(describe(all[i]) + "\n    " + problem + "\n    " + outcome.err.substr(0, 600));
      }
    }
  };
  // Twice the CPUs: an invocation spends much of its time starting and ending (more under the sanitizers).
  unsigned const threads = 2 * std::max(1U, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker, t);
  for (auto& thread : pool) thread.join();

  std::cout << "[property] " << all.size() << " invocations over " << shapes.size() << " commands, "
            << scratch.hostile_values().size() << " hostile values: exit 0: " << exits[0]
            << ", 1: " << exits[1] << ", 2: " << exits[2] << ", 3: " << exits[3]
            << ", failures: " << failures.size() << "\n";
  // Where the test's time goes: the slowest invocations (a command that starts slowly on bad input shows
  // here).
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::size_t const shown = std::min<std::size_t>(5, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                    [&](std::size_t a, std::size_t b) { return seconds[a] > seconds[b]; });
  double const total = std::accumulate(seconds.begin(), seconds.end(), 0.0);
  std::map<std::string, std::pair<int, double>> by_command;  // command -> invocations, seconds
  for (std::size_t i = 0; i < all.size(); ++i) {
    auto& [count, sum] = by_command[all[i].args.empty() ? std::string() : all[i].args.front()];
    ++count;
    sum += seconds[i];
  }
  std::cout << "[property] " << total << " s in invocations;";
  for (auto const& [command, cost] : by_command)
    std::cout << " " << command << " " << cost.first << "/" << static_cast<int>(cost.second) << " s";
  std::cout << "; the slowest:\n";
  for (std::size_t k = 0; k < shown; ++k)
    std::cout << "  " << seconds[order[k]] << " s  " << describe(all[order[k]]).substr(0, 300) << "\n";
  for (auto const& failure : failures) ADD_FAILURE() << failure;
}

}  // namespace cli_property_test
}  // namespace kopt::cli
