/* The MJCF loader's failures at file:line and attribute values: an element's own attribute or its class default,
 * numbers, integers and lists. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/assets/mjcf_internal.h"

cc_status mjcf_out_of_memory(void) { return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_load_mjcf: out of host memory"); }

/* Fails with "file:line: message". */
cc_status mjcf_fail_at(cc_status s, const char* file, int line, const char* format, ...)
{
    char msg[400];
    va_list args;
    va_start(args, format);
    vsnprintf(msg, sizeof msg, format, args);
    va_end(args);
    return cc_fail(s, "%s:%d: %s", file, line, msg);
}

/* Re-labels a builder failure with the element that caused it. */
cc_status mjcf_relabel(cc_status s, const cc_xml_node* n)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s", cc_last_error_message());
    return mjcf_fail_at(s, n->file, n->line, "<%s>: %s", n->name, msg);
}

int mjcf_in_list(const char* name, const char* const* list)
{
    for (; *list; ++list)
        if (!strcmp(name, *list)) return 1;
    return 0;
}

/* ---- attribute values ---------------------------------------------------------- */

/* The element's own attribute, else its class default. */
int mjcf_get_attr(cc_xml_node* n, const mj_class* c, const char* kind, const char* name, mj_attr* out)
{
    const char* v = cc_xml_attr_get(n, name);
    if (v) {
        out->value = v, out->file = n->file, out->line = n->line;
    } else {
        if (!c) return 0;
        int i;
        for (i = c->count - 1; i >= 0; --i)
            if (!strcmp(c->attrs[i].kind, kind) && !strcmp(c->attrs[i].name, name)) break;
        if (i < 0) return 0;
        out->value = c->attrs[i].value, out->file = c->attrs[i].file, out->line = c->attrs[i].line;
    }
    out->kind = kind;
    out->name = name;
    return 1;
}

/* strtod for one decimal number of an attribute: hexadecimal forms
 * (0x10, which MuJoCo's parser does not read), infinities, NaN and values
 * beyond float's range (1e39 is finite in the file but not as a float) are
 * refused: *why says which, and the result is 0. */
static double decimal_number(const char* p, char** end, const char** why)
{
    *why = NULL;
    const char* q = p;
    if (*q == '+' || *q == '-') q++;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
        *why = "is hexadecimal; write it in decimal";
        strtod(p, end);
        return 0.0;
    }
    double v = strtod(p, end);
    if (!isfinite(v)) *why = "is not a finite number";
    else if (fabs(v) > 3.4028234e38) *why = "exceeds the range of a float (3.4e38)";
    return *why ? 0.0 : v;
}

/* Parses between min_count and max_count numbers (max_count <= MAX_NUMBERS). */
cc_status mjcf_parse_numbers(const mj_attr* a, double* out, int min_count, int max_count, int* count)
{
    const char* p = a->value;
    int n = 0;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char* end;
        const char* why;
        double v = decimal_number(p, &end, &why);
        if (end == p || (*end && !isspace((unsigned char)*end)) || why) {
            int len = 0;
            while (p[len] && !isspace((unsigned char)p[len]) && len < 40) len++;
            return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: '%.*s' %s", a->kind,
                           a->name, a->value, len, p, why ? why : "is not a finite number");
        }
        if (n == max_count)
            return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: too many numbers; expected %s%d", a->kind,
                           a->name, a->value, min_count == max_count ? "" : "at most ", max_count);
        out[n++] = v;
        p = end;
    }
    if (n < min_count)
        return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: expected %s%d numbers, found %d", a->kind,
                       a->name, a->value, min_count == max_count ? "" : "at least ", min_count, n);
    if (count) *count = n;
    return CC_OK;
}

/* Reads `name` as `count` numbers if present; *found tells whether it was. */
cc_status mjcf_read_vector(cc_xml_node* n, const mj_class* c, const char* kind, const char* name, double* out,
                             int count, int* found)
{
    mj_attr a;
    *found = mjcf_get_attr(n, c, kind, name, &a);
    return *found ? mjcf_parse_numbers(&a, out, count, count, NULL) : CC_OK;
}

cc_status mjcf_parse_int(const mj_attr* a, long long lo, long long hi, long long* out)
{
    const char* p = a->value;
    while (isspace((unsigned char)*p)) p++;
    char* end;
    long long v = strtoll(p, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (end == p || *end)
        return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: not an integer", a->kind, a->name, a->value);
    if (v < lo || v > hi)
        return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: %lld is outside %lld..%lld", a->kind, a->name,
                       a->value, v, lo, hi);
    *out = v;
    return CC_OK;
}

int mjcf_parse_bool(const char* v) { return !strcmp(v, "true"); }

/* Reads a whitespace-separated list of vertex indices (integers) or
 * finite numbers, into cc_host_alloc'd ints or floats. */
static cc_status parse_list(const mj_attr* a, int integers, void** out, int* count)
{
    int cap = 0, n = 0;
    char* list = NULL;
    size_t size = integers ? sizeof(int) : sizeof(float);
    const char* p = a->value;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char* end;
        long iv = 0;
        double fv = 0.0;
        int ok;
        if (integers) {
            iv = strtol(p, &end, 10);
            ok = iv >= 0 && iv <= INT32_MAX / 4;
        } else {
            const char* why;
            fv = decimal_number(p, &end, &why);
            ok = why == NULL;
        }
        if (end == p || (*end && !isspace((unsigned char)*end)) || !ok) {
            cc_host_free(list);
            return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s>: '%.20s' is not %s", a->kind, a->name, p,
                           integers ? "a vertex index" : "a finite number");
        }
        if (!cc_reserve((void**)&list, &cap, n + 1, size)) {
            cc_host_free(list);
            return mjcf_out_of_memory();
        }
        if (integers) ((int*)list)[n++] = (int)iv;
        else ((float*)list)[n++] = (float)fv;
        p = end;
    }
    *out = list;
    *count = n;
    return CC_OK;
}

cc_status mjcf_parse_int_list(const mj_attr* a, int** out, int* count)
{
    return parse_list(a, 1, (void**)out, count);
}

cc_status mjcf_parse_float_list(const mj_attr* a, float** out, int* count)
{
    return parse_list(a, 0, (void**)out, count);
}
