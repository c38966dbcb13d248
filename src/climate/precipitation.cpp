// Precipitation carried by the wind (climate_model.hpp): a sweep of the grid along the wind's
// dominant axis, one step (a column or a row) at a time.

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "terragrid/climate/climate_model.hpp"

namespace terragrid::climate {

namespace {

/// Cloud water falls as rain over this many km. Smith and Barstad's two delays (about 1000 s
/// each at 10 m/s: 20 km) carried the rain of a ridge 20 km wide past its crest into the lee,
/// which then got more than the windward side; 4 km keeps it on the slopes the air climbs
/// (ClimateModelTest and ClimateTest's rain-shadow checks). It replaces kFallKm (15).
constexpr double kCloudFallKm = 4;

/// The air over one cell, as it leaves it.
struct Air {
    double vapour = 0;  ///< mm a year x km
    double cloud = 0;   ///< likewise
    double surface = 0; ///< height of the surface it just crossed, m
};

/// The wind's step through the cells of one row: its drift across lines (in lines) and path
/// (km), and the shares of vapour and cloud a step takes that depend on them alone (each
/// -expm1 of cross()'s), computed once per row instead of once per cell.
struct RowStep {
    double drift = 0, pathKm = 0;
    double pickup = 0;      ///< of the gap to the sea's humidity, over water
    double cloudFall = 0;   ///< of the cloud, as rain
    double background = 0;  ///< of the vapour, as rain (weighted by the circulation)
    double rainOut = 0;     ///< of the vapour, lost by the plain rain-out
};

/// A run of lines (rows of a zonal sweep) that the wind crosses in one direction: the wind's
/// drift across lines is interpolated within it, never across a band whose wind blows the
/// other way.
struct Segment {
    std::int32_t first = 0, last = 0;  ///< lines [first, last)
    int direction = 1;                 ///< +1: steps in increasing order, -1: decreasing
};

/// The sweep's view of the grid: steps along the wind's dominant axis, lines across it. The
/// fields are stored step-major (a step's lines contiguous).
class Sweep {
public:
    Sweep(const Grid& g, const Params& p) : m_grid(g), m_params(p) {
        const std::size_t rows = std::size_t(g.height);
        m_wind.resize(rows);
        for (std::size_t r = 0; r < rows; ++r) m_wind[r] = windAt(p, g.latitude[r]);
        // Zonal when every row's wind is at least as zonal as meridional (the bands always are).
        m_zonal = std::all_of(m_wind.begin(), m_wind.end(), [](const WindVector& w) {
            return std::fabs(w.east) >= std::fabs(w.south);
        });
        m_steps = m_zonal ? g.width : g.height;
        m_lines = m_zonal ? g.height : g.width;
        m_periodic = m_zonal ? g.wrapX : g.wrapY;
        m_crossPeriodic = m_zonal ? g.wrapY : g.wrapX;
        m_loadFactor = 1.0 - kRecycling;
        m_rainKm = p.moistureRangeKm * (1.0 - kRecycling);
        m_seaLevel.resize(rows);
        m_circulation.resize(rows);
        m_rowStep.resize(rows);
        for (std::size_t r = 0; r < rows; ++r) {
            m_seaLevel[r] = seaLevelTemperature(p, g.latitude[r]);
            m_circulation[r] = circulationFactor(g.latitude[r]);
            m_rowStep[r] = rowStep(r);
        }
        buildSegments();
        chooseBlocks();
        transpose(g.surface, m_surface);
        transpose(g.water, m_water);
    }

