/* cuContact: the rigid contact buffer filled by cc_collide. */
#ifndef CUCONTACT_CONTACTS_H
#define CUCONTACT_CONTACTS_H

#include "cucontact/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_contacts cc_contacts;

/// Device pointers (host pointers on the CPU backend) of the contact columns,
/// one entry per contact, `*count` valid entries (never more than capacity).
///
/// Conventions, for contact i between shapes shape0[i] and shape1[i]:
/// - normal[i] is a world unit vector pointing from shape 0 toward shape 1.
/// - point0/point1 are body-frame points on each shape's core: the surface
///   for planes and boxes, the centre or segment for spheres and capsules.
/// - thickness0/1 is that shape's effective radius plus its margin, so the
///   margin-shifted surface point of shape 0 is point0 + normal*thickness0
///   (in world space) and of shape 1 is point1 - normal*thickness1. The
///   friction offsets of the reference are these vectors in body frames;
///   cc_contacts_download derives them.
/// - distance[i] = dot(normal, world(point1) - world(point0)) - thickness0 -
///   thickness1: the contact-space distance d = s - (m0 + m1), negative when
///   the margin-shifted surfaces overlap. A contact exists when d < gap0 + gap1
///   (strictly: with no gap, surfaces that exactly touch make none, as in MuJoCo),
///   or, with speculative contacts on, when the points close d within the
///   collision horizon (see cc_pipeline_def.speculative_contact_gap_max).
/// - speculative[i] is nonzero when speculation is on, d > 0 and the contact
///   points close d within the horizon: the step then keeps the bodies from
///   passing through each other in one step (cc_step).
/// Each slot costs 60 bytes of device memory.
typedef struct cc_contacts_view {
    int* count;        ///< (1) number of valid contacts
    int capacity;      ///< rows allocated
    int* shape0;       ///< (capacity)
    int* shape1;       ///< (capacity)
    cc_vec3* point0;   ///< (capacity) body frame of shape 0's body [m]
    cc_vec3* point1;   ///< (capacity) body frame of shape 1's body [m]
    cc_vec3* normal;   ///< (capacity) world frame, shape 0 -> shape 1
    float* thickness0; ///< (capacity) effective radius + margin of shape 0 [m]
    float* thickness1; ///< (capacity) effective radius + margin of shape 1 [m]
    float* distance;   ///< (capacity) contact-space signed distance [m]
    int* speculative;  ///< (capacity) nonzero: a separated contact that closes within the horizon
    /* Matching, when the pipeline has it (else NULL): */
    int* match_index;      ///< (capacity) row of the previous pass's buffer this contact
                           ///< continues, or -1 for a new contact
    int* match_generation; ///< (1) generation of the buffer match_index refers to, or -1
                           ///< when the previous pass wrote another buffer (or none)
    int* generation;       ///< (1) counts the passes that wrote this buffer
    /* Reports, when the pipeline has contact_report (else NULL): */
    int* new_indices;    ///< (capacity) rows of this buffer with match_index -1, ascending
    int* new_count;      ///< (1)
    int* broken_indices; ///< (capacity) rows of the previous pass's buffer no contact matched, ascending
    int* broken_count;   ///< (1)
} cc_contacts_view;

/// One contact copied to the host, with the derived columns filled in.
typedef struct cc_contact {
    int shape0, shape1;
    cc_vec3 point0, point1;   ///< body frames [m]
    cc_vec3 offset0, offset1; ///< body-frame friction offsets: +-normal * thickness [m]
    cc_vec3 normal;           ///< world frame, shape 0 -> shape 1
    float thickness0, thickness1; ///< effective radius + margin [m]
    float distance;               ///< contact-space signed distance [m]
    int speculative;              ///< nonzero: separated, closing within the collision horizon
    int match_index;              ///< previous row matched, -1 new or matching disabled
} cc_contact;

cc_contacts_view cc_contacts_device_view(const cc_contacts* c);
int cc_contacts_capacity(const cc_contacts* c);
/// Waits for the device and reads the count of the last collide.
cc_status cc_contacts_count(const cc_contacts* c, int* out_count);
/// Waits for the device and copies up to `max` contacts to `out`, deriving the
/// body-frame offsets from the body poses in `state` (the state collided).
/// `out_count` receives the rows copied (at most `max`); cc_contacts_count
/// gives how many the pass holds.
cc_status cc_contacts_download(const cc_contacts* c, const cc_state* state, cc_contact* out,
                               int max, int* out_count);
/// Waits for the device and copies the new and broken index lists of the
/// last pass (contact_report on). Writes at most max_new / max_broken indices
/// and the full counts.
cc_status cc_contacts_download_report(const cc_contacts* c, int* new_indices, int max_new, int* new_count,
                                      int* broken_indices, int max_broken, int* broken_count);
/// Waits for the device and reads the buffer's generation and match generation.
cc_status cc_contacts_generations(const cc_contacts* c, int* generation, int* match_generation);
void cc_contacts_destroy(cc_contacts* c);

#ifdef __cplusplus
}
#endif

#endif
