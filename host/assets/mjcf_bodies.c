/* The MJCF world tree: <body> and <frame> elements nested to any depth,
 * joints deciding which bodies move on their own, <inertial>, and the
 * geoms under each. */
#include <stdio.h>
#include <string.h>

#include "host/assets/mjcf_internal.h"

static const char* const body_attrs[] = {"name", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "childclass", "mocap", NULL};
static const char* const frame_attrs[] = {"name", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "childclass", NULL};

static unsigned name_hash(const char* s)
{
    unsigned h = 2166136261u;
    for (; *s; ++s) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

int mjcf_find_body(const mj_loader* L, const char* name)
{
    if (!L->body_slot_count || !name[0]) return -1;
    unsigned mask = (unsigned)L->body_slot_count - 1u;
    for (unsigned i = name_hash(name) & mask;; i = (i + 1u) & mask) {
        int slot = L->body_slots[i];
        if (!slot) return -1;
        if (!strcmp(L->bodies[slot - 1].name, name)) return slot - 1;
    }
}

/* Puts body `id` into the name table, growing it to keep it half empty. */
static int index_body_name(mj_loader* L, int id)
{
    if (2 * (L->named_bodies + 1) > L->body_slot_count) {
        int count = L->body_slot_count ? 2 * L->body_slot_count : 64;
        int* slots = (int*)cc_host_calloc((size_t)count, sizeof(int));
        if (!slots) return 0;
        for (int i = 0; i < L->body_slot_count; ++i) {
            int slot = L->body_slots[i];
            if (!slot) continue;
            unsigned j = name_hash(L->bodies[slot - 1].name) & (unsigned)(count - 1);
            while (slots[j]) j = (j + 1u) & (unsigned)(count - 1);
            slots[j] = slot;
        }
        cc_host_free(L->body_slots);
        L->body_slots = slots;
        L->body_slot_count = count;
    }
    unsigned mask = (unsigned)L->body_slot_count - 1u, j = name_hash(L->bodies[id].name) & mask;
    while (L->body_slots[j]) j = (j + 1u) & mask;
    L->body_slots[j] = id + 1;
    L->named_bodies++;
    return 1;
}

cc_status mjcf_add_body_record(mj_loader* L, const char* name, const cc_xml_node* n, int* out)
{
    int earlier = mjcf_find_body(L, name);
    if (earlier >= 0) {
        const cc_xml_node* first = L->body_nodes[earlier];
        if (first)
            return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<body name=\"%s\">: the name is taken by the body at %s:%d; body names must be unique", name,
                                first->file, first->line);
        return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<body name=\"%s\">: the name is the world body's; body names must be unique", name);
    }
    if (!cc_reserve((void**)&L->bodies, &L->body_capacity, L->body_count + 1, sizeof *L->bodies)) return mjcf_out_of_memory();
    if (!cc_reserve((void**)&L->body_nodes, &L->body_node_capacity, L->body_count + 1, sizeof *L->body_nodes))
        return mjcf_out_of_memory();
    mj_body* b = &L->bodies[L->body_count];
    memset(b, 0, sizeof *b);
    b->name = name;
    L->body_nodes[L->body_count] = n;
    if (name[0] && !index_body_name(L, L->body_count)) return mjcf_out_of_memory();
    *out = L->body_count++;
    return CC_OK;
}

cc_status mjcf_remember_shape(mj_loader* L, int body, int where, int index)
{
    mj_body* b = &L->bodies[body];
    if (!cc_reserve((void**)&b->shapes, &b->capacity, b->count + 1, sizeof *b->shapes)) return mjcf_out_of_memory();
    b->shapes[b->count].where = where;
    b->shapes[b->count].index = index;
    b->count++;
    return CC_OK;
}


static const char* const skipped_body_children[] = {"site", "camera", "light", "plugin", "composite",
                                                    "flexcomp", "attach", "replicate", "skin", NULL};

/* Whether a <body> gets a body of its own: it has a joint or is mocap. */
static int body_moves_alone(cc_xml_node* n)
{
    const char* mocap = cc_xml_attr_get(n, "mocap");
    if (mocap && mjcf_parse_bool(mocap)) return 1;
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next)
        if (!strcmp(ch->name, "freejoint") || !strcmp(ch->name, "joint")) return 1;
    return 0;
}

static const char* const inertial_attrs[] = {"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mass",
                                             "diaginertia", "fullinertia", NULL};

/* <inertial> of a body that moves: its mass, centre and inertia tensor
 * (principal moments turned by the element's orientation, or the full
 * tensor) set explicitly on the body. On a body welded to its parent it
 * would have to be merged into the parent, which is not done: reported. */
