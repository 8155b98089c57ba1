/* cuContact: basic types, status codes and devices shared by every header. */
#ifndef CUCONTACT_TYPES_H
#define CUCONTACT_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every call that can fail. Each failure also sets a sentence
/// readable with cc_last_error_message() saying what was wrong and what to do.
typedef enum cc_status {
    CC_OK = 0,
    CC_ERR_INVALID_ARGUMENT = 1,  ///< null pointer or value outside its documented range
    CC_ERR_INVALID_SIZE = 2,      ///< a shape size or half extent that is zero or negative
    CC_ERR_NOT_FINITE = 3,        ///< NaN or infinity in a pose, size, margin or gap
    CC_ERR_INVALID_BODY = 4,      ///< body index that the builder does not hold
    CC_ERR_UNSUPPORTED = 5,       ///< shape type or feature not available in this build
    CC_ERR_WORLD_OUT_OF_RANGE = 6,///< world index below -1 or not yet created
    CC_ERR_INVALID_CAPACITY = 7,  ///< a buffer capacity of zero or one too large to allocate
    CC_ERR_NO_DEVICE = 8,         ///< the requested device does not exist or CUDA is not built in
    CC_ERR_OUT_OF_MEMORY = 9,     ///< host or device allocation failed
    CC_ERR_CUDA = 10,             ///< a CUDA runtime call failed (the message names it)
    CC_ERR_INVALID_STATE = 11,    ///< call out of order (end_world without begin_world, ...)
    CC_ERR_UNINITIALIZED_DEF = 12,///< a definition struct not made by its cc_default_* function
    CC_ERR_MISMATCH = 13,         ///< objects from different models, pipelines or devices
    CC_ERR_INVALID_SHAPE = 14,    ///< shape index that the builder or model does not hold
    CC_ERR_IO = 15,               ///< a file could not be opened or read (the message names it)
    CC_ERR_PARSE = 16             ///< a file is malformed or holds an invalid value (file:line in the message)
} cc_status;

/// Name of a status code ("CC_ERR_INVALID_SIZE"); never NULL.
const char* cc_status_string(cc_status status);

/// Sentence describing the last failure on this thread ("" after success).
const char* cc_last_error_message(void);

/// Severity passed to the log callback.
typedef enum cc_log_level { CC_LOG_INFO = 0, CC_LOG_WARNING = 1 } cc_log_level;

/// Optional sink for warnings (capacity estimates, slow paths). The library
/// never prints on its own. Pass NULL to remove the callback.
typedef void (*cc_log_fn)(cc_log_level level, const char* message, void* user);
void cc_set_log_callback(cc_log_fn fn, void* user);

/// 3-vector [m or unitless].
typedef struct cc_vec3 {
    float x, y, z;
} cc_vec3;

/// Unit quaternion, scalar last: rotation by angle t about unit axis u is
/// (u*sin(t/2), cos(t/2)).
typedef struct cc_quat {
    float x, y, z, w;
} cc_quat;

/// Rigid transform: rotate by q, then translate by p.
typedef struct cc_transform {
    cc_vec3 p;
    cc_quat q;
} cc_transform;

/// Shape types. Values are stable. SDF is reserved and rejected with
/// CC_ERR_UNSUPPORTED. Pairs are stored with the lower type first, so a plane
/// is always shape 0 of its contacts and a mesh or heightfield shape 1 (of
/// two meshes, the lower shape index is shape 0).
typedef enum cc_shape_type {
    CC_SHAPE_PLANE = 0,       ///< size: (half extent x, half extent y, 0); zeros mean infinite
    CC_SHAPE_SPHERE = 1,      ///< size: (radius, 0, 0)
    CC_SHAPE_CAPSULE = 2,     ///< size: (radius, half height of the segment along local z, 0)
    CC_SHAPE_BOX = 3,         ///< size: half extents
    CC_SHAPE_CYLINDER = 4,    ///< size: (radius, half height along local z, 0)
    CC_SHAPE_CONE = 5,        ///< size: (base radius, half height, 0); base at z = -h, apex at +h
    CC_SHAPE_ELLIPSOID = 6,   ///< size: semi-axes along local x, y, z
    CC_SHAPE_CONVEX_HULL = 7, ///< size: scale of the hull's points per local axis
    CC_SHAPE_MESH = 8,        ///< size: scale of the mesh's vertices per local axis
    CC_SHAPE_HEIGHTFIELD = 9, ///< size: (half extent x, half extent y, vertical scale); static only
    CC_SHAPE_SDF = 10,        ///< reserved
    CC_SHAPE_TYPE_COUNT = 11
} cc_shape_type;

/// Name of a shape type ("box"); never NULL.
const char* cc_shape_type_name(cc_shape_type type);

/// Where a model and its pipelines live.
typedef enum cc_device_kind { CC_DEVICE_CPU = 0, CC_DEVICE_CUDA = 1 } cc_device_kind;

typedef struct cc_device {
    cc_device_kind kind;
    int ordinal; ///< CUDA device ordinal; ignored on the CPU
} cc_device;

/// The CPU backend.
cc_device cc_device_cpu(void);
/// CUDA device number `ordinal`.
cc_device cc_device_cuda(int ordinal);
/// Number of CUDA devices visible (0 when CUDA is not built in or none exists).
int cc_cuda_device_count(void);

/// Name of a device and its peak memory bandwidth [GB/s] (0 when unknown,
/// and always for the CPU). `name` receives at most name_size bytes.
cc_status cc_device_describe(cc_device device, char* name, size_t name_size, double* peak_gbps);

/// Number of buffer allocations the library has made so far, host and
/// device, for checking that cc_collide allocates nothing.
int64_t cc_allocation_count(void);

/// A CUDA stream (cudaStream_t) passed as an opaque pointer so that host C
/// code needs no CUDA header. NULL is the default stream. Ignored on the CPU.
typedef void* cc_stream;

#ifdef __cplusplus
}
#endif

#endif