    /// The sweep in blocks of steps: each segment's task carries its lines, and a halo of
    /// the lines the air reaches them from (m_reach per step), through a block's steps on its
    /// own, so the tasks meet once a block instead of once a step (a step's barrier waited on
    /// the slowest of the shared cores 4096 times a pass). A halo line is computed from the
    /// same inputs by the same operations as by the task that owns it: the same bits as a
    /// sweep step by step, for any thread count.
    std::vector<float> run() {
        std::vector<float> rain(m_surface.size(), 0.0f);
        std::vector<Air> previous(static_cast<std::size_t>(m_lines));
        std::vector<Air> next(static_cast<std::size_t>(m_lines));
        const int rounds = m_periodic ? 2 : 1;
        for (int round = 0; round < rounds; ++round) {
            const bool record = round + 1 == rounds;
            for (std::int32_t s0 = 0; s0 < m_steps; s0 += m_blockSteps) {
                const std::int32_t steps = std::min(m_blockSteps, m_steps - s0);
                tbb::parallel_for(
                    tbb::blocked_range<std::size_t>(0, m_segments.size()), [&](const auto& segs) {
                        std::vector<Air> from, to;
                        for (std::size_t k = segs.begin(); k < segs.end(); ++k)
                            blockSegment(m_segments[k], round, s0, steps, record, previous,
                                         next, rain, from, to);
                    });
                std::swap(previous, next);
            }
        }
        return untranspose(rain);
    }

private:
    /// Rows (zonal) or the whole width (meridional) split where the wind turns round.
    void buildSegments() {
        const auto directionOf = [&](std::int32_t line) {
            if (!m_zonal) return m_wind[0].south >= 0 ? 1 : -1;
            return m_wind[std::size_t(line)].east >= 0 ? 1 : -1;
        };
        // Segments of at most kLinesPerSegment lines, so the steps parallelise; the drift is
        // interpolated across segments of one direction (see upwind()).
        std::int32_t start = 0;
        for (std::int32_t line = 1; line <= m_lines; ++line) {
            if (line < m_lines && directionOf(line) == directionOf(start)) continue;
            m_bands.push_back({start, line, directionOf(start)});
            for (std::int32_t a = start; a < line; a += kLinesPerSegment)
                m_segments.push_back({a, std::min(line, a + kLinesPerSegment), directionOf(start)});
            start = line;
        }
        m_bandOf.resize(std::size_t(m_lines));
        for (std::size_t b = 0; b < m_bands.size(); ++b)
            for (std::int32_t l = m_bands[b].first; l < m_bands[b].last; ++l)
                m_bandOf[std::size_t(l)] = b;
    }

    static constexpr std::int32_t kLinesPerSegment = 256;

    std::size_t cellIndex(std::int32_t step, std::int32_t line) const {
        return m_zonal ? std::size_t(line) * std::size_t(m_grid.width) + std::size_t(step)
                       : std::size_t(step) * std::size_t(m_grid.width) + std::size_t(line);
    }
    std::size_t sweepIndex(std::int32_t step, std::int32_t line) const {
        return std::size_t(step) * std::size_t(m_lines) + std::size_t(line);
    }

    void transpose(const std::vector<float>& in, std::vector<float>& out) const {
        out.resize(in.size());
        forTiles([&](std::int32_t s, std::int32_t l) { out[sweepIndex(s, l)] = in[cellIndex(s, l)]; });
    }
    std::vector<float> untranspose(const std::vector<float>& in) const {
        std::vector<float> out(in.size());
        forTiles([&](std::int32_t s, std::int32_t l) { out[cellIndex(s, l)] = in[sweepIndex(s, l)]; });
        return out;
    }
    /// f(step, line) for every cell, in tiles of 64 steps by 64 lines, the tiles in parallel:
    /// a tile's cells lie in 64 rows of each layout, so both the reads and the writes stay in
    /// the cache (a whole line of steps at a time read each value of a zonal sweep's cell
    /// layout from a cache line of its own).
    template <typename F>
    void forTiles(const F& f) const {
        constexpr std::int32_t kTile = 64;
        tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, (m_steps + kTile - 1) / kTile), [&](const auto& r) {
            for (std::int32_t s0 = r.begin() * kTile; s0 < std::min(r.end() * kTile, m_steps); s0 += kTile)
                for (std::int32_t l0 = 0; l0 < m_lines; l0 += kTile)
                    for (std::int32_t l = l0; l < std::min(l0 + kTile, m_lines); ++l)
                        for (std::int32_t s = s0; s < std::min(s0 + kTile, m_steps); ++s) f(s, l);
        });
    }

