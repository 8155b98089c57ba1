/* The heavy units, compiled once per GPU architecture.
 *
 * Four translation units hold the convex query's kernels: the GJK/MPR
 * route (narrowphase/convex.cu), convex shapes on triangles (mesh/
 * convex_items.cu, mesh/convex_emit.cu) and the convex routes' sweeps
 * (contacts/toi_convex.cu). ptxas spends about 40 s on each of them per
 * architecture, so with every architecture in one unit they sat at the
 * compile budget (scripts/kernel-resources.py). The build compiles them
 * once per architecture instead (host/CMakeLists.txt), each copy with
 * CC_CUDA_ARCH_UNIT set to its architecture (80 for sm_80) and its
 * launchers named after it (CC_ARCH_LAUNCHER: cc_cuda_toi_convex_arch80).
 * The lowest architecture's copy also carries the PTX that newer GPUs JIT.
 * A build for CMAKE_CUDA_ARCHITECTURES has one copy, unit 0, for all.
 *
 * The unsuffixed launchers (cuda/arch_dispatch.cu) call the copy for the
 * current device: cc_arch_unit_pick. The copies' kernels have internal
 * linkage, so that the same kernel in two copies is two kernels. */
#ifndef CC_CUDA_ARCH_UNITS_H
#define CC_CUDA_ARCH_UNITS_H

#define CC_ARCH_PASTE_(name, arch) name##_arch##arch
#define CC_ARCH_PASTE(name, arch) CC_ARCH_PASTE_(name, arch)
/* The name of launcher `name` in this copy of a heavy unit. */
#define CC_ARCH_LAUNCHER(name) CC_ARCH_PASTE(name, CC_CUDA_ARCH_UNIT)

/* The unit (an index into archs, n units in increasing order) whose
 * machine code runs on a device of compute capability `device` (major *
 * 10 + minor): the highest of the device's major that is not newer than
 * it (sm_80 code runs on every 8.x device); for a device of another major,
 * the lowest unit, whose PTX the driver compiles for it; a unit 0 (one
 * copy for the whole build) always. -1: no unit can run there (a device
 * older than every architecture of the build). */
static inline int cc_arch_unit_pick(int device, const int* archs, int n)
{
    int best = -1;
    for (int i = 0; i < n; ++i) {
        if (archs[i] == 0) return i;
        if (archs[i] / 10 == device / 10 && archs[i] <= device) best = i;
    }
    if (best >= 0) return best;
    return n > 0 && device >= archs[0] ? 0 : -1;
}

#endif
