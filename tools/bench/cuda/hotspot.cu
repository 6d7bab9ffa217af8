/* hotspot.cu: the hand-written CUDA baseline for hotspot (Rodinia HotSpot with the library's
 * parameters, CLAMP boundaries, the built-in body term by term) with ghost zones: each 32x32
 * block loads a 32x32 tile of the temperature, runs H steps on it in shared memory (the valid
 * region shrinks by one point per step on every side that is not the grid's edge) and writes
 * its inner (32-2H)x(32-2H) points: H steps per launch, as Rodinia's pyramid kernel
 * (Meng & Skadron 2010, the ghost-zone scheme).
 *
 *   nvcc -O3 -arch=sm_90 tools/bench/cuda/hotspot.cu -o hotspot_cuda
 *   ./hotspot_cuda [--steps N] [--reps R] [--height H] [--csv] [--no-check] [NXxNY]
 *
 * Before timing it checks a small odd-sized grid at h = 3 (partial tiles, a partial last
 * launch) against a host loop. */
#include "common.cuh"

#define B 32

struct hs_consts {
    float step_div_cap, rx_1, ry_1, rz_1, amb;
};

/* The built-in's constants in float, in the body's order of operations (lib/builtins.c). */
static hs_consts hotspot_constants(long nx, long ny)
{
    const float chip_width = 0.016f, chip_height = 0.016f, t_chip = 0.0005f, k_si = 100.0f,
                spec_heat_si = 1.75e6f, factor_chip = 0.5f, max_pd = 3.0e6f, precision = 0.001f;
    float gw = chip_width / (float)nx;
    float gh = chip_height / (float)ny;
    float cap = factor_chip * spec_heat_si * t_chip * gw * gh;
    hs_consts c;
    c.rx_1 = 1 / (gw / (2 * k_si * t_chip * gh));
    c.ry_1 = 1 / (gh / (2 * k_si * t_chip * gw));
    c.rz_1 = 1 / (t_chip / (k_si * gh * gw));
    float dt = precision / (max_pd / (factor_chip * t_chip * spec_heat_si));
    c.step_div_cap = dt / cap;
    c.amb = 80.0f;
    return c;
}

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

/* One launch: h steps on tiles whose origins are (32-2h) apart. */
__global__ void hotspot_ghost(const float *__restrict__ temp, const float *__restrict__ power,
                              float *__restrict__ out, int nx, int ny, int h, hs_consts c)
{
    __shared__ float t[B][B];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int inner = B - 2 * h;
    const int gx = (int)blockIdx.x * inner - h + tx, gy = (int)blockIdx.y * inner - h + ty;
    const bool in_grid = gx >= 0 && gx < nx && gy >= 0 && gy < ny;
    /* Neighbours: clamped to the grid (the CLAMP boundary reads the edge point of the same
     * step, which is in the tile whenever the point is), then to the tile (the points that
     * read past the tile are outside the valid region and never written). */
    const int xl = clampi(clampi(gx - 1, 0, nx - 1) - gx + tx, 0, B - 1);
    const int xr = clampi(clampi(gx + 1, 0, nx - 1) - gx + tx, 0, B - 1);
    const int yd = clampi(clampi(gy - 1, 0, ny - 1) - gy + ty, 0, B - 1);
    const int yu = clampi(clampi(gy + 1, 0, ny - 1) - gy + ty, 0, B - 1);
    size_t idx = in_grid ? (size_t)gx + (size_t)nx * gy : 0;
    float p = in_grid ? power[idx] : 0.0f;
    t[ty][tx] = in_grid ? temp[idx] : 0.0f;
    __syncthreads();
    for (int s = 0; s < h; s++) {
        float v = t[ty][tx];
        float nv = v + c.step_div_cap * (p + (t[yu][tx] + t[yd][tx] - 2 * v) * c.ry_1 +
                                         (t[ty][xr] + t[ty][xl] - 2 * v) * c.rx_1 +
                                         (c.amb - v) * c.rz_1);
        __syncthreads();
        t[ty][tx] = nv;
        __syncthreads();
    }
    if (in_grid && tx >= h && tx < B - h && ty >= h && ty < B - h) out[idx] = t[ty][tx];
}

static void host_step(const std::vector<float> &in, const std::vector<float> &pw,
                      std::vector<float> &out, long nx, long ny, const hs_consts &c)
{
    auto at = [&](long x, long y) {
        x = std::min(std::max(x, 0L), nx - 1);
        y = std::min(std::max(y, 0L), ny - 1);
        return in[(size_t)x + (size_t)nx * y];
    };
    for (long y = 0; y < ny; y++)
        for (long x = 0; x < nx; x++) {
            float v = at(x, y);
            size_t i = (size_t)x + (size_t)nx * y;
            out[i] = v + c.step_div_cap * (pw[i] + (at(x, y + 1) + at(x, y - 1) - 2 * v) * c.ry_1 +
                                           (at(x + 1, y) + at(x - 1, y) - 2 * v) * c.rx_1 +
                                           (c.amb - v) * c.rz_1);
        }
}

