/* Default buffer sizes.
 *
 * A shape at rest in a pile touches a handful of neighbours; each touching
 * pair yields the contacts its types produce at rest (1 for spheres, 2 for a
 * capsule lying down, 4 for a box face). The estimate gives every dynamic
 * shape NEIGHBOURS_AT_REST / 2 such pairs (each pair is shared by two
 * shapes) plus one resting contact patch with static geometry when the
 * world has any, and never more than the pairs that can exist allow. */
#include "host/runtime/capacity.h"

#include <math.h>

#include "kernels/narrowphase/convex.h"

/* Typical number of touching neighbours of a shape in a resting pile. */
#define NEIGHBOURS_AT_REST 8
/* Candidate pairs per dynamic shape: touching neighbours plus those within
 * margin + gap. */
#define CANDIDATES_PER_SHAPE 16
/* Lower bound on every buffer, so that small scenes never start tight. */
#define MIN_CAPACITY 256
/* Mesh and heightfield pairs: the triangles a resting shape's reach covers
 * (its footprint over the mean triangle of its world's surfaces, with this
 * much slack), and the reduced contacts of its patch (at most 12 per normal bin;
 * a resting patch mostly fills one bin). Unreduced, a patch keeps every
 * triangle's points. */
#define TRIANGLE_SLACK 3.0
#define MIN_TRIANGLES_PER_SHAPE 16
#define REDUCED_CONTACTS_PER_PATCH 12
#define UNREDUCED_CONTACTS_PER_PATCH 96
#define MIN_MESH_ITEMS 1024

int cc_max_contacts_per_pair(int ta, int tb)
{
    int lo = ta < tb ? ta : tb, hi = ta < tb ? tb : ta;
    if (lo < 0 || !cc_type_is_convex(hi)) return CC_MANIFOLD_MAX_POINTS;
    return cc_convex_max_points(lo, hi);
}

/* Contacts a resting pair of a shape of this type typically has. */
static int resting_contacts(int type)
{
    switch (type) {
    case CC_SHAPE_SPHERE:
    case CC_SHAPE_ELLIPSOID: return 1;
    case CC_SHAPE_CAPSULE: return 2;
    default: return 4; /* a face: box, cylinder, cone, hull */
    }
}

static int64_t vertex_chunks(const cc_model_view* v, int s)
{
    return (v->meshes[v->shape_source[s]].vertex_count + 15) / 16;
}