static cc_status read_inertial(mj_loader* L, cc_xml_node* body, int id)
{
    cc_xml_node* n = NULL;
    for (cc_xml_node* ch = body->first_child; ch; ch = ch->next)
        if (!strcmp(ch->name, "inertial")) n = ch;
    if (!n) return CC_OK;
    mjcf_report_unknown_attrs(L, n, "inertial", inertial_attrs);
    mj_frame f;
    cc_status s = mjcf_read_frame(L, n, NULL, "inertial", &f);
    if (s != CC_OK) return s;
    double mass = 0.0, diag[3] = {0, 0, 0}, full[6] = {0, 0, 0, 0, 0, 0};
    int has_mass, has_diag, has_full;
    if ((s = mjcf_read_vector(n, NULL, "inertial", "mass", &mass, 1, &has_mass)) != CC_OK) return s;
    if ((s = mjcf_read_vector(n, NULL, "inertial", "diaginertia", diag, 3, &has_diag)) != CC_OK) return s;
    if ((s = mjcf_read_vector(n, NULL, "inertial", "fullinertia", full, 6, &has_full)) != CC_OK) return s;
    if (!has_mass || !(mass > 0.0))
        return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<inertial>: give a mass > 0 [kg]");
    if (has_diag == has_full)
        return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<inertial>: give exactly one of diaginertia and fullinertia");
    double I[3][3];
    if (has_full) {
        double m[3][3] = {{full[0], full[3], full[4]}, {full[3], full[1], full[5]}, {full[4], full[5], full[2]}};
        memcpy(I, m, sizeof I);
    } else {
        /* R diag(d) R^T with R's columns the rotated axes. */
        double axes[3][3];
        for (int k = 0; k < 3; ++k) {
            double e[3] = {k == 0, k == 1, k == 2};
            mjcf_quat_rotate(f.q, e, axes[k]);
        }
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                I[i][j] = diag[0] * axes[0][i] * axes[0][j] + diag[1] * axes[1][i] * axes[1][j] + diag[2] * axes[2][i] * axes[2][j];
    }
    cc_mass_properties mp;
    mp.mass = (float)mass;
    mp.center.x = (float)f.p[0], mp.center.y = (float)f.p[1], mp.center.z = (float)f.p[2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) mp.inertia[3 * i + j] = (float)I[i][j];
    if ((s = cc_builder_set_body_mass(L->templ, id, &mp)) != CC_OK) return mjcf_relabel(s, n);
    return CC_OK;
}

/* A <body>: its frame, joints and inertial, the body record and, when it
 * moves on its own, a builder body; writes the context its children see. */
static cc_status enter_body(mj_loader* L, cc_xml_node* n, const mj_frame_ctx* ctx, mj_frame_ctx* out)
{
    mj_frame local;
    cc_status s = mjcf_read_frame(L, n, NULL, "body", &local);
    if (s != CC_OK) return s;
    mj_frame_ctx inner = *ctx;
    const char* cc = cc_xml_attr_get(n, "childclass");
    if (cc && !(inner.childclass = mjcf_find_class(L, cc)))
        return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<body childclass=\"%s\">: no default class of that name", cc);
    const char* mocap = cc_xml_attr_get(n, "mocap");
    const char* name = cc_xml_attr_get(n, "name");
    mjcf_report_unknown_attrs(L, n, "body", body_attrs);

    /* Joints make the body move; their type may come from a default class. */
    int joints = 0;
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next) {
        if (!strcmp(ch->name, "freejoint")) {
            mjcf_report_unknown_attrs(L, ch, "freejoint", (const char* const[]){"name", NULL});
            joints++;
        } else if (!strcmp(ch->name, "joint")) {
            const mj_class* jc;
            if ((s = mjcf_class_of(L, ch, inner.childclass, &jc)) != CC_OK) return s;
            mj_attr a;
            const char* type = mjcf_get_attr(ch, jc, "joint", "type", &a) ? a.value : "hinge";
            if (strcmp(type, "free") && strcmp(type, "hinge") && strcmp(type, "slide") && strcmp(type, "ball"))
                return mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<joint type=\"%.40s\">: unknown joint type; use free, ball, slide or hinge", type);
            if (strcmp(type, "free")) {
                char key[64];
                snprintf(key, sizeof key, "joint %s", type);
                mjcf_note(L, key, CC_LOG_WARNING, ch->file, ch->line,
                          "%s joints are not simulated: such a body becomes a free dynamic body, and pairs with its parent body are skipped", type);
            }
            mjcf_report_unknown_attrs(L, ch, "joint", mjcf_joint_attrs);
            joints++;
        }
    }
    int body = -1;
    if ((s = mjcf_add_body_record(L, name ? name : "", n, &body)) != CC_OK) return s;
    inner.body = body;
    mj_frame here = mjcf_frame_mul(&ctx->to_anchor, &local);
    int is_mocap = mocap && mjcf_parse_bool(mocap);
    if (is_mocap && ctx->anchor >= 0)
        return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<body mocap=\"true\">: mocap bodies must be children of worldbody");
    if (joints || is_mocap) {
        if (is_mocap)
            mjcf_note(L, "mocap", CC_LOG_INFO, n->file, n->line, "mocap bodies become static bodies of their own; move them with cc_state_set_body_poses");
        cc_body_def bd = cc_default_body_def();
        mj_frame world = mjcf_frame_mul(&ctx->anchor_pose, &here);
        bd.pose = mjcf_to_transform(&world);
        bd.is_static = is_mocap;
        bd.parent = ctx->anchor >= 0 && !L->templ->bodies[ctx->anchor].is_static ? ctx->anchor : -1;
        int id;
        if ((s = cc_builder_add_body(L->templ, &bd, &id)) != CC_OK) return mjcf_relabel(s, n);
        if ((s = read_inertial(L, n, id)) != CC_OK) return s;
        inner.anchor = id;
        inner.anchor_pose = world;
        inner.to_anchor = mjcf_frame_identity();
    } else {
        inner.to_anchor = here;
    }
    *out = inner;
    return CC_OK;
}

