/* poisson2d.cu: the hand-written CUDA baseline for poisson2d (a Jacobi step for the 2D
 * Poisson equation, h = 1, CLAMP boundaries, the library's built-in body term by term): one
 * step per launch, 32x8 thread blocks, each thread updating 4 points spaced 8 rows apart
 * (coalesced rows, read-only loads through the texture path).
 *
 *   nvcc -O3 -arch=sm_90 tools/bench/cuda/poisson2d.cu -o poisson2d_cuda
 *   ./poisson2d_cuda [--steps N] [--reps R] [--csv] [--no-check] [NXxNY]
 *
 * Before timing it checks a small odd-sized grid against a host loop. */
#include "common.cuh"

#define BX 32
#define BY 8
#define ROWS 4 /* points per thread along y */

__global__ void poisson2d_step(const float *__restrict__ u, const float *__restrict__ rhs,
                               float *__restrict__ out, int nx, int ny, float hh)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    if (x >= nx) return;
    const int xl = max(x - 1, 0), xr = min(x + 1, nx - 1);
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        const int y = (blockIdx.y * ROWS + r) * BY + threadIdx.y;
        if (y >= ny) return;
        const size_t row = (size_t)nx * y;
        const size_t rd = (size_t)nx * max(y - 1, 0), ru = (size_t)nx * min(y + 1, ny - 1);
        out[row + x] = 0.25f * (__ldg(&u[row + xr]) + __ldg(&u[row + xl]) + __ldg(&u[ru + x]) +
                                __ldg(&u[rd + x]) - hh * __ldg(&rhs[row + x]));
    }
}

static void host_step(const std::vector<float> &u, const std::vector<float> &rhs,
                      std::vector<float> &out, long nx, long ny, float hh)
{
    auto at = [&](long x, long y) {
        x = std::min(std::max(x, 0L), nx - 1);
        y = std::min(std::max(y, 0L), ny - 1);
        return u[(size_t)x + (size_t)nx * y];
    };
    for (long y = 0; y < ny; y++)
        for (long x = 0; x < nx; x++)
            out[(size_t)x + (size_t)nx * y] =
                0.25f * (at(x + 1, y) + at(x - 1, y) + at(x, y + 1) + at(x, y - 1) -
                         hh * rhs[(size_t)x + (size_t)nx * y]);
}

struct gpu_grid {
    float *a = nullptr, *b = nullptr, *rhs = nullptr;
    long nx, ny;
};

static void launch_steps(gpu_grid &g, long steps, float hh, float **result)
{
    dim3 grid((unsigned)((g.nx + BX - 1) / BX), (unsigned)((g.ny + BY * ROWS - 1) / (BY * ROWS)));
    float *src = g.a, *dst = g.b;
    for (long s = 0; s < steps; s++) {
        poisson2d_step<<<grid, dim3(BX, BY)>>>(src, g.rhs, dst, (int)g.nx, (int)g.ny, hh);
        std::swap(src, dst);
    }
    *result = src;
}

static void fill_inputs(std::vector<float> &u, std::vector<float> &rhs, const long n[3])
{
    fill_field(u, n, 4, 0.0, 1.0);
    fill_field(rhs, n, 5, -0.5, 1.0);
}

static int check(float hh)
{
    const long n[3] = {101, 77, 1};
    const long steps = 5;
    size_t pts = (size_t)n[0] * n[1];
    std::vector<float> u(pts), rhs(pts), tmp(pts), got(pts);
    fill_inputs(u, rhs, n);
    gpu_grid g;
    g.nx = n[0];
    g.ny = n[1];
    CUDA_CHECK(cudaMalloc(&g.a, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.b, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.rhs, pts * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(g.a, u.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(g.rhs, rhs.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
    float *res;
    launch_steps(g, steps, hh, &res);
    CUDA_CHECK(cudaMemcpy(got.data(), res, pts * sizeof(float), cudaMemcpyDeviceToHost));
    for (long s = 0; s < steps; s++) {
        host_step(u, rhs, tmp, n[0], n[1], hh);
        u.swap(tmp);
    }
    CUDA_CHECK(cudaFree(g.a));
    CUDA_CHECK(cudaFree(g.b));
    CUDA_CHECK(cudaFree(g.rhs));
    return compare("poisson2d", got, u, 1e-5);
}

int main(int argc, char **argv)
{
    static const long def[3] = {8192, 8192};
    bench_args a;
    parse_args(argc, argv, 2, def, &a,
               "usage: poisson2d_cuda [--steps N] [--reps R] [--csv] [--no-header] [--no-check] "
               "[NXxNY]\n"
               "CUDA poisson2d, one step per launch (default 8192x8192, 100 steps, median of 5 "
               "runs).\n");
    const float h = 1.0f, hh = h * h;
    print_device();
    if (a.check && !check(hh)) return 1;

    size_t pts = (size_t)a.n[0] * a.n[1];
    std::vector<float> u(pts), rhs(pts);
    fill_inputs(u, rhs, a.n);
    gpu_grid g;
    g.nx = a.n[0];
    g.ny = a.n[1];
    CUDA_CHECK(cudaMalloc(&g.a, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.b, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.rhs, pts * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(g.rhs, rhs.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
    float *res = nullptr;
    double sec = time_runs(
        a.reps, [&] { launch_steps(g, a.steps, hh, &res); },
        [&] {
            CUDA_CHECK(cudaMemcpy(g.a, u.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
        });
    CUDA_CHECK(cudaMemcpy(u.data(), res, pts * sizeof(float), cudaMemcpyDeviceToHost));
    char params[64];
    snprintf(params, sizeof params, "block=%dx%d rows=%d", BX, BY, ROWS);
    print_result(a, "poisson2d", "cuda", sec, 1, checksum_of(u), params);
    CUDA_CHECK(cudaFree(g.a));
    CUDA_CHECK(cudaFree(g.b));
    CUDA_CHECK(cudaFree(g.rhs));
    return 0;
}