    std::int32_t rowOf(std::int32_t step, std::int32_t line) const { return m_zonal ? line : step; }

    /// The wind's step through the cells of `row` (m_wind, m_circulation and m_rainKm set).
    RowStep rowStep(std::size_t row) const {
        RowStep m;
        const WindVector& w = m_wind[row];
        const double rowKm = m_grid.rowCellKm[row], colKm = m_grid.columnCellKm;
        if (m_zonal) {
            const double along = std::fabs(w.east);
            m.drift = w.south / along * (rowKm / colKm);
            m.pathKm = rowKm / along;
        } else {
            const double along = std::fabs(w.south);
            m.drift = w.east / along * (colKm / rowKm);
            m.pathKm = colKm / along;
        }
        m.pickup = -std::expm1(-m.pathKm / kPickupKm);
        m.cloudFall = -std::expm1(-m.pathKm / kCloudFallKm);
        m.background = -std::expm1(-m.pathKm * m_circulation[row] / m_rainKm);
        m.rainOut = -std::expm1(-m.pathKm / m_rainKm);
        return m;
    }

    /// The air arriving at `line` from the previous step: interpolated at line - drift between
    /// the two nearest lines of its band (clamped at the band's ends, or wrapped when the cross
    /// axis wraps and one band covers it).
    template <typename LocalOf>
    Air upwind(const std::vector<Air>& previous, const LocalOf& localOf, const Segment& band,
               bool wraps, std::int32_t line, double drift) const {
        double at = double(line) - drift;
        const double lo = band.first, hi = band.last - 1;
        if (!wraps) at = std::clamp(at, lo, hi);
        const double base = std::floor(at);
        const double t = at - base;
        const auto wrap = [&](std::int64_t l) {
            if (!wraps) return std::int32_t(std::min<std::int64_t>(l, band.last - 1));
            const std::int64_t n = m_lines;
            return std::int32_t(((l % n) + n) % n);
        };
        const Air& a = previous[localOf(wrap(std::int64_t(base)))];
        const Air& b = previous[localOf(wrap(std::int64_t(base) + 1))];
        return {a.vapour + (b.vapour - a.vapour) * t, a.cloud + (b.cloud - a.cloud) * t,
                a.surface + (b.surface - a.surface) * t};
    }

    /// How far (in lines) the air reaches across lines in one step: the drift's whole lines
    /// and one more for the interpolation; and the steps of a block, so a segment's halo
    /// (m_reach lines a step, both sides) stays a fraction of it.
    void chooseBlocks() {
        double most = 0;
        for (const RowStep& row : m_rowStep) most = std::max(most, std::fabs(row.drift));
        m_reach = std::int32_t(std::min(double(m_lines), std::ceil(most))) + 1;
        m_blockSteps = std::max<std::int32_t>(1, std::min<std::int32_t>(
                                                     kBlockSteps, kLinesPerSegment / (4 * m_reach)));
        // A window that wraps must not meet itself round the lines: else each band is one
        // segment (no halo).
        const bool wraps = m_crossPeriodic && m_bands.size() == 1;
        if (wraps && m_segments.size() > 1) {
            const std::int64_t room = std::int64_t(m_lines) - kLinesPerSegment;
            m_blockSteps = std::int32_t(std::min<std::int64_t>(m_blockSteps, room / (2 * m_reach)));
            if (m_blockSteps < 1) {
                m_blockSteps = kBlockSteps;
                m_segments = m_bands;
            }
        }
    }

    static constexpr std::int32_t kBlockSteps = 32;

