/* EPA (expanding polytope): the exact penetration depth of deeply
 * overlapping cores, where the separation function has several local optima
 * and MPR's ray can leave through the wrong side.
 *
 * Starts from a tetrahedron inside D = B - A that encloses the origin
 * (MPR's interior point and last portal, or GJK's last simplex, whose
 * points of D lie inside the inflated D too), and repeatedly pushes out the face
 * nearest the origin to the support point along its normal, keeping the
 * polytope convex (the faces the new point sees, found by walking from the
 * nearest face to its neighbours, are replaced by a fan from the horizon).
 * The nearest face's distance is a lower bound on the depth and the support
 * distance along its normal an upper bound; it stops when they meet within
 * the tolerance or the fixed pools are full, or when the lower bound
 * reaches `claim` (a depth the caller has found a direction for: the
 * polytope then proves that no direction is shallower by more than the
 * difference). New vertices are supports of the cores inflated by
 * `inflate`, as MPR's are, so the depth is the inflated one. The polytope
 * lives in a state the caller keeps (cc_epa_begin, cc_epa_run): a run
 * stopped at a coarse tolerance can be run on to a finer one, as if it had
 * never stopped. */
#ifndef CC_KERNELS_CONVEX_EPA_H
#define CC_KERNELS_CONVEX_EPA_H

#include "kernels/convex/mpr.h"

/* Two round shapes deep in each other take 40 to 60 vertices to meet the
 * tolerance that certifies a climb (convex/query.h); with 40, two in three
 * deep ellipsoid pairs filled the pools and climbed from every start. */
#define CC_EPA_MAX_VERTICES 64
#define CC_EPA_MAX_FACES 128 /* a closed polytope of V vertices has 2V - 4 */
#define CC_EPA_MAX_HORIZON 48
#define CC_EPA_FAR 3.0e38f  /* the distance of a dead or needle face: never the nearest */

/* Faces keep their neighbours, so that the faces a new point sees are
 * found from the nearest one outwards (it sees them all, and they are
 * connected) instead of by testing every face. */
typedef struct cc_epa_face {
    cc_vec3 n;              /* outward unit normal */
    unsigned char v[3];     /* counter-clockwise seen from outside */
    unsigned char adj[3];   /* the face across edge e, from v[e] to v[e + 1] */
    unsigned char seen;     /* the iteration that last found it visible */
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
     * refine from them (cc_epa_candidates fills them; a run leaves none). */
    int candidate_count;
    cc_vec3 candidate[CC_EPA_CANDIDATES + 1];
} cc_epa_result;

/* Sets the face's plane and returns its distance from the origin, or
 * CC_EPA_FAR for a needle (no normal). The distance is the least of the
 * corners' along the rounded normal: for any unit n every point of the
 * triangle lies at least that far along n, so the nearest face's distance
 * bounds the origin's distance to the polytope from below however thin the
 * triangle (a sliver's rounded normal can be far enough off for one
 * corner's height to overstate it). */
CC_HD float cc_epa_plane(cc_epa_face* f, const cc_vec3* w)
{
    cc_vec3 n = cc_v3_cross(cc_v3_sub(w[f->v[1]], w[f->v[0]]), cc_v3_sub(w[f->v[2]], w[f->v[0]]));
    float len = cc_v3_length(n);
    if (!(len > 0.0f)) {
        f->n = cc_v3(0.0f, 0.0f, 0.0f);
        return CC_EPA_FAR;
    }
    f->n = cc_v3_scale(n, 1.0f / len);
    return cc_minf(cc_v3_dot(f->n, w[f->v[0]]), cc_minf(cc_v3_dot(f->n, w[f->v[1]]), cc_v3_dot(f->n, w[f->v[2]])));
}

/* The edge of face f that runs from vertex i1 to i0 (the twin of an edge
 * i0 -> i1 of its neighbour); 3 when none does. */
CC_HD int cc_epa_twin(const cc_epa_face* f, unsigned char i0, unsigned char i1)
{
    for (int e = 0; e < 3; ++e)
        if (f->v[e] == i1 && f->v[e == 2 ? 0 : e + 1] == i0) return e;
    return 3;
}

