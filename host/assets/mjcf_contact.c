/* The MJCF <contact> section: <exclude> filters every pair of geoms of two
 * bodies. */
#include <string.h>

#include "host/assets/mjcf_internal.h"

static int find_body(const mj_loader* L, const char* name) { return mjcf_find_body(L, name); }

cc_status mjcf_read_contact(mj_loader* L, cc_xml_node* n)
{
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next) {
        if (strcmp(ch->name, "exclude")) {
            mjcf_report_element(L, ch, !strcmp(ch->name, "pair") ? "not supported (explicit pairs); its geoms collide by the usual filters and their own margins"
                                                             : "not supported by cuContact", CC_LOG_WARNING);
            continue;
        }
        const char* names[2] = {cc_xml_attr_get(ch, "body1"), cc_xml_attr_get(ch, "body2")};
        int ids[2];
        for (int k = 0; k < 2; ++k) {
            if (!names[k]) return mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<exclude>: body%d is missing", k + 1);
            if ((ids[k] = find_body(L, names[k])) < 0)
                return mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<exclude body%d=\"%.80s\">: no body of that name", k + 1, names[k]);
        }
        mjcf_report_unknown_attrs(L, ch, "exclude", (const char* const[]){"name", "body1", "body2", NULL});
        const mj_body *b1 = &L->bodies[ids[0]], *b2 = &L->bodies[ids[1]];
        for (int i = 0; i < b1->count; ++i)
            for (int j = 0; j < b2->count; ++j) {
                mj_shape_ref r1 = b1->shapes[i], r2 = b2->shapes[j];
                if (r1.where == IN_TARGET && r2.where == IN_TARGET) continue; /* static pairs never collide */
                if (r1.where == IN_TEMPLATE && r2.where == IN_TEMPLATE) {
                    if (r1.index == r2.index) continue;
                    cc_status s = cc_builder_add_filter_pair(L->templ, r1.index, r2.index);
                    if (s != CC_OK) return mjcf_relabel(s, ch);
                    continue;
                }
                /* A global shape and a template one: filtered in every copy
                 * once the template is replicated. */
                if (!cc_reserve((void**)&L->late_filters, &L->late_capacity, L->late_count + 2, sizeof *L->late_filters)) return mjcf_out_of_memory();
                L->late_filters[L->late_count++] = r1.where == IN_TARGET ? r1 : r2;
                L->late_filters[L->late_count++] = r1.where == IN_TARGET ? r2 : r1;
            }
    }
    return CC_OK;
}

