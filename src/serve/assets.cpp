#include "serve/assets.hpp"

namespace terragrid::serve {

const EmbeddedAsset* findAsset(std::string_view path) noexcept {
    for (const EmbeddedAsset& asset : embeddedAssets())
        if (asset.path == path) return &asset;
    return nullptr;
}

}  // namespace terragrid::serve
