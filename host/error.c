/* Status names, the per-thread last error message, and the log callback. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/internal.h"

static _Thread_local char last_error[512];
static cc_log_fn log_fn;
static void* log_user;

const char* cc_status_string(cc_status status)
{
    switch (status) {
    case CC_OK: return "CC_OK";
    case CC_ERR_INVALID_ARGUMENT: return "CC_ERR_INVALID_ARGUMENT";
    case CC_ERR_INVALID_SIZE: return "CC_ERR_INVALID_SIZE";
    case CC_ERR_NOT_FINITE: return "CC_ERR_NOT_FINITE";
    case CC_ERR_INVALID_BODY: return "CC_ERR_INVALID_BODY";
    case CC_ERR_UNSUPPORTED: return "CC_ERR_UNSUPPORTED";
    case CC_ERR_WORLD_OUT_OF_RANGE: return "CC_ERR_WORLD_OUT_OF_RANGE";
    case CC_ERR_INVALID_CAPACITY: return "CC_ERR_INVALID_CAPACITY";
    case CC_ERR_NO_DEVICE: return "CC_ERR_NO_DEVICE";
    case CC_ERR_OUT_OF_MEMORY: return "CC_ERR_OUT_OF_MEMORY";
    case CC_ERR_CUDA: return "CC_ERR_CUDA";
    case CC_ERR_INVALID_STATE: return "CC_ERR_INVALID_STATE";
    case CC_ERR_UNINITIALIZED_DEF: return "CC_ERR_UNINITIALIZED_DEF";
    case CC_ERR_MISMATCH: return "CC_ERR_MISMATCH";
    case CC_ERR_INVALID_SHAPE: return "CC_ERR_INVALID_SHAPE";
    case CC_ERR_IO: return "CC_ERR_IO";
    case CC_ERR_PARSE: return "CC_ERR_PARSE";
    }
    return "CC_ERR_UNKNOWN";
}

const char* cc_shape_type_name(cc_shape_type type)
{
    static const char* names[CC_SHAPE_TYPE_COUNT] = {
        "plane", "sphere", "capsule", "box", "cylinder", "cone",
        "ellipsoid", "convex hull", "mesh", "heightfield", "sdf"};
    if ((int)type < 0 || type >= CC_SHAPE_TYPE_COUNT) return "unknown";
    return names[type];
}

const char* cc_broad_phase_name(cc_broad_phase b)
{
    switch (b) {
    case CC_BROAD_PHASE_AUTO: return "auto";
    case CC_BROAD_PHASE_NXN: return "nxn";
    case CC_BROAD_PHASE_SAP: return "sap";
    case CC_BROAD_PHASE_EXPLICIT: return "explicit";
    }
    return "unknown";
}

const char* cc_last_error_message(void) { return last_error; }

cc_status cc_fail(cc_status status, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof last_error, format, args);
    va_end(args);
    return status;
}

cc_status cc_ok(void)
{
    last_error[0] = '\0';
    return CC_OK;
}

void cc_set_log_callback(cc_log_fn fn, void* user)
{
    log_fn = fn;
    log_user = user;
}

static _Thread_local char log_context[512];

void cc_log_set_context(const char* context)
{
    snprintf(log_context, sizeof log_context, "%s", context ? context : "");
}

void cc_log(cc_log_level level, const char* format, ...)
{
    if (!log_fn) return;
    char message[768];
    size_t n = 0;
    if (log_context[0]) n = (size_t)snprintf(message, sizeof message, "%s: ", log_context);
    va_list args;
    va_start(args, format);
    vsnprintf(message + n, sizeof message - n, format, args);
    va_end(args);
    log_fn(level, message, log_user);
}

void* cc_host_alloc(size_t bytes)
{
    cc_count_allocation();
    return malloc(bytes ? bytes : 1);
}
void* cc_host_calloc(size_t count, size_t size)
{
    cc_count_allocation();
    return calloc(count ? count : 1, size ? size : 1);
}
void* cc_host_realloc(void* p, size_t bytes)
{
    cc_count_allocation();
    return realloc(p, bytes ? bytes : 1);
}
void cc_host_free(void* p) { free(p); }

int cc_reserve(void** items, int* capacity, int needed, size_t item_size)
{
    if (needed <= *capacity) return 1;
    int cap = *capacity ? *capacity : 16;
    while (cap < needed) cap = cap > (1 << 29) ? needed : cap * 2;
    void* p = cc_host_realloc(*items, (size_t)cap * item_size);
    if (!p) return 0;
    *items = p;
    *capacity = cap;
    return 1;
}

int cc_is_finite_vec3(cc_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

int cc_is_finite_transform(cc_transform t)
{
    return cc_is_finite_vec3(t.p) && isfinite(t.q.x) && isfinite(t.q.y) && isfinite(t.q.z) &&
           isfinite(t.q.w);
}
