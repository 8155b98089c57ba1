/* Stage 3: per grouped candidate pair, run the pair's routine on the shape
 * cores and write its contacts. Shapes are put lower type first, so the
 * contact normal points from the lower-typed shape to the other. */
#ifndef CC_KERNELS_NARROWPHASE_DISPATCH_H
#define CC_KERNELS_NARROWPHASE_DISPATCH_H

#include "kernels/contacts/write.h"
#include "kernels/narrowphase/route.h"
#include "kernels/narrowphase/box_box.h"
#include "kernels/narrowphase/capsule.h"
#include "kernels/narrowphase/convex.h"
#include "kernels/narrowphase/plane.h"
#include "kernels/narrowphase/sphere.h"
#include "kernels/mesh/midphase.h"
#include "kernels/broadphase/pair_buffer.h"
#include "kernels/pass_counters.h"

/* The convex class: GJK/MPR and a clipped manifold, the plane's own
 * routine against round shapes and hulls, and capsule-box. */
CC_HD void cc_collide_generic(int route, const cc_geom* a, const cc_geom* b, float threshold, cc_manifold* m)
{
    int ta = route / CC_SHAPE_TYPE_COUNT, tb = route % CC_SHAPE_TYPE_COUNT;
    m->count = 0;
    if (!cc_type_is_convex(ta) || !cc_type_is_convex(tb)) return;
    if (route == CC_ROUTE_CAPSULE_BOX) cc_collide_capsule_box(a, b, threshold, m);
    else if (ta == CC_SHAPE_PLANE) cc_collide_plane_convex(a, b, tb, threshold, m);
    else cc_collide_convex(a, ta, b, tb, threshold, m);
}

CC_HD void cc_collide_analytic(int route, const cc_geom* a, const cc_geom* b, float threshold, cc_manifold* m)
{
    m->count = 0;
    switch (route) {
    case CC_SHAPE_PLANE * CC_SHAPE_TYPE_COUNT + CC_SHAPE_PLANE:
        cc_collide_plane_plane(a, b, threshold, m);
        break;
    case CC_SHAPE_PLANE * CC_SHAPE_TYPE_COUNT + CC_SHAPE_SPHERE:
        cc_collide_plane_sphere(a, b, threshold, m);
        break;
    case CC_SHAPE_PLANE * CC_SHAPE_TYPE_COUNT + CC_SHAPE_CAPSULE:
        cc_collide_plane_capsule(a, b, threshold, m);
        break;
    case CC_SHAPE_PLANE * CC_SHAPE_TYPE_COUNT + CC_SHAPE_BOX:
        cc_collide_plane_box(a, b, threshold, m);
        break;
    case CC_SHAPE_SPHERE * CC_SHAPE_TYPE_COUNT + CC_SHAPE_SPHERE:
        cc_collide_sphere_sphere(a, b, threshold, m);
        break;
    case CC_SHAPE_SPHERE * CC_SHAPE_TYPE_COUNT + CC_SHAPE_CAPSULE:
        cc_collide_sphere_capsule(a, b, threshold, m);
        break;
    case CC_SHAPE_SPHERE * CC_SHAPE_TYPE_COUNT + CC_SHAPE_BOX:
        cc_collide_sphere_box(a, b, threshold, m);
        break;
    case CC_SHAPE_CAPSULE * CC_SHAPE_TYPE_COUNT + CC_SHAPE_CAPSULE:
        cc_collide_capsule_capsule(a, b, threshold, m);
        break;
    case CC_SHAPE_BOX * CC_SHAPE_TYPE_COUNT + CC_SHAPE_BOX:
        cc_collide_box_box(a, b, threshold, m);
        break;
    default:
        break;
    }
}

