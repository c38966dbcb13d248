#pragma once
// Simplex noise's constants, shared by the scalar reference (simplex.cpp) and the SIMD rows
// (rows_kernels.cpp, point_kernels.cpp), which must agree bit for bit (private to src/noise).

namespace terragrid::simplex {

// Skew (F) and unskew (G) factors, written as the correctly rounded values of
// (sqrt(3) - 1) / 2 and (3 - sqrt(3)) / 6 (sqrt is not constexpr in C++20).
constexpr double kF2 = 0.36602540378443865;
constexpr double kG2 = 0.21132486540518711;
constexpr double kF3 = 1.0 / 3.0;
constexpr double kG3 = 1.0 / 6.0;

// Kernel radius^2. 0.5 is the largest value for which the kernel vanishes before it reaches
// a simplex the point is not in, so the sum over one simplex's corners is continuous.
constexpr double kRadius2 = 0.5;

// Scales to [-1, 1]. The upper bound of the unscaled sum (every corner taking its best
// gradient, maximised numerically over the cell) is 0.0142556 in 2D and 0.0130072 in 3D, so
// 70 gives a maximum of 0.998 and 76.88 a maximum of 0.99999. (The 31.32 often quoted for 3D
// belongs to other gradient lengths / radii; with these it would reach only 0.41.)
constexpr double kScale2 = 70.0;
constexpr double kScale3 = 76.88;

// Version 2 (simplexNoiseV2): the skewed coordinate X = x (1 + F2) + y F2 as two products,
// and the cell's float constants.
constexpr double kSkew2 = 1.0 + kF2;
constexpr float kG2f = static_cast<float>(kG2);
constexpr float kCorner2f = static_cast<float>(2.0 * kG2 - 1.0);  // the far corner's offset
constexpr float kRadius2f = 0.5f;
constexpr float kScale2f = 70.0f;

// Version 2's gradients (simplex.cpp's grad2) as a table the SIMD rows look up: hash & 7
// selects (kGradX, kGradY) and an addend kGradZ, and (gx x + gy y) + z has grad2's bits,
// signed zeros included. Multiplying by +-1 is exact, so a diagonal's (+-x) + (+-y) is grad2's
// sum, and adding -0 leaves every value as it is; an axis's products are +-f and a zero whose
// sign is the other coordinate's, whose sum is +-f unless f is zero, and adding +0 then turns
// any zero into grad2's (+-0) + (+0) = +0.
constexpr float kGradX[8] = {1.0f, -1.0f, 0.0f, 0.0f, 1.0f, -1.0f, 1.0f, -1.0f};
constexpr float kGradY[8] = {0.0f, 0.0f, 1.0f, -1.0f, 1.0f, 1.0f, -1.0f, -1.0f};
constexpr float kGradZ[8] = {0.0f, 0.0f, 0.0f, 0.0f, -0.0f, -0.0f, -0.0f, -0.0f};

}  // namespace terragrid::simplex
