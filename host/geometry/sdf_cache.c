/* The on-disk SDF cache; see sdf_cache.h.
 *
 * File layout (little-endian as written by this machine, which the magic
 * and the key's byte order check): the magic "ccSDF\0v1", the 16-byte
 * key, the desc, the brick, stored-brick and coarse counts and the
 * quantisation error, then the brick table, the codes and the coarse
 * corners, then a 64-bit checksum of everything before it. */
#define _POSIX_C_SOURCE 200809L /* getpid, rename */
#include "host/geometry/sdf_cache.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char magic[8] = {'c', 'c', 'S', 'D', 'F', 0, 'v', '1'};
/* Changes whenever the build or the format gives other bytes. */
#define CC_SDF_CACHE_VERSION 2u

/* Two 64-bit multiply-xorshift streams with different constants, fed eight
 * bytes at a time (a cache hit hashes the mesh and checks megabytes of
 * codes, so bytes one by one would cost more than reading them): a 128-bit
 * name. */
typedef struct hasher {
    uint64_t a, b;
} hasher;

static void hash_word(hasher* h, uint64_t w)
{
    h->a = (h->a ^ w) * 0x100000001b3ull;
    h->a ^= h->a >> 32;
    h->b = (h->b ^ w) * 0x9e3779b97f4a7c15ull;
    h->b ^= h->b >> 29;
}

static void hash_bytes(hasher* h, const void* data, size_t n)
{
    const unsigned char* p = (const unsigned char*)data;
    size_t whole = n / 8 * 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        hash_word(h, w);
    }
    uint64_t tail = 0;
    memcpy(&tail, p + whole, n - whole);
    hash_word(h, tail ^ ((uint64_t)(n - whole) << 56));
}

static hasher hasher_make(void)
{
    hasher h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    return h;
}

cc_sdf_cache_key cc_sdf_cache_key_of(const cc_vec3* vertices, int vertex_count, const int* triangles,
                                     int triangle_count, const cc_sdf_def* def)
{
    hasher h = hasher_make();
    unsigned version = CC_SDF_CACHE_VERSION;
    hash_bytes(&h, &version, sizeof version);
    hash_bytes(&h, &vertex_count, sizeof vertex_count);
    hash_bytes(&h, vertices, sizeof(cc_vec3) * (size_t)vertex_count);
    hash_bytes(&h, &triangle_count, sizeof triangle_count);
    hash_bytes(&h, triangles, sizeof(int) * 3 * (size_t)triangle_count);
    /* Every build parameter but shape_margin (applied when sampled) and
     * the edge options (the edges are not in the file). */
    hash_bytes(&h, &def->max_resolution, sizeof def->max_resolution);
    hash_bytes(&h, &def->target_voxel_size, sizeof def->target_voxel_size);
    hash_bytes(&h, &def->narrow_band_inner, sizeof def->narrow_band_inner);
    hash_bytes(&h, &def->narrow_band_outer, sizeof def->narrow_band_outer);
    hash_bytes(&h, &def->margin, sizeof def->margin);
    hash_bytes(&h, &def->scale, sizeof def->scale);
    cc_sdf_cache_key k = {{h.a, h.b}};
    return k;
}

char* cc_sdf_cache_path(const char* dir, cc_sdf_cache_key key)
{
    size_t n = strlen(dir) + 64;
    char* path = (char*)cc_host_alloc(n);
    if (path)
        snprintf(path, n, "%s/cucontact-sdf-%016llx%016llx.bin", dir, (unsigned long long)key.h[0],
                 (unsigned long long)key.h[1]);
    return path;
}

typedef struct header {
    char magic[8];
    cc_sdf_cache_key key;
    cc_sdf_desc desc;
    int32_t brick_count, stored, coarse_count;
    float quantization_error;
} header;

static uint64_t checksum(const header* hd, const cc_sdf_data* d)
{
    hasher h = hasher_make();
    hash_bytes(&h, hd, sizeof *hd);
    hash_bytes(&h, d->table, sizeof(int) * (size_t)d->brick_count);
    hash_bytes(&h, d->codes, sizeof(unsigned short) * (size_t)d->stored * CC_SDF_BRICK_SAMPLES);
    hash_bytes(&h, d->coarse, sizeof(float) * (size_t)d->coarse_count);
    return h.a ^ (h.b * 0x9e3779b97f4a7c15ull);
}

static void header_of(cc_sdf_cache_key key, const cc_sdf_data* d, header* hd)
{
    memset(hd, 0, sizeof *hd);
    memcpy(hd->magic, magic, sizeof magic);
    hd->key = key;
    hd->desc = d->desc;
    hd->brick_count = d->brick_count;
    hd->stored = d->stored;
    hd->coarse_count = d->coarse_count;
    hd->quantization_error = d->quantization_error;
}

