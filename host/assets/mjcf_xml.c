/* Builds the element tree of host/assets/mjcf_xml.h with expat. */
#include <errno.h>
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/assets/mjcf_xml.h"

#define ARENA_BLOCK_BYTES ((size_t)64 << 10)

struct cc_xml_arena_block {
    cc_xml_arena_block* next;
    size_t used, size;
    /* data follows, aligned to 16 bytes */
};

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

void* cc_xml_arena_alloc(cc_xml_arena* a, size_t bytes)
{
    bytes = align16(bytes ? bytes : 1);
    cc_xml_arena_block* b = a->head;
    if (!b || b->size - b->used < bytes) {
        size_t size = bytes > ARENA_BLOCK_BYTES ? bytes : ARENA_BLOCK_BYTES;
        b = (cc_xml_arena_block*)cc_host_alloc(align16(sizeof *b) + size);
        if (!b) return NULL;
        b->next = a->head;
        b->used = 0;
        b->size = size;
        a->head = b;
    }
    void* p = (char*)b + align16(sizeof *b) + b->used;
    b->used += bytes;
    return p;
}

const char* cc_xml_arena_strdup(cc_xml_arena* a, const char* s)
{
    size_t n = strlen(s) + 1;
    char* p = (char*)cc_xml_arena_alloc(a, n);
    if (p) memcpy(p, s, n);
    return p;
}

void cc_xml_arena_free(cc_xml_arena* a)
{
    while (a->head) {
        cc_xml_arena_block* next = a->head->next;
        cc_host_free(a->head);
        a->head = next;
    }
}

typedef struct parse_state {
    XML_Parser parser;
    cc_xml_arena* arena;
    const char* file;
    cc_xml_node* root;
    cc_xml_node* current;
    int out_of_memory;
} parse_state;

static void XMLCALL on_start(void* user, const XML_Char* name, const XML_Char** attrs)
{
    parse_state* ps = (parse_state*)user;
    if (ps->out_of_memory) return;
    cc_xml_node* n = (cc_xml_node*)cc_xml_arena_alloc(ps->arena, sizeof *n);
    int count = 0;
    while (attrs[2 * count]) count++;
    cc_xml_attr* list = (cc_xml_attr*)cc_xml_arena_alloc(ps->arena, sizeof(cc_xml_attr) * (size_t)(count + 1));
    if (!n || !list) {
        ps->out_of_memory = 1;
        XML_StopParser(ps->parser, XML_FALSE);
        return;
    }
    memset(n, 0, sizeof *n);
    n->name = cc_xml_arena_strdup(ps->arena, name);
    n->file = ps->file;
    n->line = (int)XML_GetCurrentLineNumber(ps->parser);
    n->attrs = list;
    n->attr_count = count;
    for (int i = 0; i < count; ++i) {
        list[i].name = cc_xml_arena_strdup(ps->arena, attrs[2 * i]);
        list[i].value = cc_xml_arena_strdup(ps->arena, attrs[2 * i + 1]);
        list[i].used = 0;
        if (!list[i].name || !list[i].value) ps->out_of_memory = 1;
    }
    if (!n->name || ps->out_of_memory) {
        ps->out_of_memory = 1;
        XML_StopParser(ps->parser, XML_FALSE);
        return;
    }
    n->parent = ps->current;
    if (ps->current) {
        if (ps->current->last_child) ps->current->last_child->next = n;
        else ps->current->first_child = n;
        ps->current->last_child = n;
    } else {
        ps->root = n;
    }
    ps->current = n;
}

static void XMLCALL on_end(void* user, const XML_Char* name)
{
    (void)name;
    parse_state* ps = (parse_state*)user;
    if (ps->current) ps->current = ps->current->parent;
}

cc_status cc_xml_parse(cc_xml_arena* a, const char* text, size_t size, const char* file, cc_xml_node** root)
{
    XML_Parser p = XML_ParserCreate(NULL);
    if (!p) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of memory creating the XML parser", file);
    parse_state ps;
    memset(&ps, 0, sizeof ps);
    ps.parser = p;
    ps.arena = a;
    ps.file = cc_xml_arena_strdup(a, file);
    XML_SetUserData(p, &ps);
    XML_SetElementHandler(p, on_start, on_end);
    cc_status s = CC_OK;
    if (!ps.file) {
        s = cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of memory", file);
    } else if (XML_Parse(p, text, (int)size, XML_TRUE) == XML_STATUS_ERROR || ps.out_of_memory) {
        if (ps.out_of_memory) s = cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of memory while reading the XML", file);
        else
            s = cc_fail(CC_ERR_PARSE, "%s:%lu: malformed XML: %s", file, (unsigned long)XML_GetCurrentLineNumber(p),
                        XML_ErrorString(XML_GetErrorCode(p)));
    } else if (!ps.root) {
        s = cc_fail(CC_ERR_PARSE, "%s:1: malformed XML: no root element", file);
    }
    XML_ParserFree(p);
    if (s == CC_OK) *root = ps.root;
    return s;
}

cc_status cc_read_file(const char* path, const char* from, char** out, size_t* size)
{
    char where[600] = "";
    if (from) snprintf(where, sizeof where, "%s: ", from);
    FILE* f = fopen(path, "rb");
    if (!f) return cc_fail(CC_ERR_IO, "%scannot open '%s': %s", where, path, strerror(errno));
    char* buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 65536) {
            size_t grown = cap ? cap * 2 : 65536;
            char* p = (char*)cc_host_realloc(buf, grown + 1);
            if (!p) {
                cc_host_free(buf);
                fclose(f);
                return cc_fail(CC_ERR_OUT_OF_MEMORY, "%sout of memory reading '%s'", where, path);
            }
            buf = p;
            cap = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        cc_host_free(buf);
        return cc_fail(CC_ERR_IO, "%serror reading '%s'", where, path);
    }
    buf[n] = '\0';
    *out = buf;
    *size = n;
    return CC_OK;
}

const char* cc_xml_attr_get(cc_xml_node* n, const char* name)
{
    for (int i = 0; i < n->attr_count; ++i)
        if (!strcmp(n->attrs[i].name, name)) {
            n->attrs[i].used = 1;
            return n->attrs[i].value;
        }
    return NULL;
}
