// ThreadSanitizer and Debian's oneTBB: tells TSan where TBB synchronises, so the ThreadSanitizer
// run (scripts/sanitize.sh tsan) reports races in terragrid's code and nothing else.
//
// Why this exists. TSan only sees synchronisation done by instrumented code or by functions it
// intercepts (pthread, ...). Debian's libtbb.so is not instrumented, and TBB hands work between
// threads with its own atomics inside it: a task spawned on one thread runs on another, a
// serial_in_order pipeline filter runs on whichever thread holds the next token, a waiter
// returns once other threads finished its tasks. TSan sees none of these edges, so every such
// hand-over looks like a race. The first run reported 67 races in one GeneratorTest, all of this
// kind, e.g. on the `next` counter of generateMap's serial input filter (src/pipeline/generator.cpp),
// which TBB runs on one thread at a time. Suppressing them would mean suppressing terragrid's
// own frames (the race is reported in terragrid's lambda), which would hide real races there
// too. Rebuilding TBB with -fsanitize=thread is not possible with Debian packages only.
//
// What it does instead: it models TBB's documented guarantees conservatively with one TSan
// synchronisation object. Every crossing between instrumented code (terragrid, the tests, TBB's
// header templates) and libtbb.so releases and then acquires that object:
//   * calls into libtbb's run-time entry points that hand work or memory between threads
//     (spawn, wait, execute_and_wait, task_arena::execute, parallel_pipeline, the small-object
//     pool's allocate/deallocate, ...), wrapped below: release before, acquire after;
//   * callbacks from libtbb into instrumented code (a task's execute(), a filter's operator(),
//     an arena delegate), found by TSan's own function-entry hook: acquire on entry, release
//     on exit.
//   * the release and acquire points TBB's own header templates mark for threading tools
//     (TBB_USE_PROFILING_TOOLS=2, set by scripts/sanitize.sh for this build): "releasing"
//     just before a task signals its wait_context or folds into its parent, "acquired" once a
//     wait is over. They matter where a callback signals completion before it returns: the
//     waiter may go on (and reuse the task's memory) while the callback's last instructions
//     still run, so the release at callback exit alone would come too late;
//   * after a wait returns, the wait_context's own counter, whose last decrement (an atomic in
//     TBB's header) comes after the "releasing" notification.
// So whatever a thread did before giving control to TBB happens-before whatever any thread
// does after TBB gives it control. That is at least what TBB guarantees (spawn before execute,
// execute before wait returns, filter stages in token order) and more: two callbacks that did
// not overlap in time are ordered even if TBB did not order them. TSan therefore still reports
// every race between code running at the same time on two threads (two tiles generated at
// once, a sink and a generator, a writer and an encoder) and between terragrid code and any
// thread TBB does not manage, but may miss a race between two callbacks that happened not to
// overlap. Nothing here names or touches a terragrid function: no terragrid frame is
// suppressed.
//
// Built by scripts/sanitize.sh tsan without instrumentation (it implements TSan hooks, so it
// must not call them itself) and linked into every executable of build-tsan.

#include <dlfcn.h>
#include <link.h>
#include <sanitizer/tsan_interface.h>

#include <oneapi/tbb/detail/_task.h>
#include <oneapi/tbb/profiling.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace {

/// The one synchronisation object every TBB crossing releases and acquires.
char tbbSync;

void release() { __tsan_release(&tbbSync); }
void acquire() { __tsan_acquire(&tbbSync); }

/// The next definition of `name` after this executable's own: libtbb's, or libtsan's.
void* next(const char* name) {
    void* f = dlsym(RTLD_NEXT, name);
    if (f == nullptr) {
        std::fprintf(stderr, "tbb_tsan_sync: %s not found: %s\n", name, dlerror());
        std::abort();
    }
    return f;
}

/// The reference count a wait_context's waiter waits on (its second member; private). Tasks
/// decrement it with an instrumented atomic in TBB's header, and a waiter inside libtbb wakes
/// on it, so acquiring it after a wait orders that last decrement, too, before what the waiter
/// does next (e.g. reuse the stack the wait_context lived on).
void* refCount(tbb::detail::d1::wait_context& wait) {
    static_assert(std::is_standard_layout_v<tbb::detail::d1::wait_context> &&
                  sizeof(tbb::detail::d1::wait_context) == 2 * sizeof(std::uint64_t));
    return reinterpret_cast<char*>(&wait) + sizeof(std::uint64_t);
}

/// Release on construction, acquire on destruction: around a call into libtbb.
struct Crossing {
    Crossing() { release(); }
    ~Crossing() { acquire(); }
    Crossing(const Crossing&) = delete;
    Crossing& operator=(const Crossing&) = delete;
};

// --- callbacks from libtbb: TSan's function entry and exit hooks ---------------------------

