/* heat3d7.cu: the hand-written CUDA baseline for heat3d7 (7-point heat equation, alpha 0.1,
 * CLAMP boundaries; Eq. 1 of Mo & Li, the library's built-in body term by term)
 * with 2.5D streaming: 32x8 thread blocks cover an XY tile and march along z through a chunk
 * of planes, the z-1, z and z+1 values in registers and the current plane (with a one-point
 * halo) in shared memory, one step per launch.
 *
 *   nvcc -O3 -arch=sm_90 tools/bench/cuda/heat3d7.cu -o heat3d7_cuda
 *   ./heat3d7_cuda [--steps N] [--reps R] [--csv] [--no-check] [NXxNYxNZ]
 *
 * Before timing it checks a small odd-sized grid (partial blocks, several z chunks) against a
 * host loop. */
#include "common.cuh"

#define BX 32
#define BY 8

__global__ void heat3d7_25d(const float *__restrict__ in, float *__restrict__ out, int nx, int ny,
                            int nz, int zchunk, float alpha)
{
    __shared__ float tile[BY + 2][BX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    /* Threads past the edge load the clamped edge value: exactly what the CLAMP boundary reads
     * there, so the tile needs no special case. */
    const int xc = min(x, nx - 1), yc = min(y, ny - 1);
    const size_t plane = (size_t)nx * ny;
    const size_t col = (size_t)xc + (size_t)nx * yc;
    const bool halo_l = tx == 0, halo_r = tx == BX - 1, halo_d = ty == 0, halo_u = ty == BY - 1;
    const size_t col_l = (size_t)max(xc - 1, 0) + (size_t)nx * yc;
    const size_t col_r = (size_t)min(x + 1, nx - 1) + (size_t)nx * yc;
    const size_t col_d = (size_t)xc + (size_t)nx * max(yc - 1, 0);
    const size_t col_u = (size_t)xc + (size_t)nx * min(y + 1, ny - 1);

    float below = in[col + plane * max(z0 - 1, 0)];
    float cur = in[col + plane * z0];
    for (int z = z0; z < z1; z++) {
        const size_t pz = plane * z;
        float above = in[col + plane * min(z + 1, nz - 1)];
        __syncthreads(); /* the previous plane's readers are done */
        tile[ty + 1][tx + 1] = cur;
        if (halo_l) tile[ty + 1][0] = in[col_l + pz];
        if (halo_r) tile[ty + 1][BX + 1] = in[col_r + pz];
        if (halo_d) tile[0][tx + 1] = in[col_d + pz];
        if (halo_u) tile[BY + 1][tx + 1] = in[col_u + pz];
        __syncthreads();
        if (x < nx && y < ny)
            out[col + pz] = cur + alpha * (below + tile[ty][tx + 1] + tile[ty + 1][tx] +
                                           tile[ty + 1][tx + 2] + tile[ty + 2][tx + 1] + above -
                                           6.0f * cur);
        below = cur;
        cur = above;
    }
}

static void host_step(const std::vector<float> &in, std::vector<float> &out, const long n[3],
                      float alpha)
{
    long nx = n[0], ny = n[1], nz = n[2];
    auto at = [&](long x, long y, long z) {
        x = std::min(std::max(x, 0L), nx - 1);
        y = std::min(std::max(y, 0L), ny - 1);
        z = std::min(std::max(z, 0L), nz - 1);
        return in[(size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z)];
    };
    for (long z = 0; z < nz; z++)
        for (long y = 0; y < ny; y++)
            for (long x = 0; x < nx; x++) {
                float c = at(x, y, z);
                out[(size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z)] =
                    c + alpha * (at(x, y, z - 1) + at(x, y - 1, z) + at(x - 1, y, z) +
                                 at(x + 1, y, z) + at(x, y + 1, z) + at(x, y, z + 1) - 6.0f * c);
            }
}

/* Planes per block: enough blocks to fill the GPU several times over, at least 16 planes so
 * the register window pays off. */
static int pick_zchunk(long nx, long ny, long nz)
{
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    long xy_blocks = ((nx + BX - 1) / BX) * ((ny + BY - 1) / BY);
    long want = 8L * sms; /* 8 resident 256-thread blocks per SM */
    long chunks = std::max(1L, (want * 2 + xy_blocks - 1) / xy_blocks);
    long zc = std::max(16L, (nz + chunks - 1) / chunks);
    return (int)std::min(zc, nz);
}

struct gpu_grid {
    float *a = nullptr, *b = nullptr;
    long n[3];
    int zchunk;
};

static void launch_steps(gpu_grid &g, long steps, float alpha, float **result)
{
    dim3 block(BX, BY, 1);
    dim3 grid((unsigned)((g.n[0] + BX - 1) / BX), (unsigned)((g.n[1] + BY - 1) / BY),
              (unsigned)((g.n[2] + g.zchunk - 1) / g.zchunk));
    float *src = g.a, *dst = g.b;
    for (long s = 0; s < steps; s++) {
        heat3d7_25d<<<grid, block>>>(src, dst, (int)g.n[0], (int)g.n[1], (int)g.n[2], g.zchunk,
                                     alpha);
        std::swap(src, dst);
    }
    *result = src;
}

static int check(float alpha)
{
    const long n[3] = {67, 45, 37};
    const long steps = 5;
    size_t pts = (size_t)n[0] * n[1] * n[2];
    std::vector<float> h(pts), t(pts), got(pts);
    fill_field(h, n, 1, 0.0, 1.0);
    gpu_grid g;
    memcpy(g.n, n, sizeof g.n);
    g.zchunk = 8; /* several chunks, the last one partial */
    CUDA_CHECK(cudaMalloc(&g.a, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.b, pts * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(g.a, h.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
    float *res;
    launch_steps(g, steps, alpha, &res);
    CUDA_CHECK(cudaMemcpy(got.data(), res, pts * sizeof(float), cudaMemcpyDeviceToHost));
    for (long s = 0; s < steps; s++) {
        host_step(h, t, n, alpha);
        h.swap(t);
    }
    CUDA_CHECK(cudaFree(g.a));
    CUDA_CHECK(cudaFree(g.b));
    return compare("heat3d7", got, h, 1e-5);
}

int main(int argc, char **argv)
{
    static const long def[3] = {512, 512, 512};
    bench_args a;
    a.steps = 50;
    parse_args(argc, argv, 3, def, &a,
               "usage: heat3d7_cuda [--steps N] [--reps R] [--csv] [--no-header] [--no-check] "
               "[NXxNYxNZ]\n"
               "2.5D-streaming CUDA heat3d7 (default 512x512x512, 50 steps, median of 5 runs).\n");
    const float alpha = 0.1f;
    print_device();
    if (a.check && !check(alpha)) return 1;

    size_t pts = (size_t)a.n[0] * a.n[1] * a.n[2];
    std::vector<float> h(pts);
    fill_field(h, a.n, 1, 0.0, 1.0);
    gpu_grid g;
    memcpy(g.n, a.n, sizeof g.n);
    g.zchunk = pick_zchunk(a.n[0], a.n[1], a.n[2]);
    CUDA_CHECK(cudaMalloc(&g.a, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.b, pts * sizeof(float)));
    float *res = nullptr;
    double t = time_runs(
        a.reps, [&] { launch_steps(g, a.steps, alpha, &res); },
        [&] {
            CUDA_CHECK(cudaMemcpy(g.a, h.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
        });
    CUDA_CHECK(cudaMemcpy(h.data(), res, pts * sizeof(float), cudaMemcpyDeviceToHost));
    char params[64];
    snprintf(params, sizeof params, "block=%dx%d zchunk=%d", BX, BY, g.zchunk);
    print_result(a, "heat3d7", "cuda-2.5d", t, 0, checksum_of(h), params);
    CUDA_CHECK(cudaFree(g.a));
    CUDA_CHECK(cudaFree(g.b));
    return 0;
}
