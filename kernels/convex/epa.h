/* EPA (expanding polytope): the exact penetration depth of deeply
 * overlapping cores, where the separation function has several local optima
 * and MPR's ray can leave through the wrong side.
 *
 * Starts from MPR's last tetrahedron (its interior point and portal, which
 * enclose the origin) inside D = B - A, and repeatedly pushes out the face
 * nearest the origin to the support point along its normal, keeping the
 * polytope convex (faces the new point sees are replaced by a fan from the
 * horizon). The nearest face's distance is a lower bound on the depth and
 * the support distance along its normal an upper bound; it stops when they
 * meet within the tolerance or the fixed pools are full, or when the lower
 * bound reaches `claim` (a depth the caller has found a direction for: the
 * polytope then proves that no direction is shallower by more than the
 * difference). Vertices are the inflated supports of MPR, so the depth is
 * the inflated one. */
#ifndef CC_KERNELS_CONVEX_EPA_H
#define CC_KERNELS_CONVEX_EPA_H

#include "kernels/convex/mpr.h"

#define CC_EPA_MAX_VERTICES 40
#define CC_EPA_MAX_FACES 80
#define CC_EPA_MAX_EDGES 48

typedef struct cc_epa_face {
    unsigned char v[3]; /* counter-clockwise seen from outside */
    unsigned char alive;
    cc_vec3 n;          /* outward unit normal */
    float d;            /* distance of the plane from the origin */
} cc_epa_face;

#define CC_EPA_CANDIDATES 4

typedef struct cc_epa_result {
    int ok;
    int converged;  /* 1: the bounds met (exact) or the lower one reached the claim; 0: the pools filled first */
    cc_vec3 normal; /* unit contact normal A -> B */
    float depth;    /* of the inflated cores [m]; a lower bound when the pools filled up */
    int iterations;
    /* When the pools fill up before convergence, the best direction seen
     * and the CC_EPA_CANDIDATES nearest faces' normals (contact-normal
     * convention, nearest first) mark where the optimum can be; callers
     * refine from them. */
    int candidate_count;
    cc_vec3 candidate[CC_EPA_CANDIDATES + 1];
} cc_epa_result;

/* Sets the face's plane; returns 0 for a degenerate (needle) triangle.
 * The distance is the least of the corners' along the rounded normal:
 * for any unit n every point of the triangle lies at least that far along
 * n, so the nearest face's d bounds the origin's distance to the polytope
 * from below however thin the triangle (a sliver's rounded normal can be
 * far enough off for one corner's height to overstate it). */
CC_HD int cc_epa_plane(cc_epa_face* f, const cc_vec3* w)
{
    cc_vec3 n = cc_v3_cross(cc_v3_sub(w[f->v[1]], w[f->v[0]]), cc_v3_sub(w[f->v[2]], w[f->v[0]]));
    float len = cc_v3_length(n);
    if (!(len > 0.0f)) return 0;
    f->n = cc_v3_scale(n, 1.0f / len);
    f->d = cc_minf(cc_v3_dot(f->n, w[f->v[0]]), cc_minf(cc_v3_dot(f->n, w[f->v[1]]), cc_v3_dot(f->n, w[f->v[2]])));
    return 1;
}

