#pragma once
// The explorer's page and the libraries it loads (web/ and the npm packages web's lock file
// pins), built into the binary at build time (cmake/embed_assets.cpp writes the table), so
// `terragrid serve` works from any directory and reads no file to serve them. Private to
// src/serve.

#include <span>
#include <string_view>

namespace terragrid::serve {

struct EmbeddedAsset {
    std::string_view path;         ///< the URL path it is served at: "/", "/app.js", ...
    std::string_view contentType;  ///< from its file name's extension
    std::string_view bytes;
    std::string_view etag;         ///< a quoted hash of the bytes
};

/// Every embedded asset (the generated table).
std::span<const EmbeddedAsset> embeddedAssets() noexcept;

/// The asset served at exactly `path`, or null: paths are looked up in the table as they are,
/// never mapped to files, so ".." or escapes name nothing.
const EmbeddedAsset* findAsset(std::string_view path) noexcept;

}  // namespace terragrid::serve
