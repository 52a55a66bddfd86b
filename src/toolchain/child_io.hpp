// Descriptor plumbing shared by ChildProcess's spawning and its I/O: close-on-exec descriptors that never
// take the numbers of stdin, stdout and stderr, writes that fail instead of raising SIGPIPE, the end of a
// captured stderr file, errno text. Private to src/toolchain.
#pragma once

#include <sys/types.h>

#include <array>
#include <cstddef>
#include <filesystem>
#include <string>

namespace kopt::detail {

// "what: strerror(errno)".
std::string errno_text(char const* what);

// Closes `fd` when it is open and marks it closed (-1).
void close_descriptor(int& fd) noexcept;

// Gives `fd` a number of 3 or above (close-on-exec) when it has one of 0, 1, 2: only when kopt itself runs
// with those closed. False with errno set (and `fd` closed) on failure.
bool move_above_stdio(int& fd);

// A pipe (read end, write end) whose ends are close-on-exec and numbered 3 or above, so that a child's
// dup2 onto 0, 1 and 2 can never overwrite one end with another. False with errno set on failure.
bool open_child_pipe(std::array<int, 2>& ends);

// write(2) that reports a reader that went away as EPIPE without a SIGPIPE: the signal is blocked on
// this thread for the call and a SIGPIPE it raised is taken back, so kopt needs no process-wide
// SIG_IGN and a library caller's own SIGPIPE handling is left alone.
ssize_t write_without_sigpipe(int fd, char const* data, std::size_t size);

// The last `max_bytes` of a file (all of it when shorter; empty when it cannot be read).
std::string read_file_tail(std::filesystem::path const& path, std::size_t max_bytes);

}  // namespace kopt::detail
