// A deliberate data race between two TBB tasks, run by scripts/sanitize.sh tsan before the
// tests: ThreadSanitizer must report it, or the run fails. It proves that what the TSan run
// adds to make Debian's uninstrumented TBB usable (tbb_tsan_sync.cpp and tsan.supp) has not
// blinded TSan to races between terragrid-like code on TBB's threads. Never part of the test
// suite (it is a race on purpose).
//
// Usage: tsan_canary task_group|pipeline   (exits 0 only when no race was reported, which is
// the failure scripts/sanitize.sh looks for)

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

namespace {

int shared = 0;  // written by two tasks at once, unsynchronised: the race
std::atomic<int> started{0};

/// Waits (up to 10 s) until both racing bodies run, so they really overlap in time, then
/// writes `shared` without synchronisation.
void racingBody(int value) {
    started.fetch_add(1);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 2 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    shared = value;
}

}  // namespace

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 2);
    tbb::task_arena arena(2);
    if (std::strcmp(mode, "task_group") == 0) {
        arena.execute([] {
            tbb::task_group group;
            group.run([] { racingBody(1); });
            group.run([] { racingBody(2); });
            group.wait();
        });
    } else if (std::strcmp(mode, "pipeline") == 0) {
        // Like generateMap: a serial source, a parallel stage (where the race is), a serial sink.
        arena.execute([] {
            int next = 0;
            tbb::parallel_pipeline(
                2,
                tbb::make_filter<void, int>(tbb::filter_mode::serial_in_order,
                                            [&](tbb::flow_control& fc) {
                                                if (next == 2) fc.stop();
                                                return next++;
                                            }) &
                    tbb::make_filter<int, int>(tbb::filter_mode::parallel,
                                               [](int i) {
                                                   racingBody(i);
                                                   return i;
                                               }) &
                    tbb::make_filter<int, void>(tbb::filter_mode::serial_in_order, [](int) {}));
        });
    } else {
        std::fprintf(stderr, "usage: tsan_canary task_group|pipeline\n");
        return 2;
    }
    std::printf("shared = %d\n", shared);
    return 0;
}
