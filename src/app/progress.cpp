#include "terragrid/app/progress.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "terragrid/app/plan.hpp"

namespace terragrid {

namespace {

// Erases the rest of the line, so a shorter redraw leaves nothing of a longer one behind.
constexpr const char* kEraseToEndOfLine = "\x1b[K";

std::string printed(const char* format, auto... values) {
    char buf[96];
    std::snprintf(buf, sizeof buf, format, values...);
    return buf;
}

}  // namespace

double ProgressSnapshot::cellsPerSecond() const noexcept {
    return elapsedSeconds > 0 ? double(cellsDone) / elapsedSeconds : 0.0;
}

double ProgressSnapshot::etaSeconds() const noexcept {
    if (cellsDone >= cellsTotal) return 0.0;
    const double rate = cellsPerSecond();
    return rate > 0 ? double(cellsTotal - cellsDone) / rate : -1.0;
}

std::int64_t cellsInFirstTiles(const TileLayout& layout, std::int64_t tilesDone) noexcept {
    const std::int64_t fullRows = tilesDone / layout.tilesAcross();
    const std::int64_t rest = tilesDone % layout.tilesAcross();
    const std::int64_t rowsDone = std::min(fullRows * layout.tileSize(), layout.mapHeight());
    std::int64_t cells = rowsDone * layout.mapWidth();
    if (rest > 0) {
        const TileRect last = layout.tile(tilesDone - 1);
        cells += (last.col0 + last.width) * last.height;
    }
    return cells;
}

std::string formatRate(double cellsPerSecond) {
    static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T"};
    std::size_t prefix = 0;
    double value = cellsPerSecond;
    while (value >= 999.5 && prefix + 1 < std::size(kPrefixes)) {
        value /= 1000;
        ++prefix;
    }
    const int decimals = value >= 99.95 ? 0 : value >= 9.995 ? 1 : 2;
    return printed("%.*f %scells/s", decimals, value, kPrefixes[prefix]);
}

std::string formatDuration(double seconds) {
    if (seconds < 0 || !std::isfinite(seconds)) return "--:--";
    const auto total = static_cast<long long>(std::llround(seconds));
    const long long h = total / 3600, m = total / 60 % 60, s = total % 60;
    return h > 0 ? printed("%lld:%02lld:%02lld", h, m, s) : printed("%lld:%02lld", m, s);
}

std::string formatProgressBar(const ProgressSnapshot& s, int barWidth) {
    // Integer shares, so the bar is full and the figure 100 only when every cell is done.
    const std::int64_t total = std::max<std::int64_t>(s.cellsTotal, 1);
    const std::int64_t filled = s.cellsDone * barWidth / total;
    const std::int64_t percent = s.cellsDone * 100 / total;
    std::string line = "[";
    line.append(static_cast<std::size_t>(filled), '#');
    line.append(static_cast<std::size_t>(barWidth - filled), '.');
    line += printed("] %3lld%%  %lld/%lld tiles  ", static_cast<long long>(percent),
                    static_cast<long long>(s.tilesDone), static_cast<long long>(s.tilesTotal));
    line += formatRate(s.cellsPerSecond()) + "  elapsed " + formatDuration(s.elapsedSeconds) +
            "  ETA " + formatDuration(s.etaSeconds());
    return line;
}

std::string formatProgressJson(const ProgressSnapshot& s, bool done) {
    const double eta = s.etaSeconds();
    return printed("{\"event\":\"%s\",\"tiles_done\":%lld,\"tiles_total\":%lld,", done ? "done" : "progress",
                   static_cast<long long>(s.tilesDone), static_cast<long long>(s.tilesTotal)) +
           printed("\"cells_done\":%lld,\"cells_total\":%lld,", static_cast<long long>(s.cellsDone),
                   static_cast<long long>(s.cellsTotal)) +
           printed("\"elapsed_s\":%.3f,\"cells_per_s\":%.0f,", s.elapsedSeconds,
                   s.cellsPerSecond()) +
           (eta < 0 ? std::string("\"eta_s\":null}") : printed("\"eta_s\":%.3f}", eta));
}

double steadySeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

ProgressReporter::ProgressReporter(ProgressStyle style, std::ostream& out,
                                   const TileLayout& layout, SecondsClock clock,
                                   ProgressPacing pacing)
    : m_style(style),
      m_out(out),
      m_layout(layout),
      m_clock(std::move(clock)),
      m_pacing(pacing),
      m_start(m_clock()) {}

ProgressReporter::~ProgressReporter() {
    if (m_lineOpen) m_out << "\n" << std::flush;
}

ProgressFn ProgressReporter::callback() {
    return [this](std::int64_t done, std::int64_t total) { update(done, total); };
}

ProgressSnapshot ProgressReporter::snapshot() const {
    return {m_tilesDone, m_layout.tileCount(), cellsInFirstTiles(m_layout, m_tilesDone),
            m_layout.mapWidth() * m_layout.mapHeight(), m_clock() - m_start};
}

void ProgressReporter::update(std::int64_t tilesDone, std::int64_t tilesTotal) {
    m_tilesDone = std::clamp<std::int64_t>(tilesDone, 0, std::min(tilesTotal, m_layout.tileCount()));
    const double elapsed = m_clock() - m_start;
    const double sinceLast = elapsed - m_lastWrite;
    // The last tile starts the writing stage (finishing the files, which takes seconds on big
    // maps): the bar says so at once. JSON tells it by the "file" events that follow.
    const bool lastTile = m_tilesDone == m_layout.tileCount();
    if (lastTile) m_barNote = "writing files";
    const bool due = m_style == ProgressStyle::Bar
                         ? elapsed >= m_pacing.firstBarAfterSeconds &&
                               (!m_written || lastTile || sinceLast >= m_pacing.barIntervalSeconds)
                         : !m_written || sinceLast >= m_pacing.jsonIntervalSeconds;
    if (due) write(false);
}

std::function<void(const std::string&, std::uint64_t)> ProgressReporter::fileCallback() {
    return [this](const std::string& path, std::uint64_t bytes) { fileWritten(path, bytes); };
}

void ProgressReporter::fileWritten(const std::string& path, std::uint64_t bytes) {
    if (m_style == ProgressStyle::Json) {
        // The progress line's fields too, so every line a program reads has the same ones.
        const std::string progress = formatProgressJson(snapshot(), false);
        const std::string fields = progress.substr(progress.find(',') + 1);
        m_out << "{\"event\":\"file\",\"file\":"
              << nlohmann::json(path).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << ",\"bytes\":" << bytes << "," << fields << "\n"
              << std::flush;
        return;
    }
    m_barNote = "wrote " + path + " (" + formatBytes(bytes) + ")";
    if (m_lineOpen || m_clock() - m_start >= m_pacing.firstBarAfterSeconds) write(false);
}

void ProgressReporter::finish() {
    if (m_style == ProgressStyle::Json || m_lineOpen) write(true);
}

void ProgressReporter::write(bool done) {
    const ProgressSnapshot s = snapshot();
    if (m_style == ProgressStyle::Json) {
        m_out << formatProgressJson(s, done) << "\n";
    } else {
        const std::string note = done || m_barNote.empty() ? "" : "  " + m_barNote;
        m_out << "\r" << formatProgressBar(s) << note << kEraseToEndOfLine
              << (done ? "\n" : "");
        m_lineOpen = !done;
    }
    m_out << std::flush;
    m_written = true;
    m_lastWrite = s.elapsedSeconds;
}

}  // namespace terragrid
