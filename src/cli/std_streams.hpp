#pragma once
// The program owns its standard streams (design.md principle 7).
//
// A descriptor 0, 1 or 2 that is closed when terragrid starts (`2>&-`) would be handed out by
// the next open(): an output file would become "stderr", and the progress lines would be
// written into it. So they are opened on /dev/null first thing. And stdout is the product of
// some commands (--print-config, schema, --help, --dry-run): a write to it that fails (a full
// disk, /dev/full) must fail the command, not vanish in a stream's error flag.

#include <string>

namespace terragrid::cli {

/// Opens every closed descriptor among 0, 1 and 2 on /dev/null. Call first thing in main(),
/// before anything opens a file. Returns false (errno set) if /dev/null cannot be opened.
bool openClosedStandardStreams() noexcept;

/// Makes std::cout write straight to descriptor 1 (no buffer, so stdout and stderr keep their
/// order) and remember the first write that failed, with the system's reason, which a
/// stream's error flag would lose.
void checkStdoutWrites();

/// Whether every write to std::cout reached descriptor 1: an empty string, also when the
/// reader of a pipe had gone (EPIPE: `terragrid schema | head -1` took what it wanted;
/// SIGPIPE is ignored, see stop_signals.hpp); else the message for the first failure:
/// "writing standard output: No space left on device".
std::string stdoutFailure();

}  // namespace terragrid::cli
