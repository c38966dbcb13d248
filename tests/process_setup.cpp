// The test executable is a program that writes outputs in process (the writer tests), so it
// does what stop_signals.hpp asks of every such program: SIGPIPE and SIGXFSZ ignored, so a
// write past a file size limit fails with EFBIG instead of killing the tests. Children it
// starts (runCommand, Child) get every signal back at its default action, as from a shell.

#include <gtest/gtest.h>

#include "terragrid/app/stop_signals.hpp"

namespace {

class WriteSignalsIgnored : public testing::Environment {
public:
    void SetUp() override { terragrid::ignoreWriteSignals(); }
};

[[maybe_unused]] testing::Environment* const kWriteSignalsIgnored =
    testing::AddGlobalTestEnvironment(new WriteSignalsIgnored);

}  // namespace
