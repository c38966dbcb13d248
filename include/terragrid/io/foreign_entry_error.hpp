#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// The error of a run that meets, in its output directory, an entry it did not make where it
// must make one of its own (design.md principle 8).

#include "terragrid/io/outputs.hpp"

namespace terragrid {

/// An entry of the output directory that the run did not make stands where the run must make
/// one of its own (a symbolic link, a FIFO or a device named like its lock file): the run
/// refuses to follow, write or remove it and has touched nothing. what() names the entry, what
/// it is and what to do. The CLI exits 2, as for a bad config: the user must act.
class ForeignEntryError : public OutputError {
public:
    using OutputError::OutputError;
};

}  // namespace terragrid