CC_HD_CALL void cc_epa(const cc_convex* a, const cc_convex* b, float inflate, float tolerance, float claim,
                       const cc_vec3* tetra, cc_epa_result* r)
{
    cc_vec3 w[CC_EPA_MAX_VERTICES];
    cc_epa_face f[CC_EPA_MAX_FACES];
    int nv = 4, nf = 4;
    r->ok = 0;
    r->converged = 0;
    r->iterations = 0;
    for (int i = 0; i < 4; ++i) w[i] = tetra[i];
    const unsigned char init[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (int i = 0; i < 4; ++i) {
        f[i].v[0] = init[i][0];
        f[i].v[1] = init[i][1];
        f[i].v[2] = init[i][2];
        f[i].alive = 1;
        if (!cc_epa_plane(&f[i], w)) return;
    }
    /* Orient outward: the opposite vertex must be behind every face. */
    if (cc_v3_dot(f[0].n, cc_v3_sub(w[3], w[0])) > 0.0f) {
        for (int i = 0; i < 4; ++i) {
            unsigned char t = f[i].v[1];
            f[i].v[1] = f[i].v[2];
            f[i].v[2] = t;
            cc_epa_plane(&f[i], w);
        }
    }
    int best = 0;
    /* The direction whose support came nearest: the best separating
     * direction seen (the upper bound), a start for callers when the pools
     * fill before the bounds meet. */
    float upper = 3.0e38f;
    cc_vec3 upper_n = cc_v3(0.0f, 0.0f, 0.0f);
    for (int it = 0; it < 64; ++it) {
        r->iterations = it + 1;
        best = -1;
        float nearest = 0.0f; /* f[best].d, kept apart: the scan then waits on no load */
        for (int i = 0; i < nf; ++i)
            if (f[i].alive && (best < 0 || f[i].d < nearest)) {
                best = i;
                nearest = f[i].d;
            }
        if (best < 0) return;
        if (f[best].d >= claim) {
            r->converged = 1;
            break;
        }
        cc_vec3 p = cc_mpr_support(a, b, f[best].n, inflate).w;
        float height = cc_v3_dot(p, f[best].n);
        if (height < upper) {
            upper = height;
            upper_n = f[best].n;
        }
        if (height - f[best].d <= tolerance) {
            r->converged = 1;
            break;
        }
        if (nv == CC_EPA_MAX_VERTICES) break;
        /* Faces the new point sees go; their unshared edges form the
         * horizon. Checked before anything changes, so that a full pool
         * leaves the polytope as it was. */
        unsigned char seen[CC_EPA_MAX_FACES];
        unsigned char edge[CC_EPA_MAX_EDGES][2];
        int ns = 0, ne = 0, overflow = 0, live = 0;
        for (int i = 0; i < nf; ++i) {
            if (!f[i].alive) continue;
            live++;
            if (cc_v3_dot(f[i].n, cc_v3_sub(p, w[f[i].v[0]])) <= 0.0f) continue;
            seen[ns++] = (unsigned char)i;
            for (int e = 0; e < 3; ++e) {
                unsigned char i0 = f[i].v[e], i1 = f[i].v[(e + 1) % 3];
                int twin = -1;
                for (int k = 0; k < ne; ++k)
                    if (edge[k][0] == i1 && edge[k][1] == i0) twin = k;
                if (twin >= 0) {
                    edge[twin][0] = edge[ne - 1][0];
                    edge[twin][1] = edge[ne - 1][1];
                    ne--;
                } else if (ne < CC_EPA_MAX_EDGES) {
                    edge[ne][0] = i0;
                    edge[ne][1] = i1;
                    ne++;
                } else {
                    overflow = 1;
                }
            }
        }
        if (overflow || ns == 0 || live - ns + ne > CC_EPA_MAX_FACES) break;
        for (int k = 0; k < ns; ++k) f[seen[k]].alive = 0;
        int vi = nv++;
        w[vi] = p;
        int slot = 0;
        for (int k = 0; k < ne; ++k) {
            while (slot < nf && f[slot].alive) slot++;
            int idx = slot < nf ? slot : nf++;
            f[idx].v[0] = edge[k][0];
            f[idx].v[1] = edge[k][1];
            f[idx].v[2] = (unsigned char)vi;
            f[idx].alive = (unsigned char)cc_epa_plane(&f[idx], w);
            if (idx == slot) slot++;
        }
    }
    if (best < 0) return;
    r->ok = 1;
    r->normal = cc_v3_neg(f[best].n);
    r->depth = f[best].d;
    /* The nearest few live faces, by insertion into a short sorted list. */
    float dist[CC_EPA_CANDIDATES];
    r->candidate_count = 0;
    for (int i = 0; i < nf; ++i) {
        if (!f[i].alive) continue;
        int k = r->candidate_count < CC_EPA_CANDIDATES ? r->candidate_count++ : CC_EPA_CANDIDATES;
        while (k > 0 && dist[k - 1] > f[i].d) {
            if (k < CC_EPA_CANDIDATES) {
                dist[k] = dist[k - 1];
                r->candidate[k] = r->candidate[k - 1];
            }
            k--;
        }
        if (k < CC_EPA_CANDIDATES) {
            dist[k] = f[i].d;
            r->candidate[k] = cc_v3_neg(f[i].n);
        }
    }
    if (!r->converged && upper < 3.0e38f) {
        /* The upper bound's direction first: the nearest faces of a
         * polytope stopped short can all lie beside the optimum. */
        for (int k = r->candidate_count; k > 0; --k) r->candidate[k] = r->candidate[k - 1];
        r->candidate[0] = cc_v3_neg(upper_n);
        r->candidate_count++;
    }
}

#endif
