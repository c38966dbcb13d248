// NoiseRows: a NoiseField over rows of fixed columns.

#include "terragrid/noise.hpp"

#include <vector>

namespace terragrid {

struct NoiseRows::State {
    const NoiseField& field;
    std::vector<double> xs;
};

NoiseRows::NoiseRows(const NoiseField& field, const double* xs, std::size_t n)
    : m_state(new State{field, std::vector<double>(xs, xs + n)}) {}

NoiseRows::~NoiseRows() = default;

std::size_t NoiseRows::size() const noexcept { return m_state->xs.size(); }

void NoiseRows::row(double y, double* out) {
    for (std::size_t i = 0; i < m_state->xs.size(); ++i) out[i] = m_state->field.sample(m_state->xs[i], y);
}

}  // namespace terragrid
