/* The C API's test, compiled as C99 (src/capi/CMakeLists.txt): windows generated through
 * include/terragrid/terragrid.h against the command line's own rasters for the same cells, read
 * with libtiff; a window 10^9 cells from the world's origin against a --region run; several
 * threads generating windows of one map at once; and every error named, with no cell written.
 *
 *   terragrid_c_test CLI SCRATCH_DIR
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <tiffio.h>

#include "terragrid/terragrid.h"

static const char* cli;
static const char* scratch;
static int failures;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);      \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fprintf(stderr, "\n");                                                        \
            ++failures;                                                                   \
        }                                                                                 \
    } while (0)

static void* xmalloc(size_t bytes) {
    void* p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* Writes `json` to SCRATCH/NAME.json and runs the CLI on it into SCRATCH/NAME with `args`. */
static void runCli(const char* name, const char* json, const char* args) {
    char path[4096], command[8192];
    FILE* f;
    snprintf(path, sizeof path, "%s/%s.json", scratch, name);
    f = fopen(path, "w");
    if (!f || fputs(json, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    snprintf(command, sizeof command, "'%s' --config '%s' --out-dir '%s/%s' --quiet %s", cli,
             path, scratch, name, args);
    if (system(command) != 0) {
        fprintf(stderr, "the CLI failed: %s\n", command);
        exit(1);
    }
}

/* The first image of a GeoTIFF (the full resolution) as packed rows of `cellBytes` samples. */
static unsigned char* readRaster(const char* name, const char* file, size_t cellBytes,
                                 int64_t* width, int64_t* height) {
    char path[4096];
    TIFF* tif;
    uint32_t w = 0, h = 0, tw = 0, th = 0, x, y, r;
    unsigned char *out, *tile;
    snprintf(path, sizeof path, "%s/%s/%s", scratch, name, file);
    tif = TIFFOpen(path, "r");
    if (!tif) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
    if (!TIFFIsTiled(tif) || !TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tw) ||
        !TIFFGetField(tif, TIFFTAG_TILELENGTH, &th)) {
        fprintf(stderr, "%s: expected a tiled GeoTIFF\n", path);
        exit(1);
    }
    out = xmalloc((size_t)w * h * cellBytes);
    tile = xmalloc((size_t)TIFFTileSize(tif));
    for (y = 0; y < h; y += th)
        for (x = 0; x < w; x += tw) {
            const uint32_t cols = x + tw > w ? w - x : tw;
            if (TIFFReadTile(tif, tile, x, y, 0, 0) < 0) {
                fprintf(stderr, "%s: cannot read the tile at %u,%u\n", path, x, y);
                exit(1);
            }
            for (r = 0; r < th && y + r < h; ++r)
                memcpy(out + ((size_t)(y + r) * w + x) * cellBytes,
                       tile + (size_t)r * tw * cellBytes, (size_t)cols * cellBytes);
        }
    _TIFFfree(tile);
    TIFFClose(tif);
    *width = w;
    *height = h;
    return out;
}

static terragrid_map* createMap(const char* json) {
    terragrid_map* map = NULL;
    const terragrid_status status = terragrid_map_create(json, NULL, 0, &map);
    if (status != TERRAGRID_OK) {
        fprintf(stderr, "terragrid_map_create: %s: %s\n", terragrid_status_name(status),
                terragrid_last_error());
        exit(1);
    }
    return map;
}

/* One layer of `window` generated alone, into a fresh buffer. */
static unsigned char* generateLayer(const terragrid_map* map, terragrid_window window,
                                    terragrid_layer layer, int threads) {
    unsigned char* buffer =
        xmalloc((size_t)(window.width * window.height) * terragrid_layer_cell_bytes(layer));
    void* buffers[1];
    terragrid_status status;
    buffers[0] = buffer;
    status = terragrid_map_generate(map, window, &layer, buffers, 1, threads);
    CHECK(status == TERRAGRID_OK, "%s: %s", terragrid_status_name(status), terragrid_last_error());
    return buffer;
}

/* Whether `window` of `layer` equals the same cells of a raster (of rasterWidth columns) that
 * starts at map cell (rasterCol, rasterRow). Compares bytes: floats bit for bit. */
static int windowEqualsRaster(const unsigned char* cells, terragrid_window window, size_t bytes,
                              const unsigned char* raster, int64_t rasterWidth,
                              int64_t rasterCol, int64_t rasterRow) {
    int64_t r;
    for (r = 0; r < window.height; ++r) {
        const unsigned char* want =
            raster + ((size_t)(window.row - rasterRow + r) * rasterWidth +
                      (size_t)(window.col - rasterCol)) * bytes;
        if (memcmp(cells + (size_t)(r * window.width) * bytes, want,
                   (size_t)window.width * bytes) != 0)
            return 0;
    }
    return 1;
}

struct RasterLayer {
    terragrid_layer layer;
    const char* file;
};

/* Windows anywhere in a 200 x 150 map (tile size 64: windows cut across its tiles and the
 * GeoTIFF's blocks), on 1 and 2 threads, against the whole-map run's rasters. */
static void windowsEqualTheWholeMapRun(void) {
    static const char json[] =
        "{\"seed\": 11, \"map\": {\"width\": 200, \"height\": 150, \"tile_size\": 64},"
        " \"terrain\": {\"mountain_above\": {\"coverage\": 0.2}},"
        " \"output\": {\"files\": [\"height.tif\", \"classes.tif\", \"walkable.tif\"]}}";
    static const struct RasterLayer layers[] = {{TERRAGRID_LAYER_HEIGHT, "height.tif"},
                                                {TERRAGRID_LAYER_CLASSES, "classes.tif"},
                                                {TERRAGRID_LAYER_WALKABLE, "walkable.tif"}};
    static const terragrid_window windows[] = {
        {0, 0, 200, 150}, {37, 11, 64, 50}, {190, 140, 10, 10}, {0, 149, 200, 1}, {63, 0, 2, 150}};
    terragrid_map* map = createMap(json);
    size_t l, w;
    int threads;
    runCli("whole", json, "--threads 2");
    for (l = 0; l < sizeof layers / sizeof layers[0]; ++l) {
        int64_t width, height;
        const size_t bytes = terragrid_layer_cell_bytes(layers[l].layer);
        unsigned char* raster = readRaster("whole", layers[l].file, bytes, &width, &height);
        CHECK(width == 200 && height == 150, "%s is %lld x %lld", layers[l].file, (long long)width,
              (long long)height);
        for (w = 0; w < sizeof windows / sizeof windows[0]; ++w)
            for (threads = 1; threads <= 2; ++threads) {
                unsigned char* cells = generateLayer(map, windows[w], layers[l].layer, threads);
                CHECK(windowEqualsRaster(cells, windows[w], bytes, raster, width, 0, 0),
                      "window %lld,%lld,%lld,%lld of %s on %d threads differs from %s",
                      (long long)windows[w].col, (long long)windows[w].row,
                      (long long)windows[w].width, (long long)windows[w].height,
                      terragrid_layer_name(layers[l].layer), threads, layers[l].file);
                free(cells);
            }
        free(raster);
    }
    terragrid_map_free(map);
}

/* A map placed 10^9 cells from the world's origin (cell size 30, origin 3e10): a window of it
 * equals the same cells of a --region run, where every coordinate is far from zero. */
static void farWindowEqualsTheRegionRun(void) {
    static const char json[] =
        "{\"map\": {\"width\": 512, \"height\": 512, \"cell_size\": 30,"
        " \"origin\": [30000000000, -30000000000]},"
        " \"output\": {\"files\": [\"height.tif\", \"classes.tif\"]}}";
    const terragrid_window window = {301, 97, 80, 48};
    terragrid_map* map = createMap(json);
    int64_t width, height;
    unsigned char *raster, *cells;
    runCli("far", json, "--region 301,97,80,48");
    raster = readRaster("far", "height.tif", 4, &width, &height);
    cells = generateLayer(map, window, TERRAGRID_LAYER_HEIGHT, 0);
    CHECK(width == 80 && height == 48, "the region's height.tif is %lld x %lld",
          (long long)width, (long long)height);
    CHECK(windowEqualsRaster(cells, window, 4, raster, width, 301, 97),
          "the far window's heights differ from the --region run's");
    free(raster);
    free(cells);
    raster = readRaster("far", "classes.tif", 1, &width, &height);
    cells = generateLayer(map, window, TERRAGRID_LAYER_CLASSES, 0);
    CHECK(windowEqualsRaster(cells, window, 1, raster, width, 301, 97),
          "the far window's classes differ from the --region run's");
    free(raster);
    free(cells);
    terragrid_map_free(map);
}

/* With hydrology: the water layers, all generated in one call, against water.tif,
 * water_depth.tif and flow.tif. */
static void waterLayersEqualTheRun(void) {
    static const char json[] =
        "{\"map\": {\"width\": 128, \"height\": 96, \"tile_size\": 48},"
        " \"hydrology\": {\"enabled\": true},"
        " \"output\": {\"files\": [\"height.tif\", \"water.tif\", \"water_depth.tif\","
        " \"flow.tif\"]}}";
    static const struct RasterLayer layers[] = {{TERRAGRID_LAYER_HEIGHT, "height.tif"},
                                                {TERRAGRID_LAYER_WATER, "water.tif"},
                                                {TERRAGRID_LAYER_WATER_DEPTH, "water_depth.tif"},
                                                {TERRAGRID_LAYER_FLOW, "flow.tif"}};
    enum { kLayers = sizeof layers / sizeof layers[0] };
    const terragrid_window window = {5, 7, 100, 80};
    terragrid_map* map = createMap(json);
    terragrid_layer which[kLayers];
    void* buffers[kLayers];
    terragrid_status status;
    size_t l;
    runCli("water", json, "");
    for (l = 0; l < kLayers; ++l) {
        which[l] = layers[l].layer;
        buffers[l] = xmalloc((size_t)(window.width * window.height) *
                             terragrid_layer_cell_bytes(layers[l].layer));
    }
    status = terragrid_map_generate(map, window, which, buffers, kLayers, 2);
    CHECK(status == TERRAGRID_OK, "%s", terragrid_last_error());
    for (l = 0; l < kLayers; ++l) {
        int64_t width, height;
        const size_t bytes = terragrid_layer_cell_bytes(layers[l].layer);
        unsigned char* raster = readRaster("water", layers[l].file, bytes, &width, &height);
        CHECK(windowEqualsRaster(buffers[l], window, bytes, raster, width, 0, 0),
              "layer %s differs from %s", terragrid_layer_name(layers[l].layer), layers[l].file);
        free(raster);
        free(buffers[l]);
    }
    terragrid_map_free(map);
}

struct Job {
    const terragrid_map* map;
    terragrid_window window;
    unsigned char* cells;
};

static void* generateJob(void* arg) {
    struct Job* job = arg;
    job->cells = generateLayer(job->map, job->window, TERRAGRID_LAYER_CLASSES, 1);
    return NULL;
}

/* Four threads generate windows of one fresh map at once: the first calls race to compute the
 * coverage thresholds, which must be made once and give every thread the same classes. */
static void threadsShareOneMap(void) {
    static const char json[] =
        "{\"seed\": 5, \"map\": {\"width\": 256, \"height\": 256},"
        " \"terrain\": {\"forest_above\": {\"coverage\": 0.3}}}";
    enum { kThreads = 4 };
    terragrid_map* shared = createMap(json);
    terragrid_map* alone = createMap(json);
    pthread_t threads[kThreads];
    struct Job jobs[kThreads];
    int i;
    for (i = 0; i < kThreads; ++i) {
        terragrid_window w = {i * 40, i * 20, 96, 96};
        jobs[i].map = shared;
        jobs[i].window = w;
        CHECK(pthread_create(&threads[i], NULL, generateJob, &jobs[i]) == 0, "pthread_create");
    }
    for (i = 0; i < kThreads; ++i) {
        unsigned char* want;
        pthread_join(threads[i], NULL);
        want = generateLayer(alone, jobs[i].window, TERRAGRID_LAYER_CLASSES, 2);
        CHECK(memcmp(want, jobs[i].cells, 96 * 96) == 0,
              "thread %d's window differs from the same window made alone", i);
        free(want);
        free(jobs[i].cells);
    }
    terragrid_map_free(shared);
    terragrid_map_free(alone);
}

static void expectError(terragrid_status got, terragrid_status want, const char* text) {
    CHECK(got == want, "got %s, want %s (%s)", terragrid_status_name(got),
          terragrid_status_name(want), terragrid_last_error());
    CHECK(strstr(terragrid_last_error(), text) != NULL, "the message '%s' does not say '%s'",
          terragrid_last_error(), text);
}

/* Every refused call names why, returns its status and writes no cell. */
static void errorsAreNamedAndWriteNothing(void) {
    static const char* const overrides[] = {"height.octaves=40", "map.width=0"};
    terragrid_map* map = (terragrid_map*)1;
    terragrid_window window = {0, 0, 8, 8};
    terragrid_layer layers[2] = {TERRAGRID_LAYER_HEIGHT, TERRAGRID_LAYER_HEIGHT};
    float cells[64], other[64];
    void* buffers[2];
    size_t i;
    expectError(terragrid_map_create("{\"map\": {\"width\": 64}, \"bogus\": 1}", overrides, 2,
                                      &map),
                TERRAGRID_ERROR_CONFIG, "config: unknown key 'bogus'");
    CHECK(map == NULL, "a failed create leaves *out_map NULL");
    CHECK(strstr(terragrid_last_error(), "config: 'height.octaves' must be between 1 and 16 (got 40)"),
          "every problem is told: %s", terragrid_last_error());
    CHECK(strstr(terragrid_last_error(), "'map.width' must be between 1 and 1048576 (got 0)"),
          "every problem is told: %s", terragrid_last_error());
    expectError(terragrid_map_create("{\"map\": ", NULL, 0, &map), TERRAGRID_ERROR_CONFIG,
                "config");
    expectError(terragrid_map_create(NULL, NULL, 0, NULL), TERRAGRID_ERROR_ARGUMENT, "out_map");
    expectError(terragrid_map_create(NULL, NULL, 1, &map), TERRAGRID_ERROR_ARGUMENT, "overrides");

    map = createMap("{\"map\": {\"width\": 64, \"height\": 32}}");
    CHECK(terragrid_last_error()[0] == '\0', "a call that succeeds clears the last error");
    for (i = 0; i < 64; ++i) cells[i] = other[i] = -7.0f;
    buffers[0] = cells;
    buffers[1] = other;
    window.col = 60;
    expectError(terragrid_map_generate(map, window, layers, buffers, 1, 0),
                TERRAGRID_ERROR_WINDOW, "reaches past the map's right edge");
    window.col = 0;
    window.height = 0;
    expectError(terragrid_map_generate(map, window, layers, buffers, 1, 0),
                TERRAGRID_ERROR_WINDOW, "at least 1 cell");
    window.height = 8;
    expectError(terragrid_map_generate(map, window, layers, buffers, 2, 0),
                TERRAGRID_ERROR_ARGUMENT, "'height' is given twice");
    layers[1] = TERRAGRID_LAYER_FLOW;
    expectError(terragrid_map_generate(map, window, layers, buffers, 2, 0), TERRAGRID_ERROR_LAYER,
                "layer 'flow' needs hydrology.enabled true (got false)");
    layers[1] = (terragrid_layer)42;
    expectError(terragrid_map_generate(map, window, layers, buffers, 2, 0),
                TERRAGRID_ERROR_ARGUMENT, "is not a layer (got 42)");
    expectError(terragrid_map_generate(map, window, layers, buffers, 1, -1),
                TERRAGRID_ERROR_ARGUMENT, "threads");
    buffers[0] = NULL;
    expectError(terragrid_map_generate(map, window, layers, buffers, 1, 0),
                TERRAGRID_ERROR_ARGUMENT, "buffers[0]");
    expectError(terragrid_map_generate(NULL, window, layers, buffers, 1, 0),
                TERRAGRID_ERROR_ARGUMENT, "map");
    for (i = 0; i < 64; ++i) CHECK(cells[i] == -7.0f && other[i] == -7.0f, "cell %zu written", i);
    CHECK(terragrid_map_has_layer(map, TERRAGRID_LAYER_HEIGHT) == 1, "height");
    CHECK(terragrid_map_has_layer(map, TERRAGRID_LAYER_WATER) == 0, "water without hydrology");
    CHECK(terragrid_map_has_layer(map, (terragrid_layer)99) == 0, "an unknown layer");
    CHECK(terragrid_layer_cell_bytes((terragrid_layer)-1) == 0, "an unknown layer's bytes");
    CHECK(terragrid_layer_name(TERRAGRID_LAYER_RIVER_ORDER) &&
              strcmp(terragrid_layer_name(TERRAGRID_LAYER_RIVER_ORDER), "order") == 0,
          "the river order layer's name");
    terragrid_map_free(map);
    terragrid_map_free(NULL);
}

/* The queries: size, resolved config, classes. */
static void queriesDescribeTheMap(void) {
    static const char* const overrides[] = {"map.height=40", "seed=3"};
    terragrid_map* map = NULL;
    int64_t width = 0, height = 0;
    size_t count = 0;
    const char* name = NULL;
    uint32_t rgb = 0;
    int walkable = -1;
    CHECK(terragrid_map_create("{\"map\": {\"width\": 70}} // a comment", overrides, 2, &map) ==
              TERRAGRID_OK,
          "%s", terragrid_last_error());
    CHECK(terragrid_map_size(map, &width, &height) == TERRAGRID_OK && width == 70 && height == 40,
          "size %lld x %lld", (long long)width, (long long)height);
    CHECK(strstr(terragrid_map_config_json(map), "\"seed\": 3") != NULL,
          "the resolved config has the override: %.200s", terragrid_map_config_json(map));
    CHECK(terragrid_map_class_count(map, &count) == TERRAGRID_OK && count == 5, "%zu classes",
          count);
    CHECK(terragrid_map_class_info(map, 0, &name, &rgb, &walkable) == TERRAGRID_OK &&
              strcmp(name, "lake") == 0 && rgb == 0x3a6ea5 && walkable == 0,
          "class 0 is %s #%06x walkable %d", name ? name : "?", (unsigned)rgb, walkable);
    expectError(terragrid_map_class_info(map, 5, &name, &rgb, &walkable),
                TERRAGRID_ERROR_ARGUMENT, "below 5 (got 5)");
    CHECK(strcmp(terragrid_version(), "") != 0, "a version");
    terragrid_map_free(map);
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: terragrid_c_test CLI SCRATCH_DIR\n");
        return 2;
    }
    cli = argv[1];
    scratch = argv[2];
    mkdir(scratch, 0777);
    TIFFSetWarningHandler(NULL);  /* GeoTIFF's tags are unknown to plain libtiff */
    windowsEqualTheWholeMapRun();
    farWindowEqualsTheRegionRun();
    waterLayersEqualTheRun();
    threadsShareOneMap();
    errorsAreNamedAndWriteNothing();
    queriesDescribeTheMap();
    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("terragrid_c_test: every check passed\n");
    return 0;
}
