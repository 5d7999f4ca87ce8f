// sitemill internals: waiting for a descriptor that may never be readable
// (a pipe, a FIFO, a terminal, a socket) in steps, so that a reader can look
// at a stop flag or a deadline between them instead of blocking in read(2).
#ifndef SITEMILL_DETAIL_FD_WAIT_H
#define SITEMILL_DETAIL_FD_WAIT_H

namespace sitemill::detail {

/// How long a reader waits at most before it looks at its stop flag again:
/// a signal ends a blocked input well within a second.
inline constexpr int fd_wait_step_ms = 100;

/// Opens `path` read-only (close-on-exec) without waiting for a FIFO's
/// writer, which open(2) would do for ever; the descriptor is blocking again
/// once open. Read a FIFO only after wait_readable() says so: before its
/// writer comes, read(2) on it says end of file. -1 with errno on failure.
int open_for_reading(const char* path) noexcept;

/// True when read(2) on `fd` can block: it is not a regular file (a pipe, a
/// FIFO, a character device, a socket). False when fstat fails.
bool may_block(int fd) noexcept;

/// Waits up to `timeout_ms` for `fd` to be readable, hung up or in error
/// (read(2) then says which). False when the time passed with nothing to
/// read, or a signal interrupted the wait: look at the stop flag and call
/// again.
bool wait_readable(int fd, int timeout_ms) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_FD_WAIT_H
