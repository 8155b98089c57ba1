/* Device selection and the counted allocation every library buffer goes
 * through. */
#include <stdio.h>

#include "host/backend/backend.h"
#include "host/backend/cpu/threads.h"

static int64_t allocation_count;

int64_t cc_allocation_count(void) { return allocation_count; }

void cc_count_allocation(void) { allocation_count++; }

/* The CPU backend's alloc goes through cc_host_calloc, which counts itself. */
cc_status cc_device_alloc(const cc_backend* be, size_t bytes, void** out)
{
    if (be != cc_backend_cpu()) cc_count_allocation();
    return be->alloc(bytes, out);
}

cc_device cc_device_cpu(void)
{
    cc_device d = {CC_DEVICE_CPU, 0};
    return d;
}

cc_device cc_device_cuda(int ordinal)
{
    cc_device d = {CC_DEVICE_CUDA, ordinal};
    return d;
}

#ifndef CC_WITH_CUDA
const cc_backend* cc_backend_cuda(void) { return NULL; }
int cc_cuda_device_count(void) { return 0; }
cc_status cc_cuda_describe(int ordinal, char* name, size_t name_size, double* peak_gbps)
{
    (void)ordinal;
    (void)name;
    (void)name_size;
    (void)peak_gbps;
    return cc_fail(CC_ERR_NO_DEVICE, "this library was built without CUDA");
}
#endif

cc_status cc_device_describe(cc_device device, char* name, size_t name_size, double* peak_gbps)
{
    const cc_backend* be;
    cc_status s = cc_backend_for(device, &be);
    if (s != CC_OK) return s;
    if (device.kind == CC_DEVICE_CPU) {
        if (name && name_size) snprintf(name, name_size, "cpu");
        if (peak_gbps) *peak_gbps = 0.0;
        return cc_ok();
    }
    s = cc_cuda_describe(device.ordinal, name, name_size, peak_gbps);
    return s == CC_OK ? cc_ok() : s;
}

cc_status cc_backend_for(cc_device device, const cc_backend** out)
{
    if (device.kind == CC_DEVICE_CPU) {
        cc_status s = cc_cpu_threads_check();
        if (s != CC_OK) return s;
        *out = cc_backend_cpu();
        return CC_OK;
    }
    if (device.kind != CC_DEVICE_CUDA)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "device kind %d is neither CC_DEVICE_CPU nor CC_DEVICE_CUDA", (int)device.kind);
    const cc_backend* be = cc_backend_cuda();
    if (!be)
        return cc_fail(CC_ERR_NO_DEVICE, "CUDA device %d was requested but this library was built without CUDA; rebuild with -DCUCONTACT_CUDA=ON or use CC_DEVICE_CPU", device.ordinal);
    int n = cc_cuda_device_count();
    if (n == 0)
        return cc_fail(CC_ERR_NO_DEVICE, "CUDA device %d was requested but no CUDA device is visible; use CC_DEVICE_CPU", device.ordinal);
    if (device.ordinal < 0 || device.ordinal >= n)
        return cc_fail(CC_ERR_NO_DEVICE, "CUDA device %d does not exist (%d visible); pick an ordinal below %d or use CC_DEVICE_CPU", device.ordinal, n, n);
    cc_status s = be->open_device(device.ordinal);
    if (s != CC_OK) return s;
    *out = be;
    return CC_OK;
}
