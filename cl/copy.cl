/* copy.cl: dst = src, the memory-bandwidth yardstick of `clstencil bench`.  Each work-item
 * moves one 16-byte vector (four floats or two doubles), the widest load GPUs issue per
 * thread: with one element per work-item a GPU keeps too few bytes in flight to reach its
 * memory's bandwidth, and the yardstick would flatter every kernel measured against it
 * (doc/benchmarks.md).  Work-items past the vectors copy the n % CLS_COPY_VEC elements of the
 * tail one each. */
#ifdef CLS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef real
#define real float
#endif
#ifdef CLS_FP64
#define CLS_COPY_VEC 2
#define realv double2
#else
#define CLS_COPY_VEC 4
#define realv float4
#endif

/* The global size covers n / CLS_COPY_VEC vectors plus n % CLS_COPY_VEC tail elements, rounded
 * up to the work-group size.  Buffers from clCreateBuffer are aligned for every vector type. */
__kernel void cls_copy(__global const real *restrict src, __global real *restrict dst, ulong n)
{
    size_t i = get_global_id(0), nv = n / CLS_COPY_VEC;
    if (i < nv)
        ((__global realv *)dst)[i] = ((__global const realv *)src)[i];
    else if (i - nv < n % CLS_COPY_VEC)
        dst[nv * CLS_COPY_VEC + (i - nv)] = src[nv * CLS_COPY_VEC + (i - nv)];
}