/* One level of the walk: an element whose children are being read, the
 * next child, and the context they see. */
typedef struct walk_level {
    cc_xml_node* parent;
    cc_xml_node* next;
    mj_frame_ctx ctx;
} walk_level;

/* Reads the children of `parent`, and theirs, in document order. The walk
 * keeps its levels on the heap, not the call stack, so bodies may nest as
 * deep as memory allows (a 100,000-link chain is a few megabytes). */
cc_status mjcf_read_children(mj_loader* L, cc_xml_node* parent, const mj_frame_ctx* ctx)
{
    walk_level* levels = NULL;
    int count = 0, capacity = 0;
    cc_status s = CC_OK;
    if (!cc_reserve((void**)&levels, &capacity, 1, sizeof *levels)) return mjcf_out_of_memory();
    levels[count++] = (walk_level){parent, parent->first_child, *ctx};
    while (count > 0 && s == CC_OK) {
        walk_level* top = &levels[count - 1];
        cc_xml_node* ch = top->next;
        if (!ch) {
            --count;
            continue;
        }
        top->next = ch->next;
        cc_xml_node* at = top->parent;
        mj_frame_ctx here = top->ctx; /* copied: pushing may move the levels */
        mj_frame_ctx inner;
        int descend = 0;
        if (!strcmp(ch->name, "geom")) {
            s = mjcf_read_geom(L, ch, &here);
        } else if (!strcmp(ch->name, "body")) {
            s = enter_body(L, ch, &here, &inner);
            descend = s == CC_OK;
        } else if (!strcmp(ch->name, "frame")) {
            mj_frame local;
            inner = here;
            s = mjcf_read_frame(L, ch, NULL, "frame", &local);
            const char* cc = cc_xml_attr_get(ch, "childclass");
            if (s == CC_OK && cc && !(inner.childclass = mjcf_find_class(L, cc)))
                s = mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<frame childclass=\"%s\">: no default class of that name", cc);
            mjcf_report_unknown_attrs(L, ch, "frame", frame_attrs);
            inner.to_anchor = mjcf_frame_mul(&here.to_anchor, &local);
            descend = s == CC_OK;
        } else if (!strcmp(ch->name, "joint") || !strcmp(ch->name, "freejoint")) {
            if (!strcmp(at->name, "worldbody"))
                s = mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<%s> in worldbody: the world cannot move", ch->name);
            if (!strcmp(at->name, "frame"))
                s = mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<%s> in a frame: joints belong to bodies", ch->name);
        } else if (!strcmp(ch->name, "inertial")) {
            /* Read by enter_body when the body moves on its own. */
            if (strcmp(at->name, "body") || !body_moves_alone(at))
                mjcf_report_element(L, ch, "not merged into the parent body (the body is welded to it)", CC_LOG_INFO);
        } else if (mjcf_in_list(ch->name, skipped_body_children)) {
            mjcf_report_element(L, ch, "not used for collisions", CC_LOG_INFO);
        } else {
            mjcf_report_element(L, ch, "not supported by cuContact", CC_LOG_WARNING);
        }
        if (descend) {
            if (!cc_reserve((void**)&levels, &capacity, count + 1, sizeof *levels)) s = mjcf_out_of_memory();
            else levels[count++] = (walk_level){ch, ch->first_child, inner};
        }
    }
    cc_host_free(levels);
    return s;
}
