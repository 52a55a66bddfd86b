// expect: sandbox_violation
// defeats: a worker that may write anywhere its user may (the task, the compile cache, the store)
// mode: launcher
// task: examples/vector_add

// Computes the right answer, but on every call also tries to create files outside the worker's
// scratch folder: in the real home directory (from /etc/passwd, not $HOME, which the worker points at
// its scratch folder), in /tmp, in each folder named after --allow-read in /proc/self/cmdline (the
// task folder and the compile cache), and in kopt's store (~/.local/share/kopt/); and to open an
// existing file there for writing (task.toml, a compiled artifact). An existing file is opened without
// O_TRUNC and nothing is ever written; a file it manages to create stays empty and is unlinked at once.
// Landlock must refuse every one of these, and kopt must report it: sandbox_violation.
#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sandbox_escape.cuh"

namespace {

// Every DIR after "--allow-read" in the worker's own command line.
std::vector<std::string> allowed_read_folders() {
  std::vector<std::string> folders;
  int const fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return folders;
  std::string text;
  char buffer[4096];
  ssize_t got = 0;
  while ((got = read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(got));
  close(fd);
  std::vector<std::string> args;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\0', start);
    if (end == std::string::npos) end = text.size();
    args.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--allow-read") folders.push_back(args[i + 1]);
  }
  return folders;
}

// Tries to create `path`; an empty file it manages to create is removed again.
void try_create(std::string const& path) {
  int const fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd >= 0) {
    close(fd);
    unlink(path.c_str());
  }
}

// Tries to open an existing file for writing (no O_TRUNC, no O_CREAT: it is left as it was).
void try_open_for_writing(std::string const& path) {
  int const fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd >= 0) close(fd);
}

// The first regular file in `dir` or one folder below it; empty when there is none.
std::string some_file_in(std::string const& dir, int depth = 1) {
  DIR* listing = opendir(dir.c_str());
  if (listing == nullptr) return {};
  std::string found;
  std::vector<std::string> subfolders;
  while (dirent const* entry = readdir(listing)) {
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    std::string const path = dir + "/" + entry->d_name;
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0) continue;
    if (S_ISREG(info.st_mode)) {
      found = path;
      break;
    }
    if (S_ISDIR(info.st_mode) && subfolders.size() < 8) subfolders.push_back(path);
  }
  closedir(listing);
  for (std::size_t i = 0; found.empty() && depth > 0 && i < subfolders.size(); ++i) {
    found = some_file_in(subfolders[i], depth - 1);
  }
  return found;
}

void try_to_write_outside_scratch() {
  std::string const pid = std::to_string(static_cast<long>(getpid()));
  std::string const name = "kopt-cheat-planted-" + pid;
  try_create("/tmp/" + name);
  std::string const home = escape::real_home();
  if (!home.empty()) {
    try_create(home + "/" + name);
    std::string const store = home + "/.local/share/kopt";
    struct stat info {};
    if (stat(store.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) try_create(store + "/" + name);
  }
  for (std::string const& folder : allowed_read_folders()) {
    try_create(folder + "/planted");
    std::string const task_file = folder + "/task.toml";
    if (access(task_file.c_str(), F_OK) == 0) {
      try_open_for_writing(task_file);
    } else {
      std::string const existing = some_file_in(folder);
      if (!existing.empty()) try_open_for_writing(existing);
    }
  }
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  try_to_write_outside_scratch();
  escape::add_honestly(c, a, b, n);
}