    /// Steps [s0, s0 + steps) of round `round` for the lines of `seg`: from `previous` (every
    /// line's air after step s0 - 1) to `next` (the segment's own lines after the block's last
    /// step), recording the rain of its own lines. `from` and `to`: scratch.
    void blockSegment(const Segment& seg, int round, std::int32_t s0, std::int32_t steps,
                      bool record, const std::vector<Air>& previous, std::vector<Air>& next,
                      std::vector<float>& rain, std::vector<Air>& from, std::vector<Air>& to) const {
        const Segment& band = m_bands[m_bandOf[std::size_t(seg.first)]];
        const bool wraps = m_crossPeriodic && m_bands.size() == 1;
        // A segment that is its whole band needs no halo: the band's ends clamp (or wrap).
        const bool whole = seg.first == band.first && seg.last == band.last;
        const std::int32_t halo = whole ? 0 : m_reach * steps;
        // The local window's first global line and its width; clipped to the band unless it
        // wraps (then the halo never overlaps itself: segments are 4 halos wide or whole).
        std::int64_t lo = std::int64_t(seg.first) - halo, hi = std::int64_t(seg.last) + halo;
        if (!wraps) {
            lo = std::max<std::int64_t>(lo, band.first);
            hi = std::min<std::int64_t>(hi, band.last);
        }
        const std::int64_t width = hi - lo;
        const auto global = [&](std::int64_t local) {
            const std::int64_t g = lo + local;
            if (!wraps) return std::int32_t(g);
            const std::int64_t n = m_lines;
            return std::int32_t(((g % n) + n) % n);
        };
        const auto localOf = [&](std::int32_t g) {
            std::int64_t l = std::int64_t(g) - lo;
            if (wraps) l = ((l % m_lines) + m_lines) % m_lines;
            return std::size_t(l);
        };
        from.resize(std::size_t(width));
        to.resize(std::size_t(width));
        for (std::int64_t l = 0; l < width; ++l) from[std::size_t(l)] = previous[std::size_t(global(l))];
        // Lines [a, b) of the window are computed at block step k: the window less the lines
        // whose upwind air is not yet known (m_reach a step from each cut end).
        for (std::int32_t k = 0; k < steps; ++k) {
            const std::int32_t s = s0 + k;
            const std::int64_t cut = std::int64_t(m_reach) * (k + 1);
            const std::int64_t a = !whole && (wraps || lo > band.first) ? cut : 0;
            const std::int64_t b = !whole && (wraps || hi < band.last) ? width - cut : width;
            const std::int32_t step = seg.direction > 0 ? s : m_steps - 1 - s;
            const bool entry = round == 0 && s == 0;
            for (std::int64_t l = a; l < b; ++l) {
                const std::int32_t line = global(l);
                float fell = 0;
                to[std::size_t(l)] = airAt(step, line, entry, from, localOf, band, wraps, fell);
                const bool own = line >= seg.first && line < seg.last;
                if (record && own) rain[sweepIndex(step, line)] = fell;
            }
            std::swap(from, to);
        }
        for (std::int32_t line = seg.first; line < seg.last; ++line)
            next[std::size_t(line)] = from[localOf(line)];
    }

    /// The air leaving cell (step, line), from the air of the previous step (`previous`, read
    /// through `localOf`); `fell`: the rain the cell gets (mm a year).
    template <typename LocalOf>
    Air airAt(std::int32_t step, std::int32_t line, bool entry, const std::vector<Air>& previous,
              const LocalOf& localOf, const Segment& band, bool wraps, float& fell) const {
        const std::size_t at = sweepIndex(step, line);
        const std::size_t row = std::size_t(rowOf(step, line));
        const double surface = m_surface[at];
        const double celsius = m_seaLevel[row] - m_params.lapseRate * std::max(0.0, surface) / 1000.0;
        const double capacity = m_params.precipitation * m_rainKm * saturation(celsius);
        const RowStep& move = m_rowStep[row];
        Air air;
        if (entry) {
            // Air from beyond the upwind edge: its humidity at sea-level temperature.
            air.vapour = m_params.inflowHumidity * m_params.precipitation * m_rainKm *
                         saturation(m_seaLevel[row]);
            air.surface = surface;
        } else {
            air = upwind(previous, localOf, band, wraps, line, move.drift);
        }
        double rain = 0;
        const Air out = cross(air, surface, m_water[at], capacity, move, rain);
        fell = static_cast<float>(rain / move.pathKm);
        return out;
    }

