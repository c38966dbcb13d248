#include "serve/hydrology_job.hpp"

#include <tbb/task_arena.h>

#include <exception>
#include <string>
#include <thread>

namespace terragrid::serve {
namespace {

/// Thrown from the stage's progress callback to stop it.
struct Cancelled {};

void runStage(ExploredMap& map, std::uint64_t job, int threads) {
    using State = HydrologyStatus::State;
    const auto wanted = [&] { return map.hydrologyWanted(job); };
    const auto report = [&](std::string_view phase, double done) {
        if (!wanted()) throw Cancelled{};
        map.setHydrologyStatus(job, {State::Running, std::string(phase), done * 0.95, {}});
    };
    try {
        tbb::task_arena arena(threads);
        arena.execute([&] {
            auto stage = std::make_unique<HydrologyStage>(computeHydrology(map.config(), report));
            // The rivers at every zoom: the last 5 % of the bar.
            map.setHydrologyStatus(job, {State::Running, "rivers at every zoom", 0.95, {}});
            auto water = std::make_shared<MapWater>(std::move(stage), map.config(),
                                                    map.terrain(), map.pyramid().maxZoom(),
                                                    [&] { return !wanted(); });
            if (!wanted()) throw Cancelled{};
            map.setWater(std::move(water));
        });
        map.setHydrologyStatus(job, {State::Done, "done", 1.0, {}});
    } catch (const Cancelled&) {
        // A newer job or a cancel owns the status now.
    } catch (const std::exception& e) {
        map.setHydrologyStatus(job, {State::Failed, "failed", 0.0, e.what()});
    }
}

}  // namespace

void startHydrologyJob(const std::shared_ptr<ExploredMap>& map, int threads) {
    const std::uint64_t job = map->startHydrologyJob();
    // Detached: a cancelled stage ends at its next check, and nothing waits for it (a new
    // config must not wait for the old one's stage to notice).
    std::thread([map, job, threads] { runStage(*map, job, threads); }).detach();
}

}  // namespace terragrid::serve
