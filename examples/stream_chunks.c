/* Streams terrain chunks around a moving point, as an engine plugin does for endless
 * procedural terrain: the chunks within a radius of the player are kept loaded, those that
 * come into range are generated into the plugin's own buffers through terragrid's C API, those
 * that leave it are dropped. A chunk is a pure function of the config and its cells, so a
 * chunk generated again later, or on another thread, is the same bits.
 *
 *   stream_chunks [--check] [CONFIG.json]
 *
 * --check also generates the whole region the walk covered in one call and checks that every
 * chunk equals its cells, bit for bit (exit 1 if not). Build it against the installed library:
 *   cc -std=c99 stream_chunks.c $(pkg-config --cflags --libs terragrid)
 * or with CMake: find_package(terragrid) and target_link_libraries(... terragrid::terragrid).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <terragrid/terragrid.h>

enum { kChunk = 64, kRadius = 2, kSide = 2 * kRadius + 1, kSteps = 24 };

/* One loaded chunk: its heights in metres and its terrain classes. */
typedef struct Chunk {
    int loaded;
    int64_t cx, cy; /* chunk coordinates: cells [cx * kChunk, (cx + 1) * kChunk) */
    float height[kChunk * kChunk];
    uint8_t classes[kChunk * kChunk];
} Chunk;

static Chunk slots[kSide * kSide];

static void fail(const char* what) {
    fprintf(stderr, "stream_chunks: %s: %s\n", what, terragrid_last_error());
    exit(1);
}

static Chunk* find(int64_t cx, int64_t cy) {
    int i;
    for (i = 0; i < kSide * kSide; ++i)
        if (slots[i].loaded && slots[i].cx == cx && slots[i].cy == cy) return &slots[i];
    return NULL;
}

static int inRange(const Chunk* c, int64_t pcx, int64_t pcy) {
    return llabs(c->cx - pcx) <= kRadius && llabs(c->cy - pcy) <= kRadius;
}

/* Generates chunk (cx, cy) into a free slot: both layers in one call. */
static void load(const terragrid_map* map, int64_t cx, int64_t cy, int64_t pcx, int64_t pcy) {
    const terragrid_layer layers[2] = {TERRAGRID_LAYER_HEIGHT, TERRAGRID_LAYER_CLASSES};
    terragrid_window window;
    void* buffers[2];
    Chunk* slot = NULL;
    int i;
    for (i = 0; i < kSide * kSide && !slot; ++i)
        if (!slots[i].loaded || !inRange(&slots[i], pcx, pcy)) slot = &slots[i];
    if (!slot) {
        fprintf(stderr, "stream_chunks: no free slot\n");
        exit(1);
    }
    window.col = cx * kChunk;
    window.row = cy * kChunk;
    window.width = kChunk;
    window.height = kChunk;
    buffers[0] = slot->height;
    buffers[1] = slot->classes;
    if (terragrid_map_generate(map, window, layers, buffers, 2, 0) != TERRAGRID_OK)
        fail("generating a chunk");
    slot->loaded = 1;
    slot->cx = cx;
    slot->cy = cy;
}

/* Whether every loaded chunk equals its cells of `region` (heights and classes generated for
 * the walk's whole bounding box in one call). */
static int chunksEqualRegion(const terragrid_window* region, const float* height,
                             const uint8_t* classes) {
    int i, r, same = 1;
    for (i = 0; i < kSide * kSide; ++i) {
        const Chunk* c = &slots[i];
        if (!c->loaded) continue;
        for (r = 0; r < kChunk; ++r) {
            const size_t at = (size_t)(c->cy * kChunk + r - region->row) * (size_t)region->width +
                              (size_t)(c->cx * kChunk - region->col);
            if (memcmp(c->height + r * kChunk, height + at, sizeof(float) * kChunk) != 0 ||
                memcmp(c->classes + r * kChunk, classes + at, kChunk) != 0)
                same = 0;
        }
    }
    return same;
}

static char* readFile(const char* path) {
    FILE* f = fopen(path, "rb");
    char* text;
    long size;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "stream_chunks: cannot read %s\n", path);
        exit(1);
    }
    text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "stream_chunks: cannot read %s\n", path);
        exit(1);
    }
    text[size] = '\0';
    fclose(f);
    return text;
}