    /// The air `air` crossing one cell: returns it as it leaves, `fell` the water it lost as rain
    /// (mm a year x km).
    Air cross(Air air, double surface, double water, double capacity, const RowStep& move,
              double& fell) const {
        // Uptake over open water, toward kSeaHumidity of saturation.
        const double target = kSeaHumidity * capacity;
        if (water > 0 && air.vapour < target)
            air.vapour += water * (target - air.vapour) * move.pickup;
        // Rising air cools and condenses: the share of its vapour its capacity loses
        // (2^(-lapse x rise / 10 km)), weighted by its relative humidity (dry air must climb
        // further before it condenses); and vapour beyond the capacity at this cell's
        // temperature condenses whatever the path. Descent evaporates cloud water (the capacity
        // rises by 2^(lapse x drop / 10 km) as the air warms on the way down).
        const double rise = std::max(0.0, surface) - std::max(0.0, air.surface);
        if (rise > 0 && capacity > 0) {
            const double humidity = std::min(1.0, air.vapour / capacity);
            const double condensed = air.vapour * humidity *
                                     -std::expm1(-std::log(2.0) * m_params.lapseRate * rise / 10000.0);
            air.vapour -= condensed;
            air.cloud += condensed;
        }
        if (air.vapour > capacity) {
            air.cloud += air.vapour - capacity;
            air.vapour = capacity;
        } else if (rise < 0 && air.cloud > 0) {
            const double evaporated = std::min(
                air.cloud * -std::expm1(std::log(2.0) * m_params.lapseRate * rise / 10000.0),
                capacity - air.vapour);
            air.cloud -= evaporated;
            air.vapour += evaporated;
        }
        const double fromCloud = air.cloud * move.cloudFall;
        // The background rain is weighted by the circulation cells, but the air's loss is not:
        // the rain a convergence zone takes beyond the plain rain-out comes from the air that
        // converges into it across the wind (the trades from both hemispheres into the
        // equator's), and the rain a subsiding high withholds is carried out of it sideways.
        // (Weighting the loss too emptied a continent's air over moisture_range / 1.6 at the
        // equator, the wettest band: no rain forest inland.)
        const double background = air.vapour * move.background;
        air.cloud -= fromCloud;
        // Most of the plain rain-out evaporates again, over land and water alike: the air
        // keeps a humidity near what its surface gives it. (Taking the whole of it over water
        // left the air over an ocean at a fifth of saturation, since the uptake closes its gap
        // over 300 km and the rain-out over 150 km: a planet's equator got 700 mm.)
        air.vapour -= air.vapour * move.rainOut * m_loadFactor;
        fell = fromCloud + background;
        air.surface = surface;
        return air;
    }

    const Grid& m_grid;
    const Params& m_params;
    std::vector<WindVector> m_wind;  ///< per row
    bool m_zonal = true;
    std::int32_t m_steps = 0, m_lines = 0;
    bool m_periodic = false, m_crossPeriodic = false;
    double m_loadFactor = 1, m_rainKm = 1;
    std::int32_t m_reach = 2, m_blockSteps = 1;
    std::vector<Segment> m_bands, m_segments;
    std::vector<std::size_t> m_bandOf;
    std::vector<float> m_surface, m_water;
    std::vector<double> m_seaLevel, m_circulation;  ///< per row
    std::vector<RowStep> m_rowStep;                 ///< per row
};

/// The radius in cells of a box blur that, run three times, spreads by `sigmaKm` on cells of
/// `cellKm`: three boxes of 2r + 1 cells have variance 3 ((2r + 1)^2 - 1) / 12.
std::int32_t boxRadius(double sigmaKm, double cellKm) {
    const double sigma = sigmaKm / cellKm;
    return static_cast<std::int32_t>(std::lround((std::sqrt(4 * sigma * sigma + 1) - 1) / 2));
}

