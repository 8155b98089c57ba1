/* Mass properties of uniform solids, and their sum into a body.
 *
 * Everything is computed in double. A solid is described by its mass, its
 * centre of mass and its inertia tensor about that centre, all expressed in
 * one frame; solids in a child frame are moved to the parent frame with
 * cc_solid_mass_transform and summed with cc_solid_mass_add. */
#ifndef CC_HOST_MODEL_MASS_PROPERTIES_H
#define CC_HOST_MODEL_MASS_PROPERTIES_H

#include "host/model/builder_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_solid_mass {
    double mass;          /* [kg] */
    double center[3];     /* centre of mass in the frame the struct is expressed in [m] */
    double inertia[3][3]; /* about `center`, axes of that frame [kg m^2] */
} cc_solid_mass;

/* Mass properties of a shape of uniform `density` [kg/m^3] in its own frame
 * (see cc_shape_type for the meaning of `size`; a cone's base is at z = -h,
 * so its centre of mass is at z = -h/2).
 *
 * Hulls: pass the hull (mesh NULL); meshes: pass the mesh (hull NULL); other
 * types: both NULL (ignored). Hull and mesh vertices are scaled per axis by
 * `size` before integration; a mesh must be closed, counter-clockwise seen
 * from outside, for a meaningful answer (its signed volume is used).
 *
 * Returns
 *    1  with the result in *out;
 *    0  with a zero solid (mass, centre and inertia all 0) for planes and
 *       heightfields, which have no volume;
 *   -1  with a zero solid when the input is unusable: a hull or mesh whose
 *       signed volume is not > 0 (inside out, open or flat), a missing hull
 *       or mesh, an index out of range, a negative or non-finite density, a
 *       non-finite size, a primitive size that the builder would reject
 *       (a dimension <= 0; a capsule's half height may be 0), an unknown or
 *       unsupported (SDF) type. The caller reports the error.
 * `out` must not be NULL (returns -1 and writes nothing if it is). */
int cc_shape_solid_mass(int type, cc_vec3 size, double density, const cc_hull_data* hull,
                        const struct cc_mesh_data* mesh, cc_solid_mass* out);

/* Expresses `m` (given in a child frame) in the parent frame where the child
 * frame has pose `local` (rotate by local.q, then translate by local.p):
 * centre R c + p, inertia R I R^T. The quaternion is normalized in double
 * (a zero or non-finite one counts as the identity). */
cc_solid_mass cc_solid_mass_transform(const cc_solid_mass* m, cc_transform local);

/* Sum of two solids expressed in the same frame: masses add, the centre is
 * the mass-weighted mean, and each inertia is moved to that centre by the
 * parallel-axis theorem. Either may have zero mass (then the other is
 * returned, its inertia plus the zero one's); both zero gives a zero solid
 * whose inertia is the sum of the two. */
cc_solid_mass cc_solid_mass_add(const cc_solid_mass* a, const cc_solid_mass* b);

/* Inverse of a symmetric positive-definite 3x3. Returns 1 with the inverse
 * in `out`; returns 0, leaving `out` unchanged, when an entry is not finite,
 * the matrix is not positive definite (a leading minor <= 0), the
 * determinant is not > 1e-14 times the cube of the largest entry's magnitude
 * (singular to double precision), or the inverse is not finite. `in` and
 * `out` may alias. */
int cc_inertia_inverse(const double in[3][3], double out[3][3]);

#ifdef __cplusplus
}
#endif

#endif
