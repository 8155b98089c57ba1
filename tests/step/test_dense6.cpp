// The 6x6 LU factorisation and solve of the implicit step against a
// double-precision reference, on matrices that need pivoting (zero and tiny
// diagonals, permuted rows) as well as the step's own kind (mass plus
// contact terms plus a small non-symmetric gyroscopic part).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kernels/math/dense6.h"

namespace {

// Gaussian elimination in double with partial pivoting: the reference.
void reference_solve(double a[36], double b[6])
{
    for (int c = 0; c < 6; ++c) {
        int p = c;
        for (int r = c + 1; r < 6; ++r)
            if (std::fabs(a[r * 6 + c]) > std::fabs(a[p * 6 + c])) p = r;
        for (int k = 0; k < 6; ++k) std::swap(a[c * 6 + k], a[p * 6 + k]);
        std::swap(b[c], b[p]);
        for (int r = c + 1; r < 6; ++r) {
            double f = a[r * 6 + c] / a[c * 6 + c];
            for (int k = c; k < 6; ++k) a[r * 6 + k] -= f * a[c * 6 + k];
            b[r] -= f * b[c];
        }
    }
    for (int r = 5; r >= 0; --r) {
        double s = b[r];
        for (int k = r + 1; k < 6; ++k) s -= a[r * 6 + k] * b[k];
        b[r] = s / a[r * 6 + r];
    }
}

TEST(Dense6, FactorAndSolveMatchTheReference)
{
    std::mt19937 g(17);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int trial = 0; trial < 2000; ++trial) {
        double a[36], b[6];
        int kind = trial % 3;
        for (int i = 0; i < 36; ++i) a[i] = u(g);
        if (kind == 0) {
            // The step's kind: SPD (M + J^T P J) plus a small skew part.
            double s[36];
            for (int i = 0; i < 6; ++i)
                for (int j = 0; j < 6; ++j) {
                    double x = 0;
                    for (int k = 0; k < 6; ++k) x += a[k * 6 + i] * a[k * 6 + j];
                    s[i * 6 + j] = x + (i == j ? 0.1 : 0.0) + 0.01 * (i < j ? 1 : -1) * u(g);
                }
            for (int i = 0; i < 36; ++i) a[i] = s[i];
        } else if (kind == 1) {
            for (int i = 0; i < 6; ++i) a[i * 6 + i] = 0.0; // every step must pivot
        } else {
            for (int i = 0; i < 6; ++i) a[i * 6 + i] *= 1e-6;
        }
        for (double& x : b) x = u(g);
        float af[36], bf[6];
        int piv[6];
        for (int i = 0; i < 36; ++i) af[i] = (float)a[i];
        for (int i = 0; i < 6; ++i) bf[i] = (float)b[i];
        double ad[36], bd[6];
        for (int i = 0; i < 36; ++i) ad[i] = af[i];
        for (int i = 0; i < 6; ++i) bd[i] = bf[i];
        reference_solve(ad, bd);
        ASSERT_TRUE(cc_lu6_factor(af, piv)) << "trial " << trial;
        float x[6];
        for (int i = 0; i < 6; ++i) x[i] = bf[i];
        cc_lu6_solve(af, piv, x);
        double scale = 0;
        for (double v : bd) scale = std::max(scale, std::fabs(v));
        // Residual-based bound: float solves lose about cond(A) ulps.
        for (int i = 0; i < 6; ++i) EXPECT_NEAR(x[i], bd[i], 2e-3 * (1.0 + scale)) << "trial " << trial << " entry " << i;
        // Solving again with the same factors gives the same answer.
        float y[6];
        for (int i = 0; i < 6; ++i) y[i] = bf[i];
        cc_lu6_solve(af, piv, y);
        for (int i = 0; i < 6; ++i) EXPECT_EQ(x[i], y[i]);
    }
}

TEST(Dense6, ASingularMatrixIsRefused)
{
    float a[36] = {0};
    int piv[6];
    for (int i = 0; i < 5; ++i) a[i * 6 + i] = 1.0f; // the last row and column zero
    EXPECT_FALSE(cc_lu6_factor(a, piv));
    float n[36];
    for (float& v : n) v = NAN;
    EXPECT_FALSE(cc_lu6_factor(n, piv));
}

}  // namespace