/// Three box blurs of radius r over the n values at `v`, clamped at the ends (or wrapped round
/// when `wraps`): each value once from a running sum, in order.
void boxes(float* v, std::size_t n, std::int32_t r, bool wraps,
           std::vector<double>& scratch) {
    if (r <= 0 || n < 2) return;
    scratch.resize(n);
    const auto index = [&](std::int64_t i) {
        const auto count = std::int64_t(n);
        return wraps ? std::size_t(((i % count) + count) % count)
                     : std::size_t(std::clamp<std::int64_t>(i, 0, count - 1));
    };
    for (int pass = 0; pass < 3; ++pass) {
        for (std::size_t i = 0; i < n; ++i) scratch[i] = v[i];
        double sum = 0;
        for (std::int64_t k = -r; k <= r; ++k) sum += scratch[index(k)];
        for (std::size_t i = 0; i < n; ++i) {
            v[i] = static_cast<float>(sum / double(2 * r + 1));
            sum += scratch[index(std::int64_t(i) + r + 1)] - scratch[index(std::int64_t(i) - r)];
        }
    }
}

/// Spreads the rain over about `sigmaKm` (a Gaussian's sigma, by three box blurs along the rows
/// and then the columns): rain falls from clouds that drift and spread, not in the one cell
/// where the air crossed a contour. Grids coarser than that are left alone. Rows and columns
/// in parallel, each on its own: the same bits for any thread count.
void spread(std::vector<float>& rain, const Grid& g, double sigmaKm) {
    const std::size_t w = std::size_t(g.width), h = std::size_t(g.height);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h, 16), [&](const auto& rows) {
        std::vector<double> scratch;
        for (std::size_t y = rows.begin(); y < rows.end(); ++y)
            boxes(rain.data() + y * w, w, boxRadius(sigmaKm, g.rowCellKm[y]), g.wrapX, scratch);
    });
    // The columns a block of kBlock at a time, copied out into contiguous columns and back: a
    // column read in place is a cache line per value, and the three passes read each 4 times.
    constexpr std::size_t kBlock = 16;
    const std::int32_t r = boxRadius(sigmaKm, g.columnCellKm);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, (w + kBlock - 1) / kBlock), [&](const auto& blocks) {
        std::vector<double> scratch;
        std::vector<float> columns(kBlock * h);
        for (std::size_t b = blocks.begin(); b < blocks.end(); ++b) {
            const std::size_t x0 = b * kBlock, count = std::min(kBlock, w - x0);
            for (std::size_t y = 0; y < h; ++y)
                for (std::size_t c = 0; c < count; ++c) columns[c * h + y] = rain[y * w + x0 + c];
            for (std::size_t c = 0; c < count; ++c) boxes(columns.data() + c * h, h, r, g.wrapY, scratch);
            for (std::size_t y = 0; y < h; ++y)
                for (std::size_t c = 0; c < count; ++c) rain[y * w + x0 + c] = columns[c * h + y];
        }
    });
}

void checkGrid(const Grid& g) {
    const std::size_t n = std::size_t(g.width) * std::size_t(g.height);
    if (g.width <= 0 || g.height <= 0 || g.surface.size() != n || g.water.size() != n ||
        g.latitude.size() != std::size_t(g.height) || g.rowCellKm.size() != std::size_t(g.height) ||
        !(g.columnCellKm > 0) ||
        std::any_of(g.rowCellKm.begin(), g.rowCellKm.end(), [](double km) { return !(km > 0); }))
        throw std::invalid_argument("climate: malformed grid");
}

}  // namespace

std::vector<float> precipitation(const Grid& grid, const Params& p) {
    checkGrid(grid);
    if (!(p.moistureRangeKm > 0) || !(p.precipitation >= 0))
        throw std::invalid_argument("climate: moisture range must be > 0, precipitation >= 0");
    std::vector<float> rain = Sweep(grid, p).run();
    spread(rain, grid, kSpreadKm);
    return rain;
}

}  // namespace terragrid::climate
