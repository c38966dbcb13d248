#pragma once
// Detail header: internal to terragrid, may change in any commit (docs/cpp-api.md).
// When the program's own work began, so stats.json's timers can count the start-up (reading
// the arguments and the config, the CRS lookup, the plan) as the first step of the run: without
// it, a fast run's timers would miss a growing share of what a user waits for.

namespace terragrid {

/// Marks now as the process's start. The CLI calls it first thing in main(); a program that
/// runs maps as a library need not, and its runs then report a start-up of 0.
void markProcessStart();

/// Seconds from markProcessStart to now; 0 if it was never called.
double secondsSinceProcessStart();

}  // namespace terragrid
