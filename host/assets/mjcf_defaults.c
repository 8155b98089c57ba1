/* MJCF default classes: <default> trees, each class holding its
 * ancestors' attributes merged with its own, and the class an element
 * takes (its own, the enclosing childclass, else main). */
#include <stdio.h>
#include <string.h>

#include "host/assets/mjcf_internal.h"

const char* const mjcf_geom_attrs[] = {"name", "class", "type", "size", "pos", "quat", "axisangle", "euler", "xyaxes",
                                         "zaxis", "fromto", "mesh", "hfield", "contype", "conaffinity", "group",
                                         "friction", "margin", "gap", "density", NULL};
const char* const mjcf_joint_attrs[] = {"name", "class", "type", NULL};
const char* const mjcf_mesh_attrs[] = {"name", "class", "file", "scale", "vertex", "face", "maxhullvert", NULL};
const char* const mjcf_pair_attrs[] = {"name", "class", "geom1", "geom2", "margin", "gap", "friction", NULL};

const mj_class* mjcf_find_class(const mj_loader* L, const char* name)
{
    for (int i = 0; i < L->class_count; ++i)
        if (!strcmp(L->classes[i]->name, name)) return L->classes[i];
    return NULL;
}

static cc_status push_default(mj_class* c, const char* kind, const cc_xml_attr* a, const cc_xml_node* n)
{
    if (!cc_reserve((void**)&c->attrs, &c->capacity, c->count + 1, sizeof *c->attrs)) return mjcf_out_of_memory();
    mj_default_attr* d = &c->attrs[c->count++];
    d->kind = kind;
    d->name = a->name;
    d->value = a->value;
    d->file = n->file;
    d->line = n->line;
    return CC_OK;
}

/* One <default>: its class, with the parent's attributes and its own. A
 * top-level <default> after the first adds to the main class, as MuJoCo
 * reads several of them (one per included file, say); classes nested in it
 * start from main as it stands then. */
static cc_status define_class(mj_loader* L, cc_xml_node* n, const mj_class* parent, mj_class** out)
{
    const char* name = cc_xml_attr_get(n, "class");
    if (!name) name = parent ? NULL : "main";
    if (!name) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<default>: a nested default needs a class name");
    mjcf_report_unknown_attrs(L, n, "default", (const char* const[]){"class", NULL});
    mj_class* c = (mj_class*)mjcf_find_class(L, name);
    if (c && (parent || strcmp(name, "main")))
        return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<default class=\"%s\">: the class is defined twice (first at %s:%d); give one of them another name",
                            name, c->file, c->line);
    if (!c) {
        c = (mj_class*)cc_host_calloc(1, sizeof *c);
        if (!c || !cc_reserve((void**)&L->classes, &L->class_capacity, L->class_count + 1, sizeof *L->classes)) {
            cc_host_free(c);
            return mjcf_out_of_memory();
        }
        L->classes[L->class_count++] = c;
        c->name = name;
        c->file = n->file;
        c->line = n->line;
        if (parent)
            for (int i = 0; i < parent->count; ++i) {
                if (!cc_reserve((void**)&c->attrs, &c->capacity, c->count + 1, sizeof *c->attrs)) return mjcf_out_of_memory();
                c->attrs[c->count++] = parent->attrs[i];
            }
    }
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next) {
        const char* const* known = NULL;
        if (!strcmp(ch->name, "geom")) known = mjcf_geom_attrs;
        else if (!strcmp(ch->name, "joint")) known = mjcf_joint_attrs;
        else if (!strcmp(ch->name, "mesh")) known = mjcf_mesh_attrs;
        else if (!strcmp(ch->name, "pair")) known = mjcf_pair_attrs;
        else if (!strcmp(ch->name, "default")) continue;
        if (!known) {
            char key[160];
            snprintf(key, sizeof key, "<default><%s>", ch->name);
            mjcf_note(L, key, CC_LOG_INFO, ch->file, ch->line, "<%s> defaults have no meaning for collisions; skipped", ch->name);
            continue;
        }
        for (int i = 0; i < ch->attr_count; ++i) {
            if (!strcmp(ch->attrs[i].name, "name") || !strcmp(ch->attrs[i].name, "class")) continue;
            if (!mjcf_in_list(ch->attrs[i].name, known)) continue;
            /* A new orientation replaces the inherited one of any form. */
            if (mjcf_in_list(ch->attrs[i].name, mjcf_orientation_attrs))
                for (int k = 0; k < c->count; ++k)
                    if (!strcmp(c->attrs[k].kind, ch->name) && mjcf_in_list(c->attrs[k].name, mjcf_orientation_attrs))
                        c->attrs[k].kind = "";
            cc_status s = push_default(c, ch->name, &ch->attrs[i], ch);
            if (s != CC_OK) return s;
        }
        mjcf_report_unknown_attrs(L, ch, ch->name, known);
    }
    *out = c;
    return CC_OK;
}

/* A <default> and the ones nested in it, each after its parent and in
 * document order, walked with a heap stack so that nesting depth costs no
 * call stack. */
cc_status mjcf_read_default(mj_loader* L, cc_xml_node* n, const mj_class* parent)
{
    typedef struct pending {
        cc_xml_node* node;
        const mj_class* parent;
    } pending;
    pending* stack = NULL;
    int count = 0, capacity = 0;
    cc_status s = CC_OK;
    if (!cc_reserve((void**)&stack, &capacity, 1, sizeof *stack)) return mjcf_out_of_memory();
    stack[count++] = (pending){n, parent};
    while (count > 0 && s == CC_OK) {
        pending p = stack[--count];
        mj_class* c = NULL;
        if ((s = define_class(L, p.node, p.parent, &c)) != CC_OK) break;
        /* Children pushed last first, so that they come off in order. */
        int nested = 0;
        for (cc_xml_node* ch = p.node->first_child; ch; ch = ch->next) nested += !strcmp(ch->name, "default");
        if (!cc_reserve((void**)&stack, &capacity, count + nested, sizeof *stack)) {
            s = mjcf_out_of_memory();
            break;
        }
        int at = count + nested;
        for (cc_xml_node* ch = p.node->first_child; ch; ch = ch->next)
            if (!strcmp(ch->name, "default")) stack[--at] = (pending){ch, c};
        count += nested;
    }
    cc_host_free(stack);
    return s;
}

/* The class of an element: its `class`, else the enclosing childclass, else main. */
cc_status mjcf_class_of(const mj_loader* L, cc_xml_node* n, const mj_class* childclass, const mj_class** out)
{
    const char* name = cc_xml_attr_get(n, "class");
    if (name) {
        *out = mjcf_find_class(L, name);
        if (!*out) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<%s class=\"%s\">: no default class of that name", n->name, name);
        return CC_OK;
    }
    *out = childclass ? childclass : mjcf_find_class(L, "main");
    return CC_OK;
}