struct gpu_grid {
    float *a = nullptr, *b = nullptr, *p = nullptr;
    long nx, ny;
};

static void launch_steps(gpu_grid &g, long steps, int h, const hs_consts &c, float **result)
{
    float *src = g.a, *dst = g.b;
    for (long done = 0; done < steps;) {
        int hh = (int)std::min<long>(h, steps - done);
        int inner = B - 2 * hh;
        dim3 grid((unsigned)((g.nx + inner - 1) / inner), (unsigned)((g.ny + inner - 1) / inner));
        hotspot_ghost<<<grid, dim3(B, B)>>>(src, g.p, dst, (int)g.nx, (int)g.ny, hh, c);
        std::swap(src, dst);
        done += hh;
    }
    *result = src;
}

static void fill_inputs(std::vector<float> &t, std::vector<float> &p, const long n[3])
{
    fill_field(t, n, 2, 300.0, 40.0);  /* temperatures around Rodinia's 320 K */
    fill_field(p, n, 3, 0.0, 2.0e-6); /* power per cell, Rodinia's order of magnitude */
}

static int check(void)
{
    const long n[3] = {101, 77, 1};
    const long steps = 7;
    const int h = 3;
    size_t pts = (size_t)n[0] * n[1];
    std::vector<float> t(pts), p(pts), tmp(pts), got(pts);
    fill_inputs(t, p, n);
    hs_consts c = hotspot_constants(n[0], n[1]);
    gpu_grid g;
    g.nx = n[0];
    g.ny = n[1];
    CUDA_CHECK(cudaMalloc(&g.a, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.b, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.p, pts * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(g.a, t.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(g.p, p.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
    float *res;
    launch_steps(g, steps, h, c, &res);
    CUDA_CHECK(cudaMemcpy(got.data(), res, pts * sizeof(float), cudaMemcpyDeviceToHost));
    for (long s = 0; s < steps; s++) {
        host_step(t, p, tmp, n[0], n[1], c);
        t.swap(tmp);
    }
    CUDA_CHECK(cudaFree(g.a));
    CUDA_CHECK(cudaFree(g.b));
    CUDA_CHECK(cudaFree(g.p));
    return compare("hotspot", got, t, 1e-5);
}

int main(int argc, char **argv)
{
    static const long def[3] = {8192, 8192};
    bench_args a;
    parse_args(argc, argv, 2, def, &a,
               "usage: hotspot_cuda [--steps N] [--reps R] [--height H] [--csv] [--no-header] "
               "[--no-check] [NXxNY]\n"
               "Ghost-zone CUDA hotspot, H steps per launch (default 2; 1..15), default 8192x8192,\n"
               "100 steps, median of 5 runs.\n");
    int h = a.height ? (int)a.height : 2;
    if (2 * h >= B) {
        fprintf(stderr, "hotspot_cuda: --height must be below %d\n", B / 2);
        return 2;
    }
    print_device();
    if (a.check && !check()) return 1;

    size_t pts = (size_t)a.n[0] * a.n[1];
    std::vector<float> t(pts), p(pts);
    fill_inputs(t, p, a.n);
    hs_consts c = hotspot_constants(a.n[0], a.n[1]);
    gpu_grid g;
    g.nx = a.n[0];
    g.ny = a.n[1];
    CUDA_CHECK(cudaMalloc(&g.a, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.b, pts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&g.p, pts * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(g.p, p.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
    float *res = nullptr;
    double sec = time_runs(
        a.reps, [&] { launch_steps(g, a.steps, h, c, &res); },
        [&] {
            CUDA_CHECK(cudaMemcpy(g.a, t.data(), pts * sizeof(float), cudaMemcpyHostToDevice));
        });
    CUDA_CHECK(cudaMemcpy(t.data(), res, pts * sizeof(float), cudaMemcpyDeviceToHost));
    char params[64];
    snprintf(params, sizeof params, "tile=%dx%d h=%d", B, B, h);
    print_result(a, "hotspot", "cuda-ghost", sec, 1, checksum_of(t), params);
    CUDA_CHECK(cudaFree(g.a));
    CUDA_CHECK(cudaFree(g.b));
    CUDA_CHECK(cudaFree(g.p));
    return 0;
}