/* EPA's polytope, kept between runs: a caller can stop it at a coarse
 * tolerance, use the direction, and later run it on to a finer one (or to
 * a claim) without starting over. */
typedef struct cc_epa_state {
    cc_vec3 w[CC_EPA_MAX_VERTICES];
    cc_epa_face f[CC_EPA_MAX_FACES];
    /* Each face's distance from the origin, apart from the faces: the
     * nearest-face scan reads nothing else. */
    float dist[CC_EPA_MAX_FACES];
    unsigned char free_slot[CC_EPA_MAX_FACES];
    int nv, nf, nfree;
    int iterations; /* over all runs: also the mark of faces seen */
    int stuck;      /* the polytope cannot grow (pools full, a tangle, no start) */
    /* The direction whose support came nearest: the best separating
     * direction seen (the upper bound), a start for callers when the pools
     * fill before the bounds meet. */
    float upper;
    cc_vec3 upper_n;
    /* The support a run stopped on (converged, so the polytope did not
     * grow), and its face: the next run expands there without evaluating
     * it again (-1: none). */
    int pending;
    cc_vec3 pending_p;
} cc_epa_state;

/* The tetrahedron's faces, each outward, and their neighbours; stuck when
 * a face has no normal. */
CC_HD_CALL void cc_epa_begin(cc_epa_state* s, const cc_vec3* tetra)
{
    s->nv = 4;
    s->nf = 4;
    s->nfree = 0;
    s->iterations = 0;
    s->stuck = 0;
    s->upper = 3.0e38f;
    s->upper_n = cc_v3(0.0f, 0.0f, 0.0f);
    s->pending = -1;
    for (int i = 0; i < 4; ++i) s->w[i] = tetra[i];
    /* The tetrahedron's faces and, across each edge, the face sharing it. */
    const unsigned char init[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    const unsigned char init_adj[4][3] = {{1, 3, 2}, {2, 3, 0}, {0, 3, 1}, {1, 2, 0}};
    const cc_vec3* w = s->w;
    int flip = cc_v3_dot(cc_v3_cross(cc_v3_sub(w[1], w[0]), cc_v3_sub(w[2], w[0])), cc_v3_sub(w[3], w[0])) > 0.0f;
    for (int i = 0; i < 4; ++i) {
        /* Outward: the opposite vertex behind every face. Reversed
         * (corners 1 and 2 swapped), edges 0 and 2 trade places, and so do
         * the faces across them. */
        cc_epa_face* f = &s->f[i];
        f->v[0] = init[i][0];
        f->v[1] = init[i][flip ? 2 : 1];
        f->v[2] = init[i][flip ? 1 : 2];
        f->adj[0] = init_adj[i][flip ? 2 : 0];
        f->adj[1] = init_adj[i][1];
        f->adj[2] = init_adj[i][flip ? 0 : 2];
        f->seen = 0;
        s->dist[i] = cc_epa_plane(f, w);
        if (!(s->dist[i] < CC_EPA_FAR)) s->stuck = 1;
    }
}

/* Expands the polytope until the bounds meet within `tolerance`, the
 * lower one reaches `claim`, or it cannot grow; r describes it then (not
 * ok when it never had a nearest face). */
CC_HD_CALL void cc_epa_run(const cc_convex* a, const cc_convex* b, float inflate, float tolerance, float claim,
                           cc_epa_state* s, cc_epa_result* r)
{
    cc_vec3* w = s->w;
    cc_epa_face* f = s->f;
    float* dist = s->dist;
    unsigned char* free_slot = s->free_slot;
    int nv = s->nv, nf = s->nf, nfree = s->nfree;
    r->ok = 0;
    r->converged = 0;
    r->iterations = 0;
    if (s->stuck && s->iterations == 0) return;
    int best = 0;
    float best_dist = 0.0f;
    cc_vec3 best_n = f[0].n;
    for (;;) {
        best = 0;
        float nearest = dist[0];
        for (int i = 1; i < nf; ++i)
            if (dist[i] < nearest) {
                best = i;
                nearest = dist[i];
            }
        if (!(nearest < CC_EPA_FAR)) {
            s->stuck = 1;
            return;
        }
        best_dist = nearest;
        best_n = f[best].n;
        if (nearest >= claim) {
            r->converged = 1;
            break;
        }
        if (s->stuck) break;
        cc_vec3 p;
        if (s->pending == best) {
            p = s->pending_p;
        } else {
            if (s->iterations == 64) break;
            s->iterations++;
            r->iterations++;
            /* The normal is a unit vector: the inflated support without a length. */
            p = cc_v3_madd(cc_simplex_support(a, b, cc_v3(0.0f, 0.0f, 0.0f), f[best].n).w, f[best].n, inflate);
        }
        s->pending = -1;
        float height = cc_v3_dot(p, f[best].n);
        if (height < s->upper) {
            s->upper = height;
            s->upper_n = f[best].n;
        }
        if (height - nearest <= tolerance) {
            r->converged = 1;
            s->pending = best;
            s->pending_p = p;
            break;
        }
        if (nv == CC_EPA_MAX_VERTICES) {
            s->stuck = 1;
            break;
        }
        /* The faces p sees, found by walking from the nearest one across
         * the edges of each; the edges to faces it does not see form the
         * horizon, in order around it. Nothing changes until the horizon
         * is known to close, so that a full pool or a rounding tangle
         * leaves the polytope as it was. A needle face, without a normal,
         * goes with the faces seen. The nearest face sees p unless it is a
         * sliver whose first corner stands above p: the polytope cannot
         * grow there, and EPA stops. */
        if (!(cc_v3_dot(f[best].n, cc_v3_sub(p, w[f[best].v[0]])) > 0.0f)) {
            s->stuck = 1;
            break;
        }
        unsigned char mark = (unsigned char)s->iterations;
        unsigned char seen[CC_EPA_MAX_FACES];
        unsigned char stack_face[CC_EPA_MAX_FACES], stack_edge[CC_EPA_MAX_FACES], stack_left[CC_EPA_MAX_FACES];
        unsigned char horizon_face[CC_EPA_MAX_HORIZON], horizon_edge[CC_EPA_MAX_HORIZON];
        int ns = 0, nh = 0, ok = 1;
        seen[ns++] = (unsigned char)best;
        f[best].seen = mark;
        stack_face[0] = (unsigned char)best; /* all three of its edges, from edge 0 */
        stack_edge[0] = 0;
        stack_left[0] = 3;
        int sp = 1;
        while (sp > 0 && ok) {
            int top = sp - 1;
            if (stack_left[top] == 0) {
                sp--;
                continue;
            }
            int from = stack_face[top], e = stack_edge[top];
            stack_edge[top] = (unsigned char)(e == 2 ? 0 : e + 1);
            stack_left[top]--;
            int g = f[from].adj[e];
            if (f[g].seen == mark) continue;
            int back = cc_epa_twin(&f[g], f[from].v[e], f[from].v[e == 2 ? 0 : e + 1]);
            if (back == 3) {
                ok = 0;
                break;
            }
            int sees = !(dist[g] < CC_EPA_FAR) || cc_v3_dot(f[g].n, cc_v3_sub(p, w[f[g].v[0]])) > 0.0f;
            if (sees) {
                f[g].seen = mark;
                seen[ns++] = (unsigned char)g;
                stack_face[sp] = (unsigned char)g;
                stack_edge[sp] = (unsigned char)(back == 2 ? 0 : back + 1);
                stack_left[sp] = 2;
                sp++;
            } else if (nh < CC_EPA_MAX_HORIZON) {
                horizon_face[nh] = (unsigned char)g;
                horizon_edge[nh] = (unsigned char)back;
                nh++;
            } else {
                ok = 0;
            }
        }
        /* The horizon must close into one loop: each edge's end the next
         * one's start (the twin edge runs end -> start in the face beyond). */
        for (int k = 0; ok && k < nh; ++k) {
            const cc_epa_face* h = &f[horizon_face[k]];
            const cc_epa_face* n = &f[horizon_face[k + 1 == nh ? 0 : k + 1]];
            int e = horizon_edge[k], e2 = horizon_edge[k + 1 == nh ? 0 : k + 1];
            if (h->v[e] != n->v[e2 == 2 ? 0 : e2 + 1]) ok = 0;
        }
        if (!ok || nh < 3) {
            for (int k = 0; k < ns; ++k) f[seen[k]].seen = 0;
            s->stuck = 1;
            break;
        }
        /* The fan's nh faces take the freed slots first. */
        int fresh = nh - nfree - ns;
        if (fresh > 0 && nf + fresh > CC_EPA_MAX_FACES) {
            for (int k = 0; k < ns; ++k) f[seen[k]].seen = 0;
            s->stuck = 1;
            break;
        }
        for (int k = 0; k < ns; ++k) {
            dist[seen[k]] = CC_EPA_FAR;
            free_slot[nfree++] = seen[k];
        }
        int vi = nv++;
        w[vi] = p;
        /* The fan: face k on horizon edge k (start -> end, as the face it
         * replaces had it) and the new point; its neighbours are the face
         * beyond the edge and the fans before and after. */
        unsigned char slot[CC_EPA_MAX_HORIZON];
        for (int k = 0; k < nh && k < CC_EPA_MAX_HORIZON; ++k) slot[k] = nfree > 0 ? free_slot[--nfree] : (unsigned char)nf++;
        for (int k = 0; k < nh; ++k) {
            cc_epa_face* h = &f[horizon_face[k]];
            int e = horizon_edge[k];
            cc_epa_face* t = &f[slot[k]];
            t->v[0] = h->v[e == 2 ? 0 : e + 1];
            t->v[1] = h->v[e];
            t->v[2] = (unsigned char)vi;
            t->adj[0] = horizon_face[k];
            t->adj[1] = slot[k + 1 == nh ? 0 : k + 1];
            t->adj[2] = slot[k == 0 ? nh - 1 : k - 1];
            t->seen = 0;
            h->adj[e] = slot[k];
            dist[slot[k]] = cc_epa_plane(t, w);
        }
    }
    s->nv = nv;
    s->nf = nf;
    s->nfree = nfree;
    r->ok = 1;
    r->normal = cc_v3_neg(best_n);
    r->depth = best_dist;
    r->candidate_count = 0;
}

/* Fills r's candidates from the polytope r describes (callers that refine
 * from them ask; most answers never need them): the nearest few live
 * faces, by insertion into a short sorted list, after the upper bound's
 * direction when the run stopped short. */
CC_HD void cc_epa_candidates(const cc_epa_state* s, cc_epa_result* r)
{
    const float* dist = s->dist;
    const cc_epa_face* f = s->f;
    float near_dist[CC_EPA_CANDIDATES];
    r->candidate_count = 0;
    for (int i = 0; i < s->nf; ++i) {
        if (!(dist[i] < CC_EPA_FAR)) continue;
        int k = r->candidate_count < CC_EPA_CANDIDATES ? r->candidate_count++ : CC_EPA_CANDIDATES;
        while (k > 0 && near_dist[k - 1] > dist[i]) {
            if (k < CC_EPA_CANDIDATES) {
                near_dist[k] = near_dist[k - 1];
                r->candidate[k] = r->candidate[k - 1];
            }
            k--;
        }
        if (k < CC_EPA_CANDIDATES) {
            near_dist[k] = dist[i];
            r->candidate[k] = cc_v3_neg(f[i].n);
        }
    }
    if (!r->converged && s->upper < 3.0e38f) {
        /* The upper bound's direction first: the nearest faces of a
         * polytope stopped short can all lie beside the optimum. */
        for (int k = r->candidate_count; k > 0; --k) r->candidate[k] = r->candidate[k - 1];
        r->candidate[0] = cc_v3_neg(s->upper_n);
        r->candidate_count++;
    }
}

/* EPA from a tetrahedron, in one run. */
CC_HD_CALL void cc_epa(const cc_convex* a, const cc_convex* b, float inflate, float tolerance, float claim,
                       const cc_vec3* tetra, cc_epa_result* r)
{
    cc_epa_state s;
    cc_epa_begin(&s, tetra);
    cc_epa_run(a, b, inflate, tolerance, claim, &s, r);
    if (r->ok) cc_epa_candidates(&s, r);
}

#endif