int cc_sdf_cache_load(const char* dir, cc_sdf_cache_key key, cc_sdf_data* out)
{
    char* path = cc_sdf_cache_path(dir, key);
    if (!path) return 0;
    FILE* f = fopen(path, "rb");
    if (!f) {
        if (errno != ENOENT)
            cc_log(CC_LOG_WARNING, "SDF cache: cannot read '%s' (%s); building the SDF", path, strerror(errno));
        cc_host_free(path);
        return 0;
    }
    header hd;
    memset(out, 0, sizeof *out);
    int ok = fread(&hd, sizeof hd, 1, f) == 1 && !memcmp(hd.magic, magic, sizeof magic) &&
             hd.key.h[0] == key.h[0] && hd.key.h[1] == key.h[1] && hd.brick_count > 0 && hd.stored >= 0 &&
             hd.coarse_count > 0 && hd.stored <= hd.brick_count &&
             (int64_t)hd.brick_count == (int64_t)(hd.desc.nx / CC_SDF_BRICK) * (hd.desc.ny / CC_SDF_BRICK) *
                                            (hd.desc.nz / CC_SDF_BRICK);
    if (ok) {
        size_t codes = (size_t)hd.stored * CC_SDF_BRICK_SAMPLES;
        out->table = (int*)cc_host_alloc(sizeof(int) * (size_t)hd.brick_count);
        out->codes = (unsigned short*)cc_host_alloc(sizeof(unsigned short) * (codes ? codes : 1));
        out->coarse = (float*)cc_host_alloc(sizeof(float) * (size_t)hd.coarse_count);
        out->brick_count = hd.brick_count;
        out->stored = hd.stored;
        out->coarse_count = hd.coarse_count;
        uint64_t sum = 0;
        ok = out->table && out->codes && out->coarse &&
             fread(out->table, sizeof(int), (size_t)hd.brick_count, f) == (size_t)hd.brick_count &&
             fread(out->codes, sizeof(unsigned short), codes, f) == codes &&
             fread(out->coarse, sizeof(float), (size_t)hd.coarse_count, f) == (size_t)hd.coarse_count &&
             fread(&sum, sizeof sum, 1, f) == 1 && fgetc(f) == EOF && sum == checksum(&hd, out);
        for (int b = 0; ok && b < hd.brick_count; ++b)
            ok = out->table[b] == CC_SDF_OUTSIDE || out->table[b] == CC_SDF_INSIDE ||
                 (out->table[b] >= 0 && out->table[b] < hd.stored);
    }
    fclose(f);
    if (!ok) {
        cc_log(CC_LOG_WARNING, "SDF cache: '%s' is truncated, corrupt or from another build; building the SDF again and replacing it", path);
        cc_sdf_data_free(out);
        cc_host_free(path);
        return 0;
    }
    out->desc = hd.desc;
    out->quantization_error = hd.quantization_error;
    cc_host_free(path);
    return 1;
}

void cc_sdf_cache_store(const char* dir, cc_sdf_cache_key key, const cc_sdf_data* data)
{
    char* path = cc_sdf_cache_path(dir, key);
    size_t n = path ? strlen(path) + 32 : 0;
    char* temp = path ? (char*)cc_host_alloc(n) : NULL;
    if (!path || !temp) {
        cc_host_free(path);
        return;
    }
    snprintf(temp, n, "%s.%ld.tmp", path, (long)getpid());
    header hd;
    header_of(key, data, &hd);
    uint64_t sum = checksum(&hd, data);
    FILE* f = fopen(temp, "wb");
    size_t codes = (size_t)data->stored * CC_SDF_BRICK_SAMPLES;
    int ok = f && fwrite(&hd, sizeof hd, 1, f) == 1 &&
             fwrite(data->table, sizeof(int), (size_t)data->brick_count, f) == (size_t)data->brick_count &&
             fwrite(data->codes, sizeof(unsigned short), codes, f) == codes &&
             fwrite(data->coarse, sizeof(float), (size_t)data->coarse_count, f) == (size_t)data->coarse_count &&
             fwrite(&sum, sizeof sum, 1, f) == 1;
    if (f && fclose(f) != 0) ok = 0;
    if (ok && rename(temp, path) != 0) ok = 0;
    if (!ok) {
        cc_log(CC_LOG_WARNING, "SDF cache: cannot write '%s' (%s); the SDF is built but not cached", path, strerror(errno));
        remove(temp);
    }
    cc_host_free(temp);
    cc_host_free(path);
}
