/* Build a model, collide, read contacts: the README's example. */
#include <stdio.h>
#include "cucontact/cucontact.h"

int main(void)
{
    cc_builder* b;
    cc_builder_create(NULL, &b);                              /* rigid_gap 0.1 m */
    cc_builder_add_plane(b, CC_BODY_WORLD, 0, 0, NULL, NULL); /* infinite ground, world -1 */
    cc_body_def body = cc_default_body_def();
    body.pose.p = (cc_vec3){0.0f, 0.0f, 0.49f};               /* sunk 1 cm into the ground */
    int id;
    cc_builder_add_body(b, &body, &id);
    cc_builder_add_box(b, id, (cc_vec3){0.5f, 0.5f, 0.5f}, NULL, NULL);

    cc_model* model;                                          /* or cc_device_cuda(0): */
    if (cc_builder_finalize(b, cc_device_cpu(), &model) != CC_OK)
        return fprintf(stderr, "%s\n", cc_last_error_message()), 1;
    cc_state* state;
    cc_pipeline* pipeline;
    cc_contacts* contacts;
    cc_state_create(model, &state);
    cc_pipeline_create(model, NULL, &pipeline);               /* AUTO broad phase */
    cc_contacts_create(pipeline, &contacts);

    cc_collide(pipeline, state, contacts, NULL);              /* enqueue on a stream */
    cc_contact c[16];
    int n;
    cc_contacts_download(contacts, state, c, 16, &n);         /* waits for the device */
    for (int i = 0; i < n; ++i)                               /* 4 corners, d = -0.01 */
        printf("shapes %d-%d  d=%+.4f  n=(%.0f %.0f %.0f)\n", c[i].shape0, c[i].shape1,
               c[i].distance, c[i].normal.x, c[i].normal.y, c[i].normal.z);
    cc_contacts_destroy(contacts), cc_pipeline_destroy(pipeline), cc_state_destroy(state);
    cc_model_destroy(model), cc_builder_destroy(b);
    return 0;
}
