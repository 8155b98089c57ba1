/* The MJCF <contact> section: <exclude> filters every pair of geoms of two
 * bodies; <pair> makes an explicit contact pair of two geoms with its own
 * margin, gap (MuJoCo's defaults: 0) and friction, which collides whatever
 * the geoms' bits and filters say. */
#include <string.h>

#include "host/assets/mjcf_internal.h"

static cc_status read_exclude(mj_loader* L, cc_xml_node* ch)
{
    const char* names[2] = {cc_xml_attr_get(ch, "body1"), cc_xml_attr_get(ch, "body2")};
    int ids[2];
    for (int k = 0; k < 2; ++k) {
        if (!names[k]) return mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<exclude>: body%d is missing", k + 1);
        if ((ids[k] = mjcf_find_body(L, names[k])) < 0)
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
    return CC_OK;
}

/* The shape of the geom named `name`, found among the bodies' shapes. */
static int find_geom(const mj_loader* L, const char* name, mj_shape_ref* out)
{
    for (int i = 0; i < L->body_count; ++i)
        for (int k = 0; k < L->bodies[i].count; ++k) {
            mj_shape_ref r = L->bodies[i].shapes[k];
            const char* n = cc_builder_shape_name(r.where == IN_TARGET ? L->target : L->templ, r.index);
            if (n && !strcmp(n, name)) {
                *out = r;
                return 1;
            }
        }
    return 0;
}

static cc_status read_pair(mj_loader* L, cc_xml_node* ch)
{
    const mj_class* c;
    cc_status s = mjcf_class_of(L, ch, NULL, &c);
    if (s != CC_OK) return s;
    mj_shape_ref refs[2];
    for (int k = 0; k < 2; ++k) {
        mj_attr a;
        const char* key = k ? "geom2" : "geom1";
        if (!mjcf_get_attr(ch, c, "pair", key, &a)) return mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<pair>: %s is missing", key);
        if (!find_geom(L, a.value, &refs[k]))
            return mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<pair %s=\"%.80s\">: no geom of that name", key, a.value);
    }
    cc_contact_pair_def def = cc_default_contact_pair_def();
    double margin = 0.0, gap = 0.0;
    int found;
    if ((s = mjcf_read_vector(ch, c, "pair", "margin", &margin, 1, &found)) != CC_OK) return s;
    if (found && margin < 0.0) return mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<pair margin=\"%g\">: margin must be >= 0", margin);
    if ((s = mjcf_read_vector(ch, c, "pair", "gap", &gap, 1, &found)) != CC_OK) return s;
    if (found && gap < 0.0) return mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<pair gap=\"%g\">: gap must be >= 0", gap);
    def.margin = (float)margin;
    def.gap = (float)gap;
    mj_attr fa;
    if (mjcf_get_attr(ch, c, "pair", "friction", &fa)) {
        /* MuJoCo's five: tangential (twice), torsional, rolling (twice);
         * contacts here are isotropic, so the first of each pair counts. */
        double f[5];
        int count = 0;
        if ((s = mjcf_parse_numbers(&fa, f, 1, 5, &count)) != CC_OK) return s;
        for (int i = 0; i < count; ++i)
            if (f[i] < 0.0) return mjcf_fail_at(CC_ERR_PARSE, fa.file, fa.line, "<pair friction=\"%.60s\">: friction coefficients must be >= 0", fa.value);
        def.mu = (float)f[0];
        if (count > 2) def.mu_torsional = (float)f[2];
        if (count > 3) def.mu_rolling = (float)f[3];
        if ((count > 1 && f[1] != f[0]) || (count > 4 && f[4] != f[3]))
            mjcf_note(L, "pair anisotropic", CC_LOG_WARNING, fa.file, fa.line,
                      "<pair friction>: anisotropic friction is not supported; the first tangential and rolling values are used");
    }
    mjcf_report_unknown_attrs(L, ch, "pair", mjcf_pair_attrs);
    if (refs[0].where == IN_TARGET && refs[1].where == IN_TARGET) {
        mjcf_note(L, "pair static", CC_LOG_WARNING, ch->file, ch->line, "<pair> of two static geoms: static shapes never collide here; skipped");
        return CC_OK;
    }
    if (refs[0].where == IN_TEMPLATE && refs[1].where == IN_TEMPLATE) {
        if (refs[0].index == refs[1].index)
            return mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<pair>: geom1 and geom2 are the same geom");
        s = cc_builder_add_contact_pair(L->templ, refs[0].index, refs[1].index, &def);
        return s == CC_OK ? CC_OK : mjcf_relabel(s, ch);
    }
    if (!cc_reserve((void**)&L->late_pairs, &L->late_pair_capacity, L->late_pair_count + 1, sizeof *L->late_pairs)) return mjcf_out_of_memory();
    mj_late_pair* p = &L->late_pairs[L->late_pair_count++];
    p->global = refs[0].where == IN_TARGET ? refs[0].index : refs[1].index;
    p->templ = refs[0].where == IN_TARGET ? refs[1].index : refs[0].index;
    p->def = def;
    return CC_OK;
}

cc_status mjcf_read_contact(mj_loader* L, cc_xml_node* n)
{
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next) {
        cc_status s = CC_OK;
        if (!strcmp(ch->name, "exclude")) s = read_exclude(L, ch);
        else if (!strcmp(ch->name, "pair")) s = read_pair(L, ch);
        else mjcf_report_element(L, ch, "not supported by cuContact", CC_LOG_WARNING);
        if (s != CC_OK) return s;
    }
    return CC_OK;
}
