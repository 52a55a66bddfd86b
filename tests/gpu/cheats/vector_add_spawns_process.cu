// expect: sandbox_violation
// defeats: a worker that may start other programs (a shell, a helper outside the sandbox's rules)
// mode: launcher
// task: examples/vector_add

// Computes the right answer, but on every call also tries to start a process: fork() (the child
// _exits at once), posix_spawn of "/bin/sh -c true", execve of /bin/true in a forked child, and
// system("true"). Every child it makes is reaped; nothing is ever exec'd in the worker's own process.
// The seccomp filter must refuse fork/clone of a new process and execve, and kopt must report the
// attempt: sandbox_violation.
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "sandbox_escape.cuh"

extern char** environ;

namespace {

void reap(pid_t child) {
  if (child <= 0) return;
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
}

void try_to_spawn() {
  int const saved_errno = errno;
  // fork(): a child that does nothing.
  pid_t const forked = fork();
  if (forked == 0) _exit(0);
  reap(forked);

  // posix_spawn of a shell.
  char sh[] = "/bin/sh";
  char dash_c[] = "-c";
  char command[] = "true";
  char* sh_argv[] = {sh, dash_c, command, nullptr};
  pid_t spawned = -1;
  if (posix_spawn(&spawned, sh, nullptr, nullptr, sh_argv, environ) == 0) reap(spawned);

  // execve, only ever in a forked child.
  pid_t const exec_child = fork();
  if (exec_child == 0) {
    char program[] = "/bin/true";
    char* true_argv[] = {program, nullptr};
    execve(program, true_argv, environ);
    _exit(127);
  }
  reap(exec_child);

  // system(): fork + exec of /bin/sh, reaped by system itself.
  int const ignored = std::system("true");
  (void)ignored;
  errno = saved_errno;
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  try_to_spawn();
  escape::add_honestly(c, a, b, n);
}