int main(int argc, char** argv) {
    /* A world of 2^20 x 2^20 cells (31 km a side at 30 m); the walk starts in its middle. */
    static const char* const world[] = {"map.width=1048576", "map.height=1048576"};
    int check = 0, step, generated = 0, mismatches = 0;
    const char* configPath = NULL;
    char* config = NULL;
    terragrid_map* map = NULL;
    int64_t minCx = INT64_MAX, minCy = INT64_MAX, maxCx = INT64_MIN, maxCy = INT64_MIN;
    size_t classCount = 0, i;
    for (step = 1; step < argc; ++step) {
        if (strcmp(argv[step], "--check") == 0) check = 1;
        else configPath = argv[step];
    }
    if (configPath) config = readFile(configPath);
    if (terragrid_map_create(config, world, 2, &map) != TERRAGRID_OK) fail("the config");
    free(config);
    if (terragrid_map_class_count(map, &classCount) != TERRAGRID_OK) fail("the classes");
    printf("terragrid %s: chunks of %d x %d cells, radius %d; classes:", terragrid_version(),
           kChunk, kChunk, kRadius);
    for (i = 0; i < classCount; ++i) {
        const char* name;
        uint32_t rgb;
        int walkable;
        terragrid_map_class_info(map, i, &name, &rgb, &walkable);
        printf(" %s (#%06x%s)", name, (unsigned)rgb, walkable ? "" : ", blocked");
    }
    printf("\n");

    for (step = 0; step < kSteps; ++step) {
        /* The player walks east and a little south, 37 cells a step. */
        const int64_t px = 524288 + step * 37, py = 524288 + step * 13;
        const int64_t pcx = px / kChunk, pcy = py / kChunk;
        int64_t cx, cy;
        int loadedNow = 0;
        for (cy = pcy - kRadius; cy <= pcy + kRadius; ++cy)
            for (cx = pcx - kRadius; cx <= pcx + kRadius; ++cx)
                if (!find(cx, cy)) {
                    load(map, cx, cy, pcx, pcy);
                    ++loadedNow;
                    if (cx < minCx) minCx = cx;
                    if (cy < minCy) minCy = cy;
                    if (cx > maxCx) maxCx = cx;
                    if (cy > maxCy) maxCy = cy;
                }
        generated += loadedNow;
        if (loadedNow)
            printf("step %2d: player at cell %lld,%lld, %d chunks generated, height at the "
                   "player %.1f m\n",
                   step, (long long)px, (long long)py, loadedNow,
                   (double)find(pcx, pcy)->height[(py % kChunk) * kChunk + px % kChunk]);
        if (check) {
            /* The bounding box of every chunk loaded so far, in one call. */
            terragrid_window region;
            const terragrid_layer layers[2] = {TERRAGRID_LAYER_HEIGHT, TERRAGRID_LAYER_CLASSES};
            void* buffers[2];
            float* height;
            uint8_t* classes;
            region.col = minCx * kChunk;
            region.row = minCy * kChunk;
            region.width = (maxCx - minCx + 1) * kChunk;
            region.height = (maxCy - minCy + 1) * kChunk;
            height = malloc(sizeof(float) * (size_t)(region.width * region.height));
            classes = malloc((size_t)(region.width * region.height));
            if (!height || !classes) {
                fprintf(stderr, "stream_chunks: out of memory\n");
                return 1;
            }
            buffers[0] = height;
            buffers[1] = classes;
            if (terragrid_map_generate(map, region, layers, buffers, 2, 0) != TERRAGRID_OK)
                fail("generating the region");
            if (!chunksEqualRegion(&region, height, classes)) ++mismatches;
            free(height);
            free(classes);
        }
    }
    terragrid_map_free(map);
    printf("%d chunks generated over %d steps\n", generated, kSteps);
    if (check) {
        printf("check: %s\n", mismatches ? "a chunk differs from the region's cells"
                                         : "every chunk equals the region's cells, bit for bit");
        return mismatches ? 1 : 0;
    }
    return 0;
}
