/* Default buffer sizes.
 *
 * The estimate needs no poses: it bounds how crowded a world can get. In a
 * pile, solids fill about PILE_DENSITY of space, so the shapes of a world
 * whose centres can lie within reach of a shape number at most that density
 * times the region's volume over their mean solid volume (and never more
 * than the world holds). Boxes grown by margin and gap overlap when centres
 * are within the summed reaches per axis (a cube: candidate pairs); surfaces
 * come within their gaps when centres are within the summed reaches (a ball:
 * contacts). Each shape also meets a few static shapes (ground, walls).
 * Per pair the estimate counts what the pair's types produce: resting
 * contacts, and for surface pairs the mid phase's work items (every vertex
 * chunk of a mesh against another surface or a plane, the triangles a
 * convex shape's box covers) and one reduction block. The estimate never
 * falls below a fixed per-shape floor that covers moving scenes, and never
 * exceeds what the pairs that can exist allow. */
#include "host/runtime/capacity.h"

#include <math.h>

#include "kernels/narrowphase/convex.h"

/* Fraction of space solids fill in a resting pile (random close packing of
 * spheres), and the slack on top for boxes, which turning shapes grow and
 * shrink. */
#define PILE_DENSITY 0.64
#define NEIGHBOUR_SLACK 1.5
/* Static shapes one shape meets at most: the floor and two walls of a bin
 * corner when its gap is small against its size, up to the floor, walls
 * and lid of a box-shaped bin, which a gap as wide as the shape reaches all
 * at once. */
#define STATIC_NEIGHBOURS 3
#define STATIC_NEIGHBOURS_WIDE_GAP 6
/* Floors for moving scenes: touching neighbours of a shape in a pile, and
 * candidate pairs per dynamic shape (touching neighbours plus those within
 * margin + gap). */
#define NEIGHBOURS_AT_REST 8
#define CANDIDATES_PER_SHAPE 16
/* Lower bound on every buffer, so that small scenes never start tight. */
#define MIN_CAPACITY 256
/* Mesh and heightfield pairs: the triangles a resting shape's reach covers
 * (its footprint over the mean triangle of its world's surfaces, with this
 * much slack), and the reduced contacts of its patch (at most 12 per normal
 * bin; a resting patch mostly fills one bin). Unreduced, a patch keeps every
 * triangle's points. */
#define TRIANGLE_SLACK 3.0
#define MIN_TRIANGLES_PER_SHAPE 16
#define REDUCED_CONTACTS_PER_PATCH 12
#define UNREDUCED_CONTACTS_PER_PATCH 96
#define MIN_MESH_ITEMS 1024
/* A solid's volume never counts below this fraction of its bounding box's,
 * so that open or flat surfaces do not make a world look infinitely
 * crowded. */
#define MIN_VOLUME_FRACTION 0.05

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
    /* With SDFs a mesh's edges are features too (mesh/sdf_contacts.h), and
     * a mesh with an SDF also walks the grid nodes of heightfields under
     * it, about as many chunks again. */
    const cc_mesh_desc* d = &v->meshes[v->shape_source[s]];
    int64_t features = d->vertex_count + (v->sdfs_count ? d->edge_count : 0);
    int grids = v->shape_sdf[s] >= 0 && v->hfields_count > 0;
    return (features + CC_MESH_FEATURE_CHUNK - 1) / CC_MESH_FEATURE_CHUNK * (grids ? 2 : 1);
}

/* Per mesh: mean triangle area [m^2] and enclosed volume [m^3], unscaled
 * (the volume 0 for an open mesh). */
typedef struct mesh_measure {
    double triangle_area, volume;
    double radius; /* of the farthest vertex from the origin */
} mesh_measure;

