// Which copy of the heavy CUDA units runs on a device (cuda/arch_units.h):
// a pure function of the device's compute capability and the build's
// architectures, so it is checked here without a GPU.
#include <gtest/gtest.h>

#include "cuda/arch_units.h"

namespace {

int pick(int device, std::initializer_list<int> archs)
{
    return cc_arch_unit_pick(device, archs.begin(), (int)archs.size());
}

TEST(CudaArchUnits, DefaultBuildRunsItsOwnCodeOnEachMajorAndThePtxBeyond)
{
    EXPECT_EQ(pick(80, {80, 90}), 0); // A100
    EXPECT_EQ(pick(86, {80, 90}), 0); // RTX 30: sm_80 code runs on every 8.x
    EXPECT_EQ(pick(89, {80, 90}), 0); // L4, RTX 40
    EXPECT_EQ(pick(90, {80, 90}), 1); // H100, H200
    EXPECT_EQ(pick(100, {80, 90}), 0); // a newer major: the lowest copy's PTX
    EXPECT_EQ(pick(120, {80, 90}), 0);
    EXPECT_EQ(pick(75, {80, 90}), -1); // older than every architecture
}

TEST(CudaArchUnits, TheNewestCodeNotNewerThanTheDeviceWins)
{
    EXPECT_EQ(pick(80, {80, 86, 89, 90}), 0);
    EXPECT_EQ(pick(86, {80, 86, 89, 90}), 1);
    EXPECT_EQ(pick(87, {80, 86, 89, 90}), 1);
    EXPECT_EQ(pick(89, {80, 86, 89, 90}), 2);
    EXPECT_EQ(pick(90, {80, 86, 89, 90}), 3);
    // sm_86 code does not run on 8.0, nor does compute_86 PTX.
    EXPECT_EQ(pick(80, {86, 90}), -1);
    EXPECT_EQ(pick(90, {90}), 0);
    EXPECT_EQ(pick(80, {90}), -1);
    EXPECT_EQ(pick(100, {90}), 0);
}

TEST(CudaArchUnits, OneCopyForTheWholeBuildRunsEverywhere)
{
    // An explicit CMAKE_CUDA_ARCHITECTURES: one copy (unit 0); CUDA itself
    // picks the code within it.
    for (int device : {50, 80, 90, 120}) EXPECT_EQ(pick(device, {0}), 0);
}

} // namespace
