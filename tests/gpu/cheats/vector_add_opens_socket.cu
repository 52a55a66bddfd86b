// expect: sandbox_violation
// defeats: a worker that may reach the network or local services (to leak inputs, fetch answers)
// mode: launcher
// task: examples/vector_add

// Computes the right answer, but on every call also tries to open sockets: a non-blocking TCP
// connect to 1.1.1.1:53, and a non-blocking connect of an AF_UNIX socket to /run/nscd/socket. Each
// socket is closed at once, whatever happened. The seccomp filter must refuse socket(), and kopt must
// report the attempt: sandbox_violation.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sandbox_escape.cuh"

namespace {

void try_to_open_sockets() {
  int const saved_errno = errno;
  int const tcp = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (tcp >= 0) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(53);
    inet_pton(AF_INET, "1.1.1.1", &address.sin_addr);
    connect(tcp, reinterpret_cast<sockaddr const*>(&address), sizeof address);
    close(tcp);
  }

  int const local = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (local >= 0) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, "/run/nscd/socket", sizeof address.sun_path - 1);
    connect(local, reinterpret_cast<sockaddr const*>(&address), sizeof address);
    close(local);
  }
  errno = saved_errno;
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  try_to_open_sockets();
  escape::add_honestly(c, a, b, n);
}
