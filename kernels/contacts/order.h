/* Deterministic order: the narrow phase writes rows and keys to a raw
 * buffer in whatever order threads arrive; after a stable radix sort of the
 * keys, row i of the user's buffer is gathered from raw row perm[i]. */
#ifndef CC_KERNELS_CONTACTS_ORDER_H
#define CC_KERNELS_CONTACTS_ORDER_H

#include "cucontact/contacts.h"
#include "kernels/platform.h"

CC_HD void cc_gather_contact_thread(int i, const int* perm, cc_contacts_view raw, cc_contacts_view out)
{
    int s = perm[i];
    out.shape0[i] = raw.shape0[s];
    out.shape1[i] = raw.shape1[s];
    out.point0[i] = raw.point0[s];
    out.point1[i] = raw.point1[s];
    out.normal[i] = raw.normal[s];
    out.thickness0[i] = raw.thickness0[s];
    out.thickness1[i] = raw.thickness1[s];
    out.distance[i] = raw.distance[s];
    out.speculative[i] = raw.speculative[s];
}

#endif
