/* A small element tree for the MJCF loader, read with expat: element names,
 * attributes and the file and line each element starts on. Text content is
 * not kept (MJCF carries everything in attributes). Everything lives in one
 * arena freed at once. */
#ifndef CC_HOST_ASSETS_MJCF_XML_H
#define CC_HOST_ASSETS_MJCF_XML_H

#include "host/internal.h"

typedef struct cc_xml_attr {
    const char* name;
    const char* value;
    int used; /* set by the loader when it reads the attribute */
} cc_xml_attr;

typedef struct cc_xml_node {
    const char* name;
    const char* file; /* as given to the parser, for messages */
    int line;
    cc_xml_attr* attrs;
    int attr_count;
    struct cc_xml_node* parent;
    struct cc_xml_node* first_child;
    struct cc_xml_node* last_child;
    struct cc_xml_node* next;
} cc_xml_node;

typedef struct cc_xml_arena_block cc_xml_arena_block;
typedef struct cc_xml_arena {
    cc_xml_arena_block* head;
} cc_xml_arena;

void* cc_xml_arena_alloc(cc_xml_arena* a, size_t bytes);
const char* cc_xml_arena_strdup(cc_xml_arena* a, const char* s);
void cc_xml_arena_free(cc_xml_arena* a);

/* Parses `size` bytes of XML; `file` names them in messages. On failure
 * returns CC_ERR_PARSE (or CC_ERR_OUT_OF_MEMORY) with "file:line: ...". */
cc_status cc_xml_parse(cc_xml_arena* a, const char* text, size_t size, const char* file, cc_xml_node** root);

/* Reads a whole file into a malloc'd, NUL-terminated buffer. CC_ERR_IO with
 * a message naming the file (and `from`, "scene.xml:12", when given). */
cc_status cc_read_file(const char* path, const char* from, char** out, size_t* size);

/* The attribute's value (marking it used), or NULL. */
const char* cc_xml_attr_get(cc_xml_node* n, const char* name);

#endif
