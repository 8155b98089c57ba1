/* The MJCF loader's notes: what it skips or reads differently from MuJoCo.
 * Each kind of note is counted; at the end of a load one line per kind goes
 * to the log callback with the count and the first place, and the
 * attributes that have no meaning for collisions (rgba, damping, ...) share
 * one line, so that the notes that change collisions stand out. With
 * report_every_note each occurrence is logged where it occurs instead. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "host/assets/mjcf_internal.h"

static void note_add(mj_loader* L, const char* key, cc_log_level level, int grouped, const char* file, int line,
                     const char* message)
{
    if (L->opt.report_every_note) {
        cc_log(level, "mjcf: %s:%d: %s", file, line, message);
        return;
    }
    for (int i = 0; i < L->note_count; ++i)
        if (!strcmp(L->notes[i].key, key)) {
            L->notes[i].count++;
            return;
        }
    if (!cc_reserve((void**)&L->notes, &L->note_capacity, L->note_count + 1, sizeof *L->notes)) return;
    mj_note* n = &L->notes[L->note_count];
    n->key = cc_xml_arena_strdup(&L->arena, key);
    n->message = cc_xml_arena_strdup(&L->arena, message);
    if (!n->key || !n->message) return;
    n->file = file;
    n->line = line;
    n->count = 1;
    n->level = level;
    n->grouped = grouped;
    L->note_count++;
}

void mjcf_note(mj_loader* L, const char* key, cc_log_level level, const char* file, int line, const char* format, ...)
{
    char msg[480];
    va_list args;
    va_start(args, format);
    vsnprintf(msg, sizeof msg, format, args);
    va_end(args);
    note_add(L, key, level, 0, file, line, msg);
}

void mjcf_report_element(mj_loader* L, const cc_xml_node* n, const char* why, cc_log_level level)
{
    char key[160], msg[400];
    snprintf(key, sizeof key, "<%s>", n->name);
    snprintf(msg, sizeof msg, "<%s> is %s; skipped", n->name, why);
    note_add(L, key, level, 0, n->file, n->line, msg);
}

void mjcf_report_unknown_attrs(mj_loader* L, const cc_xml_node* n, const char* kind, const char* const* known)
{
    for (int i = 0; i < n->attr_count; ++i) {
        if (mjcf_in_list(n->attrs[i].name, known)) continue;
        char key[200], msg[300];
        snprintf(key, sizeof key, "%s %s", kind, n->attrs[i].name);
        snprintf(msg, sizeof msg, "attribute '%s' of <%s> has no meaning for collisions; ignored", n->attrs[i].name, kind);
        note_add(L, key, CC_LOG_INFO, 1, n->file, n->line, msg);
    }
}

void mjcf_flush_notes(mj_loader* L)
{
    for (int i = 0; i < L->note_count; ++i) {
        const mj_note* n = &L->notes[i];
        if (n->grouped) continue;
        if (n->count == 1) cc_log(n->level, "mjcf: %s (at %s:%d)", n->message, n->file, n->line);
        else cc_log(n->level, "mjcf: %s (%d times, first at %s:%d)", n->message, n->count, n->file, n->line);
    }
    /* One line for the ignored attributes: "geom rgba x37, joint damping x12". */
    char line[700];
    int kinds = 0, total = 0;
    size_t used = 0;
    for (int i = 0; i < L->note_count; ++i)
        if (L->notes[i].grouped) kinds++, total += L->notes[i].count;
    if (!kinds) return;
    int listed = 0;
    for (int i = 0; i < L->note_count && used + 40 < sizeof line; ++i) {
        if (!L->notes[i].grouped) continue;
        int w = snprintf(line + used, sizeof line - used, "%s%s x%d", listed ? ", " : "", L->notes[i].key, L->notes[i].count);
        if (w < 0 || used + (size_t)w >= sizeof line - 40) break;
        used += (size_t)w;
        listed++;
    }
    line[used] = '\0';
    cc_log(CC_LOG_INFO, "mjcf: %d attribute%s of %d kind%s with no meaning for collisions ignored: %s%s (report_every_note or --verbose lists each)",
           total, total == 1 ? "" : "s", kinds, kinds == 1 ? "" : "s", line, listed < kinds ? ", ..." : "");
}
