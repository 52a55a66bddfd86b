// expect: sandbox_violation
// defeats: a worker that may read whatever its user may (the user's files, kopt's API keys)
// mode: launcher
// task: examples/vector_add

// Computes the right answer, but on every call also tries to read what a candidate must never see:
// the listing of the real home directory (from /etc/passwd, not $HOME, which the worker points at its
// scratch folder), the shell history or another file in it, /etc/shadow, and the environment of
// kopt itself (/proc/<parent>/environ, where API keys live). It reads at most a few bytes and keeps
// nothing. Landlock must refuse these reads, and kopt must report the attempt: sandbox_violation.
#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sandbox_escape.cuh"

namespace {

// Reads at most a few bytes of `path` and throws them away; true when the open succeeded.
bool try_read(std::string const& path) {
  int const fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  char bytes[8];
  ssize_t const got = read(fd, bytes, sizeof bytes);
  (void)got;
  close(fd);
  return true;
}

void try_to_read_secrets() {
  std::string const home = escape::real_home();
  if (!home.empty()) {
    std::string first_file;
    if (DIR* listing = opendir(home.c_str())) {
      for (int entries = 0; entries < 64; ++entries) {
        dirent const* entry = readdir(listing);
        if (entry == nullptr) break;
        if (first_file.empty() && entry->d_type == DT_REG) first_file = home + "/" + entry->d_name;
      }
      closedir(listing);
    }
    bool read_one = try_read(home + "/.bash_history");
    for (char const* name : {"/.profile", "/.bashrc"}) {
      if (!read_one) read_one = try_read(home + name);
    }
    if (!read_one && !first_file.empty()) try_read(first_file);
  }
  try_read("/etc/shadow");
  try_read("/proc/" + std::to_string(static_cast<long>(getppid())) + "/environ");
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  try_to_read_secrets();
  escape::add_honestly(c, a, b, n);
}