/* Mean triangle area of each mesh, unscaled [m^2]. */
static double* mean_triangle_areas(const cc_model_view* v)
{
    double* area = (double*)cc_host_calloc((size_t)v->meshes_count + 1, sizeof(double));
    for (int i = 0; area && i < v->meshes_count; ++i) {
        const cc_mesh_desc* d = &v->meshes[i];
        double sum = 0.0;
        for (int t = 0; t < d->triangle_count; ++t) {
            const cc_mesh_triangle* tri = &v->mesh_triangles[d->triangle_first + t];
            cc_vec3 a = v->mesh_vertices[tri->v[0]], b = v->mesh_vertices[tri->v[1]], c = v->mesh_vertices[tri->v[2]];
            double e1[3] = {(double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z};
            double e2[3] = {(double)c.x - a.x, (double)c.y - a.y, (double)c.z - a.z};
            double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
            sum += 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        }
        area[i] = d->triangle_count ? sum / d->triangle_count : 0.0;
    }
    return area;
}

/* Mean triangle area of surface shape s in the world [m^2]. */
static double surface_triangle_area(const cc_model_view* v, int s, const double* mesh_area)
{
    cc_vec3 k = v->shape_geom[s].size;
    if (v->shape_geom[s].type == CC_SHAPE_MESH)
        return mesh_area[v->shape_source[s]] * ((double)k.x * k.y + (double)k.y * k.z + (double)k.z * k.x) / 3.0;
    const cc_hfield_desc* h = &v->hfields[v->shape_source[s]];
    return 2.0 * k.x / (h->cols - 1) * 2.0 * k.y / (h->rows - 1) / 2.0;
}

/* Area of surface a resting shape covers with triangles to test [m^2]:
 * a face for flat-sided shapes, the ring the detection gap reaches around
 * a rounded shape's touching point. */
static double resting_footprint(const cc_model_view* v, int s, double reach)
{
    const cc_shape_geometry* g = &v->shape_geom[s];
    double gap = 2.0 * ((double)g->margin + g->gap) + 1.0e-3;
    double e = reach - g->margin - g->gap;
    switch (g->type) {
    case CC_SHAPE_SPHERE:
    case CC_SHAPE_CAPSULE:
    case CC_SHAPE_ELLIPSOID: return 3.14159265 * (2.0 * e * gap + gap * gap) + (g->type == CC_SHAPE_CAPSULE ? 2.0 * g->size.y * gap : 0.0);
    default: return 4.0 * e * e / 3.0 + 4.0 * e * gap; /* a cube face of that half diagonal, plus its rim */
    }
}

/* Half the largest dimension of a shape, margin and gap included [m]. */
static double shape_reach(const cc_model_view* v, int s)
{
    const cc_shape_geometry* g = &v->shape_geom[s];
    cc_vec3 k = g->size;
    double e;
    switch (g->type) {
    case CC_SHAPE_SPHERE: e = k.x; break;
    case CC_SHAPE_CAPSULE: e = (double)k.x + k.y; break;
    case CC_SHAPE_ELLIPSOID: e = fmax(k.x, fmax(k.y, k.z)); break;
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: e = sqrt((double)k.x * k.x + (double)k.y * k.y); break;
    case CC_SHAPE_CONVEX_HULL: {
        const cc_hull_desc* h = &v->hulls[v->shape_source[s]];
        cc_vec3 d = {(h->upper.x - h->lower.x) * k.x, (h->upper.y - h->lower.y) * k.y, (h->upper.z - h->lower.z) * k.z};
        e = 0.5 * sqrt((double)d.x * d.x + (double)d.y * d.y + (double)d.z * d.z);
        break;
    }
    default: e = sqrt((double)k.x * k.x + (double)k.y * k.y + (double)k.z * k.z); break;
    }
    return e + g->margin + g->gap;
}

cc_capacity_estimate cc_estimate_capacity(const cc_model* m, int64_t possible_pairs, int reduce)
{
    const cc_model_view* v = &m->host_view;
    int W = v->world_count;
    /* Per world (index W: the globals): bit 1 static geometry, bit 2 a
     * mesh or heightfield. */
    char* world_has = (char*)cc_host_calloc((size_t)W + 1, 1);
    /* Per world: how many surfaces it has, the mean over them of their
     * mean triangle area (summed here, divided below), and the most
     * triangles one has. */
    double* mean_area = (double*)cc_host_calloc((size_t)W + 1, sizeof(double));
    int* surfaces = (int*)cc_host_calloc((size_t)W + 1, sizeof(int));
    int64_t* most = (int64_t*)cc_host_calloc((size_t)W + 1, sizeof(int64_t));
    double* mesh_area = mean_triangle_areas(v);
    int ok = world_has && mean_area && most && mesh_area && surfaces;
    for (int s = 0; s < v->shape_count && ok; ++s) {
        if (!(v->shape_flags[s] & CC_SHAPE_FLAG_COLLIDES)) continue;
        int w = v->shape_world[s] < 0 ? W : v->shape_world[s];
        if (v->shape_flags[s] & CC_SHAPE_FLAG_STATIC) world_has[w] |= 1;
        int type = v->shape_geom[s].type;
        if (type < CC_SHAPE_MESH) continue;
        world_has[w] |= 2;
        double a = surface_triangle_area(v, s, mesh_area);
        if (a > 0.0) mean_area[w] += a, surfaces[w]++;
        int64_t n = type == CC_SHAPE_MESH ? v->meshes[v->shape_source[s]].triangle_count
                                          : 2 * (int64_t)(v->hfields[v->shape_source[s]].rows - 1) * (v->hfields[v->shape_source[s]].cols - 1);
        if (n > most[w]) most[w] = n;
    }
    for (int w = 0; ok && w <= W; ++w)
        if (surfaces[w]) mean_area[w] /= surfaces[w];
    int64_t pairs = 0, contacts = 0, items = 0, blocks = 0;
    for (int s = 0; s < v->shape_count; ++s) {
        unsigned f = v->shape_flags[s];
        if (!(f & CC_SHAPE_FLAG_COLLIDES) || (f & CC_SHAPE_FLAG_STATIC)) continue;
        int type = v->shape_geom[s].type;
        int c = resting_contacts(type);
        int w = v->shape_world[s];
        int has = ok ? world_has[W] | (w >= 0 ? world_has[w] : 0) : 1;
        /* Surfaces the shape may touch: its world's and the global ones. */
        int near_surfaces = ok ? surfaces[W] + (w >= 0 ? surfaces[w] : 0) : 3;
        pairs += CANDIDATES_PER_SHAPE;
        contacts += (int64_t)c * NEIGHBOURS_AT_REST / 2 + ((has & 1) ? c : 0);
        if (type == CC_SHAPE_MESH) {
            /* Its vertices against a plane or another mesh, both ways. */
            items += 2 * vertex_chunks(v, s);
            /* Against the ground, and against up to two other surfaces. */
            int others = near_surfaces - 1;
            blocks += 1 + (others < 2 ? others : 2);
            contacts += reduce ? REDUCED_CONTACTS_PER_PATCH : UNREDUCED_CONTACTS_PER_PATCH;
        }
        if ((has & 2) && type != CC_SHAPE_MESH) {
            /* The triangles under the shape's reach on the mean surface it
             * may meet. A reduced surface pair for each surface it may
             * touch, up to two (a shape across a seam, or on a mesh lying
             * on the ground): a block is 1.9 KiB, and a pair without one is
             * written unreduced. */
            double area = 0.0;
            int64_t cap = 0;
            if (ok) {
                area = mean_area[W];
                if (w >= 0 && mean_area[w] > 0.0 && (area == 0.0 || mean_area[w] < area)) area = mean_area[w];
                cap = most[W] > (w >= 0 ? most[w] : 0) ? most[W] : most[w];
            }
            double tris = area > 0.0 ? TRIANGLE_SLACK * resting_footprint(v, s, shape_reach(v, s)) / area
                                     : MIN_TRIANGLES_PER_SHAPE;
            if (cap > 0 && tris > (double)cap) tris = (double)cap;
            items += tris < MIN_TRIANGLES_PER_SHAPE ? MIN_TRIANGLES_PER_SHAPE : (int64_t)tris;
            blocks += near_surfaces < 2 ? 1 : 2;
            contacts += reduce ? REDUCED_CONTACTS_PER_PATCH : UNREDUCED_CONTACTS_PER_PATCH;
        }
    }
    cc_host_free(world_has);
    cc_host_free(mean_area);
    cc_host_free(surfaces);
    cc_host_free(most);
    cc_host_free(mesh_area);
    cc_capacity_estimate e;
    e.mesh_items = items > 0 && items < MIN_MESH_ITEMS ? MIN_MESH_ITEMS : items;
    e.mesh_blocks = blocks > 0 && blocks < MIN_CAPACITY ? MIN_CAPACITY : blocks;
    e.pairs = pairs < possible_pairs ? pairs : possible_pairs;
    /* A reduced surface pair keeps at most 240 contacts, others at most 5. */
    int64_t bound = possible_pairs * (items ? 240 : 5);
    e.contacts = contacts < bound ? contacts : bound;
    if (e.pairs < MIN_CAPACITY) e.pairs = MIN_CAPACITY;
    if (e.contacts < MIN_CAPACITY) e.contacts = MIN_CAPACITY;
    return e;
}
