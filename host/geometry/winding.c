/* Generalised winding numbers; see winding.h. */
#include "host/geometry/winding.h"

#include <math.h>
#include <string.h>

#include "host/geometry/bvh_build.h"
#include "host/geometry/vec3d.h"

/* Solid angle of triangle (a, b, c) seen from p, signed by its winding
 * (positive for a counter-clockwise triangle seen from outside, p
 * behind it), by the formula of Van Oosterom and Strackee. */
static double solid_angle(cc_vec3 p, cc_vec3 a, cc_vec3 b, cc_vec3 c)
{
    d3 x = d3_sub(d3_of(a), d3_of(p)), y = d3_sub(d3_of(b), d3_of(p)), z = d3_sub(d3_of(c), d3_of(p));
    double lx = d3_length(x), ly = d3_length(y), lz = d3_length(z);
    double num = d3_dot(x, d3_cross(y, z));
    double den = lx * ly * lz + d3_dot(x, y) * lz + d3_dot(x, z) * ly + d3_dot(y, z) * lx;
    return 2.0 * atan2(num, den);
}

double cc_winding_number_exact(const cc_vec3* vertices, const int* triangles, int triangle_count, cc_vec3 p)
{
    double sum = 0.0;
    for (int t = 0; t < triangle_count; ++t) {
        const int* tri = triangles + 3 * t;
        sum += solid_angle(p, vertices[tri[0]], vertices[tri[1]], vertices[tri[2]]);
    }
    return sum / (4.0 * 3.14159265358979323846);
}

void cc_winding_tree_free(cc_winding_tree* t)
{
    cc_host_free(t->nodes);
    cc_host_free(t->prims);
    cc_host_free(t->centre);
    cc_host_free(t->normal);
    cc_host_free(t->radius);
    memset(t, 0, sizeof *t);
}

/* Fills node n's dipole from its subtree (children first); returns its area. */
static double fill_node(cc_winding_tree* t, int n)
{
    const cc_bvh_node* node = &t->nodes[n];
    d3 weighted = d3_make(0.0, 0.0, 0.0), normal = d3_make(0.0, 0.0, 0.0);
    double area = 0.0;
    if (node->count) {
        for (int s = node->first; s < node->first + node->count; ++s) {
            const int* tri = t->triangles + 3 * t->prims[s];
            d3 a = d3_of(t->vertices[tri[0]]), b = d3_of(t->vertices[tri[1]]), c = d3_of(t->vertices[tri[2]]);
            d3 n2 = d3_cross(d3_sub(b, a), d3_sub(c, a));
            double ar = 0.5 * d3_length(n2);
            normal = d3_add(normal, d3_scale(n2, 0.5));
            weighted = d3_add(weighted, d3_scale(d3_add(a, d3_add(b, c)), ar / 3.0));
            area += ar;
        }
    } else {
        for (int k = 0; k < 2; ++k) {
            int child = node->first + k;
            double ar = fill_node(t, child);
            normal = d3_add(normal, d3_of(t->normal[child]));
            weighted = d3_add(weighted, d3_scale(d3_of(t->centre[child]), ar));
            area += ar;
        }
    }
    d3 centre = area > 0.0 ? d3_scale(weighted, 1.0 / area)
                           : d3_scale(d3_add(d3_of(node->lower), d3_of(node->upper)), 0.5);
    t->centre[n] = cc_v3((float)centre.x, (float)centre.y, (float)centre.z);
    t->normal[n] = cc_v3((float)normal.x, (float)normal.y, (float)normal.z);
    /* The box's farthest corner bounds every triangle corner's distance. */
    double r = 0.0;
    for (int k = 0; k < 8; ++k) {
        d3 corner = d3_make((k & 1) ? node->upper.x : node->lower.x, (k & 2) ? node->upper.y : node->lower.y,
                            (k & 4) ? node->upper.z : node->lower.z);
        r = fmax(r, d3_length(d3_sub(corner, centre)));
    }
    t->radius[n] = (float)r;
    return area;
}

cc_status cc_winding_tree_build(const cc_vec3* vertices, const int* triangles, int triangle_count,
                                cc_winding_tree* out)
{
    memset(out, 0, sizeof *out);
    out->vertices = vertices;
    out->triangles = triangles;
    cc_status s = cc_mesh_bvh_build(vertices, triangles, triangle_count, &out->nodes, &out->node_count, &out->prims);
    if (s != CC_OK) return s;
    out->centre = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)out->node_count);
    out->normal = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)out->node_count);
    out->radius = (float*)cc_host_alloc(sizeof(float) * (size_t)out->node_count);
    if (!out->centre || !out->normal || !out->radius) {
        cc_winding_tree_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory for the winding-number tree of %d triangles", triangle_count);
    }
    fill_node(out, 0);
    return CC_OK;
}

float cc_winding_number(const cc_winding_tree* t, cc_vec3 p)
{
    double sum = 0.0;
    int stack[CC_BVH_MAX_DEPTH + 1], top = 0;
    stack[top++] = 0;
    while (top) {
        int n = stack[--top];
        const cc_bvh_node* node = &t->nodes[n];
        d3 r = d3_sub(d3_of(t->centre[n]), d3_of(p));
        double dist = d3_length(r);
        if (dist > CC_WINDING_FAR * t->radius[n]) {
            /* The dipole: the solid angle of a small patch of area vector A at r is A . r / |r|^3. */
            sum += d3_dot(d3_of(t->normal[n]), r) / (dist * dist * dist);
            continue;
        }
        if (node->count) {
            for (int s = node->first; s < node->first + node->count; ++s) {
                const int* tri = t->triangles + 3 * t->prims[s];
                sum += solid_angle(p, t->vertices[tri[0]], t->vertices[tri[1]], t->vertices[tri[2]]);
            }
            continue;
        }
        stack[top++] = node->first;
        stack[top++] = node->first + 1;
    }
    return (float)(sum / (4.0 * 3.14159265358979323846));
}
