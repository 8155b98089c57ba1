/* Helpers shared by the host sources: error reporting, logging, checked
 * host allocation. Not part of the public API. */
#ifndef CC_HOST_INTERNAL_H
#define CC_HOST_INTERNAL_H

#include <stddef.h>

#include "cucontact/cucontact.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Records the message for cc_last_error_message and returns status. */
cc_status cc_fail(cc_status status, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Clears the last error and returns CC_OK. */
cc_status cc_ok(void);

/* Text put before every cc_log message of this thread until cleared
 * (NULL), so that a loader can say which of its elements a builder message
 * is about. */
void cc_log_set_context(const char* context);
/* Sends a message to the user's log callback, if any. */
void cc_log(cc_log_level level, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Counts one allocation for cc_allocation_count. */
void cc_count_allocation(void);

/* Host allocation; NULL on failure (callers report CC_ERR_OUT_OF_MEMORY). */
void* cc_host_alloc(size_t bytes);
void* cc_host_calloc(size_t count, size_t size);
void* cc_host_realloc(void* p, size_t bytes);
void cc_host_free(void* p);

/* Grows a dynamic array so that it holds at least `needed` items. */
int cc_reserve(void** items, int* capacity, int needed, size_t item_size);

int cc_is_finite_vec3(cc_vec3 v);
int cc_is_finite_transform(cc_transform t);

#ifdef __cplusplus
}
#endif

#endif
