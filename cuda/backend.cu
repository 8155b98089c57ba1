// The CUDA backend: device memory, events, and the stage dispatch. Each
// stage is a thin __global__ wrapper (in its own .cu file) around the
// kernel body in kernels/.
#include <cstdio>

#include "cuda/launch.h"

extern "C" int cc_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

static cc_status cuda_open_device(int ordinal) { return cc_cuda_status(cudaSetDevice(ordinal), "cudaSetDevice"); }

static cc_status cuda_activate(int ordinal)
{
    int current = -1;
    cudaError_t e = cudaGetDevice(&current);
    if (e == cudaSuccess && current == ordinal) return CC_OK;
    return cc_cuda_status(cudaSetDevice(ordinal), "cudaSetDevice");
}

/* Creation-time memsets and pageable copies run on the legacy default
 * stream, which non-blocking streams (the library's own capture stream, a
 * framework's stream) do not wait for, and a pageable host-to-device copy
 * may return before its data has arrived. Waiting for the legacy stream
 * before returning means every later launch, on any stream, sees the data. */
static cc_status cuda_settle(const char* what)
{
    return cc_cuda_status(cudaStreamSynchronize(cudaStreamLegacy), what);
}

static cc_status cuda_alloc(size_t bytes, void** out)
{
    cudaError_t e = cudaMalloc(out, bytes);
    if (e != cudaSuccess) {
        cudaGetLastError(); /* clears this call's own error, which is reported here */
        *out = nullptr;
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cudaMalloc of %zu bytes failed: %s; lower the capacities", bytes, cudaGetErrorString(e));
    }
    cc_status s = cc_cuda_status(cudaMemset(*out, 0, bytes), "cudaMemset");
    return s == CC_OK ? cuda_settle("cudaMemset") : s;
}

static void cuda_free(void* p) { cudaFree(p); }

