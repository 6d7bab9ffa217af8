/* cumapz.h: the CuMAPz memory-access analysis: six factors and the MPE of a kernel mapping. */
#ifndef CLS_CUMAPZ_H
#define CLS_CUMAPZ_H

/* Source: Kim & Shrivastava, "Memory Performance Estimation of CUDA Programs", Sect. 5 (Eqs. 1-8),
 * Fig. 4 and Sect. 7.  The analysis emulates every warp of every work-group of an access
 * description (model/access.h) in program order, and asks the device model's family rules
 * (clstencil_model.h) how each warp's addresses become memory transactions (per half-warp on
 * GT200), how many passes its local accesses need (bank conflicts), which channel an address maps
 * to, and how many work-groups are resident.  doc/memory-analysis.md states every definition and
 * the readings of the equations.
 *
 * Pure C, deterministic, no OpenCL.  Work is bounded: a description needing more than max_work
 * work-item references is refused (Sect. 7: a reduced input ranks the same).  The calls are the
 * public ones of clstencil_model.h; this header adds the access descriptions' internals. */

#include <stddef.h>
#include <stdint.h>

#include "access.h"
#include "clstencil_model.h"

#endif /* CLS_CUMAPZ_H */
