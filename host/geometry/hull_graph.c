/* The vertex graph of a built hull (hull_graph.h). */
#include "host/geometry/hull_graph.h"

#include <math.h>

void cc_hull_graph_build(const cc_hull_data* h, cc_vec3 center, int* graph, float* radius)
{
    int n = h->vertex_count;
    int* seeds = graph;
    int* corner_first = graph + CC_HULL_SEEDS;
    int* corners = corner_first + n + 1;
    int base = (int)(corners - graph);
    /* Counting sort of the corners by vertex, counted in corners: counts,
     * then running starts (corner_first[v + 1] is v's fill cursor), and
     * last block offsets. */
    for (int v = 0; v <= n; ++v) corner_first[v] = 0;
    for (int i = 0; i < h->index_count; ++i) corner_first[h->indices[i] + 1]++;
    for (int v = 0; v < n; ++v) corner_first[v + 1] += corner_first[v];
    for (int v = n; v > 0; --v) corner_first[v] = corner_first[v - 1];
    for (int f = 0; f < h->face_count; ++f) {
        const cc_hull_face* face = &h->faces[f];
        const int* idx = h->indices + face->first;
        for (int k = 0; k < face->count; ++k) {
            int at = corner_first[idx[k] + 1]++;
            corners[at] = idx[(k + 1) % face->count];
            corners[at + h->index_count] = f;
        }
    }
    for (int v = 0; v <= n; ++v) corner_first[v] += base;
    /* Seeds: per bin the vertex farthest along the bin's centre direction
     * (ties to the lower index, so every build gives the same graph). */
    for (int face = 0; face < 6; ++face)
        for (int iu = 0; iu < CC_HULL_SEED_GRID; ++iu)
            for (int iv = 0; iv < CC_HULL_SEED_GRID; ++iv) {
                double major = (face & 1) ? -1.0 : 1.0;
                double u = -1.0 + (2.0 * iu + 1.0) / CC_HULL_SEED_GRID;
                double w = -1.0 + (2.0 * iv + 1.0) / CC_HULL_SEED_GRID;
                double d[3];
                int axis = face / 2;
                d[axis] = major;
                d[(axis + 1) % 3] = u;
                d[(axis + 2) % 3] = w;
                int best = 0;
                double best_h = -INFINITY;
                for (int v = 0; v < n; ++v) {
                    cc_vec3 p = h->vertices[v];
                    double t = d[0] * p.x + d[1] * p.y + d[2] * p.z;
                    if (t > best_h) {
                        best_h = t;
                        best = v;
                    }
                }
                seeds[(face * CC_HULL_SEED_GRID + iu) * CC_HULL_SEED_GRID + iv] = best;
            }
    double r2 = 0.0;
    for (int v = 0; v < n; ++v) {
        double x = (double)h->vertices[v].x - center.x, y = (double)h->vertices[v].y - center.y,
               z = (double)h->vertices[v].z - center.z;
        r2 = fmax(r2, x * x + y * y + z * z);
    }
    *radius = (float)sqrt(r2);
}