static cc_status cuda_upload(void* dst, const void* src, size_t bytes)
{
    if (!bytes) return CC_OK;
    cc_status s = cc_cuda_status(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to device");
    return s == CC_OK ? cuda_settle("cudaMemcpy to device") : s;
}

static cc_status cuda_download(void* dst, const void* src, size_t bytes)
{
    cc_status s = cc_cuda_status(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    if (s != CC_OK || !bytes) return s;
    return cc_cuda_status(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}

static cc_status cuda_run_stage(cc_stage stage, const cc_pass_view* v, cc_stream stream)
{
    cudaStream_t s = cc_cuda_stream(stream);
    switch (stage) {
    case CC_STAGE_CLEAR_COUNTERS:
        return cc_cuda_status(cudaMemsetAsync(v->counters, 0, sizeof(cc_pass_counters), s), "cudaMemsetAsync");
    case CC_STAGE_SHAPE_BOUNDS: return cc_cuda_shape_bounds(v, s);
    case CC_STAGE_NXN: return cc_cuda_broadphase_nxn(v, s);
    case CC_STAGE_EXPLICIT: return cc_cuda_broadphase_explicit(v, s);
    case CC_STAGE_SAP_AXIS: return cc_cuda_sap_axis(v, s);
    case CC_STAGE_SAP_PROJECT: return cc_cuda_sap_project(v, s);
    case CC_STAGE_SAP_SORT: return cc_cuda_sap_sort(v, s);
    case CC_STAGE_SAP_GATHER: return cc_cuda_sap_gather(v, s);
    case CC_STAGE_SAP_SWEEP: return cc_cuda_sap_sweep(v, s);
    case CC_STAGE_ROUTE_GROUP: return cc_cuda_route_group(v, s);
    case CC_STAGE_NARROWPHASE: {
        cc_status st = cc_cuda_narrowphase_analytic(v, s);
        return st == CC_OK ? cc_cuda_narrowphase_convex(v, s) : st;
    }
    case CC_STAGE_TOI_LINK: return cc_cuda_toi_link(v, s);
    case CC_STAGE_TOI: return cc_cuda_toi(v, s);
    case CC_STAGE_MESH_MIDPHASE: return cc_cuda_mesh_midphase(v, s);
    case CC_STAGE_MESH_CLEAR_SLOTS: return cc_cuda_mesh_clear_slots(v, s);
    case CC_STAGE_MESH_GROUP: return cc_cuda_mesh_group(v, s);
    case CC_STAGE_MESH_CONTACTS:
    case CC_STAGE_MESH_EMIT: {
        int emit = stage == CC_STAGE_MESH_EMIT;
        cc_status st = cc_cuda_mesh_sphere_items(v, emit, s);
        if (st == CC_OK) st = cc_cuda_mesh_convex_items(v, emit, s);
        if (st == CC_OK) st = cc_cuda_mesh_vertex_items(v, emit, s);
        if (st == CC_OK) st = emit ? cc_cuda_mesh_sdf_emit(v, s) : cc_cuda_mesh_sdf_items(v, s);
        return st;
    }
    case CC_STAGE_FINALIZE: return cc_cuda_finalize(v, s);
    case CC_STAGE_KEYS_CLEAR: return cc_cuda_keys_clear(v, s);
    case CC_STAGE_CONTACT_SORT: return cc_cuda_contact_sort(v, s);
    case CC_STAGE_CONTACT_GATHER: return cc_cuda_contact_gather(v, s);
    case CC_STAGE_MATCH: return cc_cuda_match(v, s);
    case CC_STAGE_REPORT: return cc_cuda_report(v, s);
    case CC_STAGE_MATCH_SAVE: return cc_cuda_match_save(v, s);
    }
    return cc_fail(CC_ERR_INVALID_ARGUMENT, "unknown stage %d", (int)stage);
}

static cc_status cuda_timer_create(void** timer)
{
    cudaEvent_t e;
    cc_status s = cc_cuda_status(cudaEventCreate(&e), "cudaEventCreate");
    *timer = s == CC_OK ? (void*)e : nullptr;
    return s;
}

static void cuda_timer_destroy(void* timer) { cudaEventDestroy((cudaEvent_t)timer); }

static cc_status cuda_timer_record(void* timer, cc_stream stream)
{
    return cc_cuda_status(cudaEventRecord((cudaEvent_t)timer, cc_cuda_stream(stream)), "cudaEventRecord");
}

static cc_status cuda_timer_elapsed(void* start, void* end, double* ms)
{
    float f = 0.0f;
    cc_status s = cc_cuda_status(cudaEventElapsedTime(&f, (cudaEvent_t)start, (cudaEvent_t)end), "cudaEventElapsedTime");
    *ms = f;
    return s;
}

static cc_status cuda_synchronize(cc_stream stream)
{
    return cc_cuda_status(cudaStreamSynchronize(cc_cuda_stream(stream)), "cudaStreamSynchronize");
}

static cc_status cuda_run_step_stage(cc_step_stage stage, const cc_step_view* v, cc_stream stream)
{
    return cc_cuda_step_stage(stage, v, cc_cuda_stream(stream));
}

static cc_status cuda_copy_async(void* dst, const void* src, size_t bytes, cc_stream stream)
{
    if (!bytes) return CC_OK;
    return cc_cuda_status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, cc_cuda_stream(stream)),
                      "cudaMemcpyAsync");
}

// Thread-local capture: other host threads may keep using CUDA meanwhile.
static cc_status cuda_capture_begin(cc_stream stream)
{
    return cc_cuda_status(cudaStreamBeginCapture(cc_cuda_stream(stream), cudaStreamCaptureModeThreadLocal),
                      "cudaStreamBeginCapture");
}

static cc_status cuda_capture_end_graph(cc_stream stream, void** graph)
{
    cudaGraph_t g = nullptr;
    cc_status s = cc_cuda_status(cudaStreamEndCapture(cc_cuda_stream(stream), &g), "cudaStreamEndCapture");
    *graph = s == CC_OK ? (void*)g : nullptr;
    return s;
}

static cc_status cuda_graph_instantiate(void* graph, void** exec)
{
    cudaGraphExec_t instance = nullptr;
    cc_status s = cc_cuda_status(cudaGraphInstantiate(&instance, (cudaGraph_t)graph, 0), "cudaGraphInstantiate");
    cudaGraphDestroy((cudaGraph_t)graph);
    *exec = s == CC_OK ? (void*)instance : nullptr;
    return s;
}

static void cuda_graph_release(void* graph) { cudaGraphDestroy((cudaGraph_t)graph); }

static cc_status cuda_capture_end(cc_stream stream, void** exec)
{
    void* graph = nullptr;
    cc_status s = cuda_capture_end_graph(stream, &graph);
    if (s == CC_OK) s = cuda_graph_instantiate(graph, exec);
    return s;
}

static cc_status cuda_graph_launch(void* exec, cc_stream stream)
{
    return cc_cuda_status(cudaGraphLaunch((cudaGraphExec_t)exec, cc_cuda_stream(stream)), "cudaGraphLaunch");
}

static void cuda_graph_destroy(void* exec) { cudaGraphExecDestroy((cudaGraphExec_t)exec); }

static cc_status cuda_stream_create(cc_stream* out)
{
    cudaStream_t s = nullptr;
    cc_status st = cc_cuda_status(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    *out = st == CC_OK ? (cc_stream)s : nullptr;
    return st;
}

static void cuda_stream_destroy(cc_stream stream) { cudaStreamDestroy(cc_cuda_stream(stream)); }

static cc_status cuda_run_schedule_stage(cc_schedule_stage stage, const cc_schedule_view* v, cc_stream stream)
{
    return cc_cuda_schedule_stage(stage, v, cc_cuda_stream(stream));
}

// Conditional nodes (CUDA 12.4 and later): the frame graph of the collision
// sub-step scheduler runs each collision pass in an IF node whose value a
// decision kernel sets. The node is appended to the capture by hand; its
// body is filled afterwards by capturing another stream into it.
#if CUDART_VERSION >= 12040
static cc_status cuda_capture_condition(cc_stream stream, unsigned long long* handle)
{
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    cudaGraph_t graph = nullptr;
    cc_status s = cc_cuda_status(cudaStreamGetCaptureInfo(cc_cuda_stream(stream), &status, nullptr, &graph),
                                 "cudaStreamGetCaptureInfo");
    if (s != CC_OK) return s;
    if (status != cudaStreamCaptureStatusActive || !graph)
        return cc_fail(CC_ERR_CUDA, "conditional capture: the stream is not capturing");
    cudaGraphConditionalHandle h = 0;
    s = cc_cuda_status(cudaGraphConditionalHandleCreate(&h, graph, 0, 0), "cudaGraphConditionalHandleCreate");
    *handle = (unsigned long long)h;
    return s;
}

static cc_status cuda_capture_if(cc_stream stream, unsigned long long handle, void** body)
{
    cudaStream_t st = cc_cuda_stream(stream);
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    cudaGraph_t graph = nullptr;
    const cudaGraphNode_t* deps = nullptr;
    size_t count = 0;
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = (cudaGraphConditionalHandle)handle;
    params.conditional.type = cudaGraphCondTypeIf;
    params.conditional.size = 1;
    cudaGraphNode_t node = nullptr;
#if CUDART_VERSION >= 13000
    const cudaGraphEdgeData* edges = nullptr;
    cc_status s = cc_cuda_status(cudaStreamGetCaptureInfo(st, &status, nullptr, &graph, &deps, &edges, &count),
                                 "cudaStreamGetCaptureInfo");
    if (s == CC_OK)
        s = cc_cuda_status(cudaGraphAddNode(&node, graph, deps, edges, count, &params), "cudaGraphAddNode (conditional)");
    if (s == CC_OK)
        s = cc_cuda_status(cudaStreamUpdateCaptureDependencies(st, &node, nullptr, 1, cudaStreamSetCaptureDependencies),
                           "cudaStreamUpdateCaptureDependencies");
#else
    cc_status s = cc_cuda_status(cudaStreamGetCaptureInfo(st, &status, nullptr, &graph, &deps, &count),
                                 "cudaStreamGetCaptureInfo");
    if (s == CC_OK)
        s = cc_cuda_status(cudaGraphAddNode(&node, graph, deps, count, &params), "cudaGraphAddNode (conditional)");
    if (s == CC_OK)
        s = cc_cuda_status(cudaStreamUpdateCaptureDependencies(st, &node, 1, cudaStreamSetCaptureDependencies),
                           "cudaStreamUpdateCaptureDependencies");
#endif
    *body = s == CC_OK ? (void*)params.conditional.phGraph_out[0] : nullptr;
    return s;
}

static cc_status cuda_capture_into_begin(cc_stream stream, void* graph)
{
    return cc_cuda_status(cudaStreamBeginCaptureToGraph(cc_cuda_stream(stream), (cudaGraph_t)graph, nullptr, nullptr, 0,
                                                        cudaStreamCaptureModeThreadLocal),
                          "cudaStreamBeginCaptureToGraph");
}
#else
static cc_status cuda_capture_condition(cc_stream, unsigned long long*)
{
    return cc_fail(CC_ERR_UNSUPPORTED, "the collision sub-step scheduler needs CUDA 12.4 or later (conditional graph nodes); this library was built with CUDA %d.%d", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
}
static cc_status cuda_capture_if(cc_stream, unsigned long long, void**) { return cuda_capture_condition(nullptr, nullptr); }
static cc_status cuda_capture_into_begin(cc_stream, void*) { return cuda_capture_condition(nullptr, nullptr); }
#endif

static cc_status cuda_capture_into_end(cc_stream stream)
{
    void* graph = nullptr; /* the body graph itself, owned by its node */
    return cuda_capture_end_graph(stream, &graph);
}


// In the order of cc_backend's fields (host/backend/backend.h).
static const cc_backend cuda_backend = {
    "cuda",           cuda_open_device, cuda_activate,      cuda_alloc,        cuda_free,         cuda_upload,
    cuda_download,    cc_cuda_sort_temp_bytes, cc_cuda_select_temp_bytes, cuda_run_stage, cuda_timer_create, cuda_timer_destroy,
    cuda_timer_record, cuda_timer_elapsed, cuda_synchronize, cuda_run_step_stage, cuda_copy_async,
    cuda_capture_begin, cuda_capture_end, cuda_graph_launch, cuda_graph_destroy, cuda_stream_create,
    cuda_stream_destroy, cuda_run_schedule_stage, cuda_capture_condition, cuda_capture_if, cuda_capture_end_graph,
    cuda_capture_into_begin, cuda_capture_into_end, cuda_graph_instantiate, cuda_graph_release,
};

extern "C" const cc_backend* cc_backend_cuda(void) { return &cuda_backend; }

extern "C" cc_status cc_cuda_describe(int ordinal, char* name, size_t name_size, double* peak_gbps)
{
    cudaDeviceProp prop;
    cc_status s = cc_cuda_status(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
    if (s != CC_OK) return s;
    if (name && name_size) snprintf(name, name_size, "%s", prop.name);
    // Peak bandwidth = 2 transfers per clock * memory clock * bus width.
    int clock_khz = 0, bus_bits = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, ordinal);
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal);
    cudaGetLastError();
    if (peak_gbps) *peak_gbps = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    return CC_OK;
}