/* Dispatch on the route; a and b are already in type order. */
CC_HD void cc_collide_cores(int route, const cc_geom* a, const cc_geom* b, float threshold, cc_manifold* m)
{
    m->count = 0;
    if (cc_route_class(route) == CC_ROUTE_CLASS_ANALYTIC) cc_collide_analytic(route, a, b, threshold, m);
    else if (cc_route_class(route) == CC_ROUTE_CLASS_CONVEX) cc_collide_generic(route, a, b, threshold, m);
}

/* Pair i of the grouped list, when its route is of class `route_class`
 * (CC_ROUTE_CLASS_ANY: every route). A constant class compiles the other
 * class's routines away. */
CC_HD void cc_narrowphase_class_thread(int i, const cc_model_view* m, const cc_pair* grouped,
                                       const cc_transform* shape_pose, const cc_transform* body_pose,
                                       cc_contact_sink sink, int route_class)
{
    cc_pair p = grouped[i];
    cc_shape_geometry g0 = m->shape_geom[p.a], g1 = m->shape_geom[p.b];
    if (cc_type_is_surface(g0.type) || cc_type_is_surface(g1.type)) return; /* the mesh stages' */
    if (cc_pair_swept(sink.spec, p.a, p.b)) return; /* the time-of-impact stage's (contacts/toi.h) */
    int swap = g0.type > g1.type;
    int sa = swap ? p.b : p.a, sb = swap ? p.a : p.b;
    cc_shape_geometry geo_a = swap ? g1 : g0, geo_b = swap ? g0 : g1;
    cc_geom ga, gb;
    ga.xf = shape_pose[sa];
    ga.size = geo_a.size;
    gb.xf = shape_pose[sb];
    gb.size = geo_b.size;
    if (geo_a.type == CC_SHAPE_CONVEX_HULL) ga.hull = cc_hull_ref_of(m, sa);
    if (geo_b.type == CC_SHAPE_CONVEX_HULL) gb.hull = cc_hull_ref_of(m, sb);
    cc_contact_side a, b;
    cc_contact_sides_of(m, sink.spec, sa, sb, &a, &b);
    cc_manifold mf;
    int route = cc_route_of(geo_a.type, geo_b.type);
    if (route_class != CC_ROUTE_CLASS_ANY && cc_route_class(route) != route_class) return;
    if (geo_a.type != CC_SHAPE_CONVEX_HULL) ga.hull = cc_hull_ref_none();
    if (geo_b.type != CC_SHAPE_CONVEX_HULL) gb.hull = cc_hull_ref_none();
    /* Two shapes of one type: computed in a fixed order, mirrored back
     * (sphere pairs are antisymmetric by construction and skip it). */
    int mirror = geo_a.type == geo_b.type && geo_a.type != CC_SHAPE_SPHERE && cc_geom_precedes(&gb, &ga);
    const cc_geom* first = mirror ? &gb : &ga;
    const cc_geom* second = mirror ? &ga : &gb;
    float threshold = cc_core_threshold(a, b);
    if (route_class == CC_ROUTE_CLASS_ANALYTIC) cc_collide_analytic(route, first, second, threshold, &mf);
    else if (route_class == CC_ROUTE_CLASS_CONVEX) cc_collide_generic(route, first, second, threshold, &mf);
    else cc_collide_cores(route, first, second, threshold, &mf);
    if (mirror) cc_manifold_mirror(&mf);
    cc_write_manifold(&mf, a, b, body_pose, sink);
}

CC_HD void cc_narrowphase_thread(int i, const cc_model_view* m, const cc_pair* grouped,
                                 const cc_transform* shape_pose, const cc_transform* body_pose,
                                 cc_contact_sink sink)
{
    cc_narrowphase_class_thread(i, m, grouped, shape_pose, body_pose, sink, CC_ROUTE_CLASS_ANY);
}

/* One thread after the narrow phase: publish the clamped contact count. */
CC_HD void cc_pass_finalize(const cc_pass_counters* c, cc_contacts_view out)
{
    *out.count = cc_min_i32(c->contact_count, out.capacity);
}

#endif
