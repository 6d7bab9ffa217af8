/* clstencil_cl.h: OpenCL interop for programs with OpenCL code of their own: a context on the
 * caller's cl_context and device, the library's OpenCL objects, and states around the caller's
 * buffers. */
#ifndef CLSTENCIL_CL_H
#define CLSTENCIL_CL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "clstencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A context on the caller's OpenCL context and one of its devices: buffers of that context can
 * be wrapped in states.  The library retains the context and creates its own in-order queue
 * with profiling on it. */
CLS_API cls_status cls_context_create_from_cl(cl_context context, cl_device_id device,
                                              cls_context **ctx);
/* The context's OpenCL objects (each may be NULL): owned by the library, not retained. */
CLS_API cls_status cls_context_cl(const cls_context *ctx, cl_context *context,
                                  cl_device_id *device, cl_command_queue *queue);
/* A state whose field is the caller's buffer (at least points x element bytes, of the
 * context's cl_context); the library retains it and allocates the ping-pong partner.  The
 * field is taken as written (step 0).  Every call that uses the state finishes its commands
 * before it returns; finish yours on the buffer before calling. */
CLS_API cls_status cls_state_wrap(cls_plan *plan, cl_mem field, cls_state **state);
/* The buffer that holds the state's field now (the caller's or the library's: it alternates
 * as the state advances); not retained, valid until the state advances or is released. */
CLS_API cls_status cls_state_mem(const cls_state *state, cl_mem *field);

#ifdef __cplusplus
}
#endif

#endif /* CLSTENCIL_CL_H */
