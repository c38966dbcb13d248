#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// Stopping a run by a signal without leaving a temporary file behind.
//
// SIGINT, SIGTERM, SIGHUP and the other terminating signals are blocked in every thread and
// taken by one watcher thread (sigwait) rather than by a handler. The watcher is an ordinary
// thread, so it may lock, allocate and print: it removes every uncommitted output's temporary
// file under the lock AtomicFile creates, renames and removes them with (so none slips through
// while being made or renamed), and ends the process at once, whatever stage the run is in. A
// cooperative stop (a flag the pipeline polls) would wait for the tile, the region labelling or
// the file being encoded to finish, which on big maps takes seconds, and could not reach code
// outside the pipeline.

namespace terragrid {

/// Ignores SIGPIPE and SIGXFSZ, so that a write to a pipe whose reader has gone fails with
/// EPIPE, and a write past the file size limit (`ulimit -f`) with EFBIG, instead of killing the
/// process with its temporary files: the write that caused it fails like any other (exit 1,
/// older outputs intact). Every program that writes outputs must call it (stopOnSignals does).
void ignoreWriteSignals();

/// Makes SIGINT, SIGTERM and SIGHUP, and every other asynchronous signal that would end the
/// process (SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGPOLL, SIGXCPU, SIGPWR,
/// the real-time signals), stop the process cleanly; calls ignoreWriteSignals. Call first thing in main(),
/// before any other thread starts (threads inherit the blocked signals). On the first such
/// signal, every temporary output file is removed (finished files already renamed into place
/// stay, complete), "terragrid: stopped by SIGINT ..." goes to stderr, and the process ends by
/// that signal, so a shell reports 128 + its number (130 for SIGINT, 143 for SIGTERM; a
/// process that cannot die by it, such as a container's PID 1, exits with that code). Signals
/// ignored when the process started (nohup, background jobs) stay ignored.
void stopOnSignals();

}  // namespace terragrid