/// Where libtbb's code is mapped: [begin, end) of each executable segment.
struct CodeRange {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
};
constexpr int kMaxRanges = 4;
CodeRange tbbCode[kMaxRanges];
std::atomic<int> tbbCodeCount{-1};  // -1: not looked up yet

int findTbb(dl_phdr_info* info, std::size_t, void*) {
    if (info->dlpi_name == nullptr || std::strstr(info->dlpi_name, "/libtbb.so") == nullptr)
        return 0;
    int count = 0;
    for (int i = 0; i < info->dlpi_phnum && count < kMaxRanges; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) == 0) continue;
        tbbCode[count].begin = info->dlpi_addr + ph.p_vaddr;
        tbbCode[count].end = tbbCode[count].begin + ph.p_memsz;
        ++count;
    }
    tbbCodeCount.store(count, std::memory_order_release);
    return 1;
}

bool inTbb(std::uintptr_t pc) {
    int count = tbbCodeCount.load(std::memory_order_acquire);
    if (count < 0) {
        // libtbb is a DT_NEEDED library, mapped before any code runs; a second thread doing
        // the same lookup at once finds the same ranges.
        if (dl_iterate_phdr(findTbb, nullptr) == 0) tbbCodeCount.store(0);
        count = tbbCodeCount.load(std::memory_order_acquire);
    }
    for (int i = 0; i < count; ++i)
        if (pc >= tbbCode[i].begin && pc < tbbCode[i].end) return true;
    return false;
}

using FuncEntry = void (*)(void*);
using FuncExit = void (*)();
// libtsan's hooks, looked up on first use (no function-local statics: their guards would run
// on every instrumented call).
std::atomic<FuncEntry> realEntry{nullptr};
std::atomic<FuncExit> realExit{nullptr};

/// Per thread: how deep the instrumented call stack is, and at which depths a callback from
/// libtbb started (callbacks nest: a task that waits runs other tasks inside the wait).
constexpr int kMaxCallbacks = 1024;
thread_local int depth = 0;
thread_local int callbackDepth[kMaxCallbacks];
thread_local int callbacks = 0;

}  // namespace

extern "C" {

// TSan's instrumentation calls these on entry to and exit from every instrumented function;
// the executable's own definitions come first, and pass every call on to libtsan's.
void __tsan_func_entry(void* callerPc) {
    FuncEntry real = realEntry.load(std::memory_order_relaxed);
    if (real == nullptr) {
        real = reinterpret_cast<FuncEntry>(next("__tsan_func_entry"));
        realEntry.store(real, std::memory_order_relaxed);
    }
    if (inTbb(reinterpret_cast<std::uintptr_t>(callerPc))) {
        if (callbacks == kMaxCallbacks) {
            std::fprintf(stderr, "tbb_tsan_sync: more than %d nested TBB callbacks\n",
                         kMaxCallbacks);
            std::abort();
        }
        callbackDepth[callbacks++] = depth;
        acquire();
    }
    ++depth;
    real(callerPc);
}

void __tsan_func_exit() {
    FuncExit real = realExit.load(std::memory_order_relaxed);
    if (real == nullptr) {
        real = reinterpret_cast<FuncExit>(next("__tsan_func_exit"));
        realExit.store(real, std::memory_order_relaxed);
    }
    real();
    --depth;
    // An exception that unwinds out of a callback skips the exits of the frames it unwinds, so
    // every callback at this depth or deeper has ended.
    while (callbacks > 0 && callbackDepth[callbacks - 1] >= depth) {
        --callbacks;
        release();
    }
}

}  // extern "C"

// --- calls into libtbb ------------------------------------------------------------------------
// The entry points of libtbb that terragrid's executables call (nm -D --undefined-only) and
// that hand work or memory between threads, with the signatures of oneTBB's headers. Each
// forwards to libtbb's own.

