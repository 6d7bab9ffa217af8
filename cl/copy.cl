/* copy.cl: element-wise copy dst[i] = src[i], the memory-bandwidth yardstick of `clstencil bench`. */
#ifdef CLS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef real
#define real float
#endif

/* One element per work-item; the global size is rounded up to the work-group size. */
__kernel void cls_copy(__global const real *restrict src, __global real *restrict dst, ulong n)
{
    size_t i = get_global_id(0);
    if (i < n) dst[i] = src[i];
}
