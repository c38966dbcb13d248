#pragma once
// What a run records in manifest.json besides its files (the run writes it; the plan bounds
// its size). Internal to src/app.

#include "terragrid/io/config.hpp"
#include "terragrid/io/manifest.hpp"
#include "terragrid/model/window.hpp"

namespace terragrid {

/// The manifest header of a run of `config`: what made the files, and which part of the
/// configured map they hold (`window` null: the whole map). Pure.
Manifest runManifest(const Config& config, const MapWindow* window);

}  // namespace terragrid