static mesh_measure* measure_meshes(const cc_model_view* v)
{
    mesh_measure* out = (mesh_measure*)cc_host_calloc((size_t)v->meshes_count + 1, sizeof(mesh_measure));
    for (int i = 0; out && i < v->meshes_count; ++i) {
        const cc_mesh_desc* d = &v->meshes[i];
        double area = 0.0, volume = 0.0;
        for (int t = 0; t < d->triangle_count; ++t) {
            const cc_mesh_triangle* tri = &v->mesh_triangles[d->triangle_first + t];
            cc_vec3 a = v->mesh_vertices[tri->v[0]], b = v->mesh_vertices[tri->v[1]], c = v->mesh_vertices[tri->v[2]];
            double e1[3] = {(double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z};
            double e2[3] = {(double)c.x - a.x, (double)c.y - a.y, (double)c.z - a.z};
            double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
            area += 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            volume += ((double)a.x * n[0] + (double)a.y * n[1] + (double)a.z * n[2]) / 6.0;
        }
        double r2 = 0.0;
        for (int k = 0; k < d->vertex_count; ++k) {
            cc_vec3 p = v->mesh_vertices[d->vertex_first + k];
            r2 = fmax(r2, (double)p.x * p.x + (double)p.y * p.y + (double)p.z * p.z);
        }
        out[i].radius = sqrt(r2);
        out[i].triangle_area = d->triangle_count ? area / d->triangle_count : 0.0;
        out[i].volume = d->watertight ? fabs(volume) : 0.0;
    }
    return out;
}

/* Mean triangle area of surface shape s in the world [m^2]. */
static double surface_triangle_area(const cc_model_view* v, int s, const mesh_measure* mesh)
{
    cc_vec3 k = v->shape_geom[s].size;
    if (v->shape_geom[s].type == CC_SHAPE_MESH)
        return mesh[v->shape_source[s]].triangle_area * ((double)k.x * k.y + (double)k.y * k.z + (double)k.z * k.x) / 3.0;
    const cc_hfield_desc* h = &v->hfields[v->shape_source[s]];
    return 2.0 * k.x / (h->cols - 1) * 2.0 * k.y / (h->rows - 1) / 2.0;
}

/* Area of surface a resting shape covers with triangles to test [m^2]:
 * a face for flat-sided shapes, the ring the detection gap reaches around
 * a rounded shape's touching point. `radius` excludes margin and gap. */
static double resting_footprint(const cc_model_view* v, int s, double radius)
{
    const cc_shape_geometry* g = &v->shape_geom[s];
    double gap = 2.0 * ((double)g->margin + g->gap) + 1.0e-3;
    switch (g->type) {
    case CC_SHAPE_SPHERE:
    case CC_SHAPE_CAPSULE:
    case CC_SHAPE_ELLIPSOID:
        return 3.14159265 * (2.0 * radius * gap + gap * gap) + (g->type == CC_SHAPE_CAPSULE ? 2.0 * g->size.y * gap : 0.0);
    default: return 4.0 * radius * radius / 3.0 + 4.0 * radius * gap; /* a cube face of that half diagonal, plus its rim */
    }
}

/* Half extents of the box around a shape in its own frame, about its
 * origin [m] (a hull's and a mesh's from their point bounds). */
static cc_vec3 local_half_extents(const cc_model_view* v, int s)
{
    const cc_shape_geometry* g = &v->shape_geom[s];
    cc_vec3 k = g->size;
    switch (g->type) {
    case CC_SHAPE_SPHERE: return cc_v3(k.x, k.x, k.x);
    case CC_SHAPE_CAPSULE: return cc_v3(k.x, k.x, k.x + k.y);
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: return cc_v3(k.x, k.x, k.y);
    case CC_SHAPE_CONVEX_HULL:
    case CC_SHAPE_MESH: {
        cc_vec3 lo, hi;
        if (g->type == CC_SHAPE_MESH) lo = v->meshes[v->shape_source[s]].lower, hi = v->meshes[v->shape_source[s]].upper;
        else lo = v->hulls[v->shape_source[s]].lower, hi = v->hulls[v->shape_source[s]].upper;
        return cc_v3(fmaxf(fabsf(lo.x), fabsf(hi.x)) * k.x, fmaxf(fabsf(lo.y), fabsf(hi.y)) * k.y,
                     fmaxf(fabsf(lo.z), fabsf(hi.z)) * k.z);
    }
    default: return k; /* box, ellipsoid, heightfield */
    }
}

/* Radius of the ball about the shape's origin that holds it, margin and
 * gap excluded [m]. */
static double shape_radius(const cc_model_view* v, int s, const mesh_measure* mesh)
{
    cc_vec3 h = local_half_extents(v, s), k = v->shape_geom[s].size;
    switch (v->shape_geom[s].type) {
    case CC_SHAPE_SPHERE: return h.x;
    case CC_SHAPE_CAPSULE: return h.z;
    case CC_SHAPE_ELLIPSOID: return fmax(h.x, fmax(h.y, h.z));
    case CC_SHAPE_MESH: return mesh[v->shape_source[s]].radius * fmax(k.x, fmax(k.y, k.z));
    default: return sqrt((double)h.x * h.x + (double)h.y * h.y + (double)h.z * h.z);
    }
}

/* Half extent of the shape's world box along one axis, averaged over
 * rotations, margin and gap excluded [m]. A box of half extents h turned at
 * random spans sum_k h_k |R_jk| along axis j, and |R_jk| averages 1/2. */
static double mean_box_half_extent(const cc_model_view* v, int s)
{
    cc_vec3 h = local_half_extents(v, s), k = v->shape_geom[s].size;
    switch (v->shape_geom[s].type) {
    case CC_SHAPE_SPHERE: return k.x;
    case CC_SHAPE_CAPSULE: return k.x + 0.5 * k.y;
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: return 0.785 * k.x + 0.5 * k.y; /* r sqrt(1 - c^2) + h |c| over random axes */
    case CC_SHAPE_ELLIPSOID: return sqrt(((double)k.x * k.x + (double)k.y * k.y + (double)k.z * k.z) / 3.0);
    default: return 0.5 * ((double)h.x + h.y + h.z);
    }
}

/* Volume of the solid [m^3], never below MIN_VOLUME_FRACTION of its box. */
static double solid_volume(const cc_model_view* v, int s, const mesh_measure* mesh)
{
    const cc_shape_geometry* g = &v->shape_geom[s];
    cc_vec3 k = g->size, h = local_half_extents(v, s);
    double box = 8.0 * h.x * h.y * h.z, pi = 3.14159265;
    double solid;
    switch (g->type) {
    case CC_SHAPE_SPHERE: solid = 4.0 / 3.0 * pi * k.x * k.x * k.x; break;
    case CC_SHAPE_CAPSULE: solid = pi * k.x * k.x * (2.0 * k.y + 4.0 / 3.0 * k.x); break;
    case CC_SHAPE_CYLINDER: solid = 2.0 * pi * k.x * k.x * k.y; break;
    case CC_SHAPE_CONE: solid = 2.0 / 3.0 * pi * k.x * k.x * k.y; break;
    case CC_SHAPE_ELLIPSOID: solid = 4.0 / 3.0 * pi * k.x * k.y * k.z; break;
    case CC_SHAPE_MESH: solid = mesh[v->shape_source[s]].volume * k.x * k.y * k.z; break;
    case CC_SHAPE_CONVEX_HULL: {
        const cc_hull_desc* d = &v->hulls[v->shape_source[s]];
        /* A convex solid fills at least a sixth of its bounds; take half. */
        solid = 0.5 * (d->upper.x - d->lower.x) * k.x * (d->upper.y - d->lower.y) * k.y * (d->upper.z - d->lower.z) * k.z;
        break;
    }
    default: solid = box; break;
    }
    return fmax(solid, MIN_VOLUME_FRACTION * box);
}

/* What one world holds (index W: the global shapes, which every world
 * meets). */
typedef struct world_stats {
    int dynamic;          /* colliding dynamic shapes */
    int dynamic_surfaces; /* of which meshes */
    double extent_sum;    /* of their mean box half extents */
    double gap_sum;       /* of their margins + gaps */
    double volume_sum;    /* of their solid volumes */
    int planes, static_convex, static_surfaces;
    double surface_area_sum; /* of the mean triangle areas of its surfaces */
    int surfaces;            /* surfaces with triangles of nonzero area */
    int64_t most_triangles;  /* of one surface */
} world_stats;

/* Shapes of world w whose centres can lie near a shape's centre in a pile,
 * given the world's mean volume and mean box half extent (which is also the
 * mean half width of a convex solid, the radius it packs with): within the
 * summed half extents per axis (a cube: boxes overlap, candidate pairs) or
 * as a distance (a ball: surfaces within their gaps). `own` is the shape's
 * half extent; `with_gaps` adds every shape's margin and gap to it. */
static double crowd(const world_stats* w, double own, int ball, int with_gaps)
{
    if (w->dynamic <= 1) return 0.0;
    double r = own + (w->extent_sum + (with_gaps ? w->gap_sum : 0.0)) / w->dynamic;
    double region = (ball ? 4.0 / 3.0 * 3.14159265 : 8.0) * r * r * r;
    double n = (ball ? 1.0 : NEIGHBOUR_SLACK) * PILE_DENSITY * region / (w->volume_sum / w->dynamic);
    return n < w->dynamic - 1 ? n : w->dynamic - 1;
}

/* Neighbours within a shape's gap: those touching at rest, and those the
 * gaps bring within reach beyond them. */
static double within_gap(const world_stats* w, double extent, double gap)
{
    double n = NEIGHBOURS_AT_REST + crowd(w, extent + gap, 1, 1) - crowd(w, extent, 1, 0);
    return n < w->dynamic - 1 ? n : w->dynamic - 1;
}

static int64_t surface_triangles(const cc_model_view* v, int s)
{
    if (v->shape_geom[s].type == CC_SHAPE_MESH) return v->meshes[v->shape_source[s]].triangle_count;
    const cc_hfield_desc* h = &v->hfields[v->shape_source[s]];
    return 2 * (int64_t)(h->rows - 1) * (h->cols - 1);
}

static void gather_world_stats(const cc_model_view* v, const mesh_measure* mesh, world_stats* stats)
{
    int W = v->world_count;
    for (int s = 0; s < v->shape_count; ++s) {
        unsigned f = v->shape_flags[s];
        if (!(f & CC_SHAPE_FLAG_COLLIDES)) continue;
        world_stats* w = &stats[v->shape_world[s] < 0 ? W : v->shape_world[s]];
        int type = v->shape_geom[s].type;
        int surface = type >= CC_SHAPE_MESH;
        if (surface) {
            double a = surface_triangle_area(v, s, mesh);
            if (a > 0.0) w->surface_area_sum += a, w->surfaces++;
            int64_t n = surface_triangles(v, s);
            if (n > w->most_triangles) w->most_triangles = n;
        }
        if (f & CC_SHAPE_FLAG_STATIC) {
            if (type == CC_SHAPE_PLANE) w->planes++;
            else if (surface) w->static_surfaces++;
            else w->static_convex++;
            continue;
        }
        const cc_shape_geometry* g = &v->shape_geom[s];
        w->dynamic++;
        w->dynamic_surfaces += surface;
        w->extent_sum += mean_box_half_extent(v, s);
        w->gap_sum += g->margin + g->gap;
        w->volume_sum += solid_volume(v, s, mesh);
    }
}

/* World w's view with the global shapes added: those are static (or
 * shared) geometry every world meets. */
static world_stats seen_from(const world_stats* stats, int W, int w)
{
    world_stats g = stats[W];
    if (w < 0) return g;
    world_stats x = stats[w];
    x.dynamic += g.dynamic;
    x.dynamic_surfaces += g.dynamic_surfaces;
    x.extent_sum += g.extent_sum;
    x.gap_sum += g.gap_sum;
    x.volume_sum += g.volume_sum;
    x.planes += g.planes;
    x.static_convex += g.static_convex;
    x.static_surfaces += g.static_surfaces;
    x.surface_area_sum += g.surface_area_sum;
    x.surfaces += g.surfaces;
    if (g.most_triangles > x.most_triangles) x.most_triangles = g.most_triangles;
    return x;
}

static double at_most(double x, double cap) { return x < cap ? x : cap; }

cc_capacity_estimate cc_estimate_capacity(const cc_model* m, int64_t possible_pairs, int reduce)
{
    const cc_model_view* v = &m->host_view;
    int W = v->world_count;
    world_stats* stats = (world_stats*)cc_host_calloc((size_t)W + 1, sizeof(world_stats));
    mesh_measure* mesh = measure_meshes(v);
    int ok = stats && mesh;
    if (ok) gather_world_stats(v, mesh, stats);
    double pairs = 0.0, contacts = 0.0, items = 0.0, blocks = 0.0;
    int patch_contacts = reduce ? REDUCED_CONTACTS_PER_PATCH : UNREDUCED_CONTACTS_PER_PATCH;
    for (int s = 0; s < v->shape_count && ok; ++s) {
        unsigned f = v->shape_flags[s];
        if (!(f & CC_SHAPE_FLAG_COLLIDES) || (f & CC_SHAPE_FLAG_STATIC)) continue;
        world_stats w = seen_from(stats, W, v->shape_world[s]);
        const cc_shape_geometry* g = &v->shape_geom[s];
        int type = g->type, is_surface = type >= CC_SHAPE_MESH;
        double radius = shape_radius(v, s, mesh);
        double extent = mean_box_half_extent(v, s), gap = g->margin + g->gap;
        int c = resting_contacts(type);
        /* Dynamic neighbours, and the share of them that are surfaces. */
        double boxed = crowd(&w, extent + gap, 0, 1), near = within_gap(&w, extent, gap);
        double surface_share = w.dynamic > 1 ? (double)(w.dynamic_surfaces - is_surface) / (w.dynamic - 1) : 0.0;
        int statics = w.planes + w.static_convex + w.static_surfaces;
        /* How wide the gap is against the shape: 0 (touching only) to 1. */
        double wide = at_most(gap / (radius + 1e-9), 1.0);
        double reached = STATIC_NEIGHBOURS + (STATIC_NEIGHBOURS_WIDE_GAP - STATIC_NEIGHBOURS) * wide;
        double touched = 1.0 + (STATIC_NEIGHBOURS_WIDE_GAP - 1.0) * wide;
        double static_near = at_most(statics, reached);
        /* Each dynamic pair is counted by both its shapes, half each. */
        pairs += fmax(CANDIDATES_PER_SHAPE, 0.5 * boxed + static_near);
        contacts += c * (0.5 * near * (1.0 - surface_share) + at_most(w.planes + w.static_convex, touched));
        /* Surface pairs the shape is in, and their patches. */
        double surface_pairs, touching_surfaces;
        if (type == CC_SHAPE_MESH) {
            /* Its vertex chunks against every plane and surface it meets
             * (the other mesh's chunks count on that mesh's side), and its
             * triangles under the boxes of the static shapes it meets. */
            double surfaces_met = surface_share * boxed + at_most(w.planes + w.static_surfaces, reached);
            /* A static box meets the triangles in a slab of the mesh as deep
             * as both gaps (taken equal) and a quarter of the mesh. */
            double slab = at_most(0.25 + 2.0 * (g->margin + g->gap) / (2.0 * radius + 1e-9), 1.0);
            items += (double)vertex_chunks(v, s) * surfaces_met +
                     slab * (double)surface_triangles(v, s) * at_most(w.static_convex, reached);
            surface_pairs = 0.5 * surface_share * boxed + at_most(statics, reached);
            touching_surfaces = 0.5 * surface_share * near + at_most(statics, touched);
        } else {
            /* The triangles under its box on every surface it meets: its
             * footprint over the mean triangle, at most the largest surface. */
            double surfaces_met = surface_share * boxed + at_most(w.static_surfaces, reached);
            double area = w.surfaces ? w.surface_area_sum / w.surfaces : 0.0;
            double tris = area > 0.0 ? TRIANGLE_SLACK * resting_footprint(v, s, radius) / area : MIN_TRIANGLES_PER_SHAPE;
            if (w.most_triangles > 0) tris = at_most(tris, (double)w.most_triangles);
            items += fmax(tris, MIN_TRIANGLES_PER_SHAPE) * surfaces_met;
            surface_pairs = surfaces_met;
            touching_surfaces = surface_share * near + at_most(w.static_surfaces, touched);
        }
        blocks += surface_pairs;
        /* A wide gap spreads a patch over more normal bins. */
        contacts += patch_contacts * (1.0 + wide) * touching_surfaces;
    }
    cc_host_free(stats);
    cc_host_free(mesh);
    if (!ok) {
        /* Out of host memory for the estimate: the floors, per shape. */
        pairs = (double)CANDIDATES_PER_SHAPE * v->shape_count;
        contacts = (double)NEIGHBOURS_AT_REST * v->shape_count;
        items = blocks = 0.0;
    }
    cc_capacity_estimate e;
    int64_t limit = (int64_t)1 << 40; /* the callers clamp to their own limits */
    e.pairs = (int64_t)at_most(ceil(pairs), (double)limit);
    e.contacts = (int64_t)at_most(ceil(contacts), (double)limit);
    e.mesh_items = (int64_t)at_most(ceil(items), (double)limit);
    e.mesh_blocks = (int64_t)at_most(ceil(blocks), (double)limit);
    if (e.mesh_items > 0 && e.mesh_items < MIN_MESH_ITEMS) e.mesh_items = MIN_MESH_ITEMS;
    if (e.mesh_blocks > 0 && e.mesh_blocks < MIN_CAPACITY) e.mesh_blocks = MIN_CAPACITY;
    if (e.pairs > possible_pairs) e.pairs = possible_pairs;
    /* A reduced surface pair keeps at most 240 contacts, others at most 5. */
    int64_t bound = possible_pairs * (e.mesh_items ? 240 : 5);
    if (e.contacts > bound) e.contacts = bound;
    if (e.pairs < MIN_CAPACITY) e.pairs = MIN_CAPACITY;
    if (e.contacts < MIN_CAPACITY) e.contacts = MIN_CAPACITY;
    return e;
}