namespace tbb::detail::r1 {

#define TERRAGRID_TBB_REAL(type, mangled) \
    static const auto real = reinterpret_cast<type>(next(mangled))

void spawn(d1::task& t, d1::task_group_context& ctx) {
    TERRAGRID_TBB_REAL(void (*)(d1::task&, d1::task_group_context&),
                       "_ZN3tbb6detail2r15spawnERNS0_2d14taskERNS2_18task_group_contextE");
    Crossing crossing;
    real(t, ctx);
}

void spawn(d1::task& t, d1::task_group_context& ctx, d1::slot_id id) {
    TERRAGRID_TBB_REAL(void (*)(d1::task&, d1::task_group_context&, d1::slot_id),
                       "_ZN3tbb6detail2r15spawnERNS0_2d14taskERNS2_18task_group_contextEt");
    Crossing crossing;
    real(t, ctx, id);
}

void execute_and_wait(d1::task& t, d1::task_group_context& tctx, d1::wait_context& wait,
                      d1::task_group_context& wctx) {
    TERRAGRID_TBB_REAL(
        void (*)(d1::task&, d1::task_group_context&, d1::wait_context&, d1::task_group_context&),
        "_ZN3tbb6detail2r116execute_and_waitERNS0_2d14taskERNS2_18task_group_contextERNS2_12wait_"
        "contextES6_");
    {
        Crossing crossing;
        real(t, tctx, wait, wctx);
    }
    __tsan_acquire(refCount(wait));
}

void wait(d1::wait_context& wait, d1::task_group_context& ctx) {
    TERRAGRID_TBB_REAL(void (*)(d1::wait_context&, d1::task_group_context&),
                       "_ZN3tbb6detail2r14waitERNS0_2d112wait_contextERNS2_18task_group_contextE");
    {
        Crossing crossing;
        real(wait, ctx);
    }
    __tsan_acquire(refCount(wait));
}

void notify_waiters(std::uintptr_t waitContext) {
    TERRAGRID_TBB_REAL(void (*)(std::uintptr_t), "_ZN3tbb6detail2r114notify_waitersEm");
    Crossing crossing;
    real(waitContext);
}

void execute(d1::task_arena_base& arena, d1::delegate_base& delegate) {
    TERRAGRID_TBB_REAL(void (*)(d1::task_arena_base&, d1::delegate_base&),
                       "_ZN3tbb6detail2r17executeERNS0_2d115task_arena_baseERNS2_13delegate_baseE");
    Crossing crossing;
    real(arena, delegate);
}

void terminate(d1::task_arena_base& arena) {
    TERRAGRID_TBB_REAL(void (*)(d1::task_arena_base&),
                       "_ZN3tbb6detail2r19terminateERNS0_2d115task_arena_baseE");
    Crossing crossing;
    real(arena);
}

void parallel_pipeline(d1::task_group_context& ctx, std::size_t maxTokens,
                       const d1::filter_node& filters) {
    TERRAGRID_TBB_REAL(
        void (*)(d1::task_group_context&, std::size_t, const d1::filter_node&),
        "_ZN3tbb6detail2r117parallel_pipelineERNS0_2d118task_group_contextEmRKNS2_11filter_nodeE");
    Crossing crossing;
    real(ctx, maxTokens, filters);
}

void set_end_of_input(d1::base_filter& filter) {
    TERRAGRID_TBB_REAL(void (*)(d1::base_filter&),
                       "_ZN3tbb6detail2r116set_end_of_inputERNS0_2d111base_filterE");
    Crossing crossing;
    real(filter);
}

// The small-object pool hands a task's memory, freed on one thread, to the next task
// allocated on another.
void* allocate(d1::small_object_pool*& pool, std::size_t size) {
    TERRAGRID_TBB_REAL(void* (*)(d1::small_object_pool*&, std::size_t),
                       "_ZN3tbb6detail2r18allocateERPNS0_2d117small_object_poolEm");
    Crossing crossing;
    return real(pool, size);
}

void* allocate(d1::small_object_pool*& pool, std::size_t size, const d1::execution_data& ed) {
    TERRAGRID_TBB_REAL(
        void* (*)(d1::small_object_pool*&, std::size_t, const d1::execution_data&),
        "_ZN3tbb6detail2r18allocateERPNS0_2d117small_object_poolEmRKNS2_14execution_dataE");
    Crossing crossing;
    return real(pool, size, ed);
}

void deallocate(d1::small_object_pool& pool, void* p, std::size_t size) {
    TERRAGRID_TBB_REAL(void (*)(d1::small_object_pool&, void*, std::size_t),
                       "_ZN3tbb6detail2r110deallocateERNS0_2d117small_object_poolEPvm");
    Crossing crossing;
    real(pool, p, size);
}

void deallocate(d1::small_object_pool& pool, void* p, std::size_t size,
                const d1::execution_data& ed) {
    TERRAGRID_TBB_REAL(
        void (*)(d1::small_object_pool&, void*, std::size_t, const d1::execution_data&),
        "_ZN3tbb6detail2r110deallocateERNS0_2d117small_object_poolEPvmRKNS2_14execution_dataE");
    Crossing crossing;
    real(pool, p, size, ed);
}

// TBB's notifications for threading tools, called from its header templates when they are
// compiled with TBB_USE_PROFILING_TOOLS=2 (d1::notify_type: prepare, cancel, acquired,
// releasing, destroy).
void call_itt_notify(int type, void* object) {
    TERRAGRID_TBB_REAL(void (*)(int, void*), "_ZN3tbb6detail2r115call_itt_notifyEiPv");
    if (type == d1::releasing) release();
    real(type, object);
    if (type == d1::acquired) acquire();
}

#undef TERRAGRID_TBB_REAL

}  // namespace tbb::detail::r1
