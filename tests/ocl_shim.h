/* ocl_shim.h: an OpenCL fault-injection shim for tests (tests/ocl_shim.c).
 *
 * Linked into a test program, tests/ocl_shim.c defines every OpenCL entry point the library
 * calls; the library's references resolve to the program's definitions, which count the call,
 * fail it when it is the armed one, and otherwise forward to the real entry point (found with
 * dlsym(RTLD_NEXT)).  It counts the objects of each kind created, retained and released, so
 * that a test can see what a failing call left alive without trusting leak suppressions that
 * cover all of the OpenCL runtime.
 *
 * Besides the functions below, the environment configures it for programs that cannot call
 * them (the command line built with the shim):
 *   CLS_SHIM_FAIL=clEnqueueReadBuffer:3   fail the third call of that entry point
 *   CLS_SHIM_REPORT=1                     at exit, print to stderr one line:
 *     ocl_shim: fired 0|1 live context N queue N mem N program N kernel N event N calls ENTRY=N...
 *   (the calls of every entry point called at least once).
 */
#ifndef CLS_OCL_SHIM_H
#define CLS_OCL_SHIM_H

#include <stddef.h>

/* The object kinds counted.  Mapped regions are not: they go with their buffer, and a buffer
 * left mapped and never released shows as a live buffer. */
typedef enum shim_kind {
    SHIM_CONTEXT,
    SHIM_QUEUE,
    SHIM_MEM,
    SHIM_PROGRAM,
    SHIM_KERNEL,
    SHIM_EVENT,
    SHIM_KINDS
} shim_kind;

/* The error every injected failure returns (an OpenCL code, so it passes through the library's
 * status unchanged where the library reports OpenCL failures as they are). */
#define SHIM_ERROR (-5) /* CL_OUT_OF_RESOURCES */

/* The entry points the shim defines, in a fixed order; -1 when the name is not one. */
size_t shim_entry_count(void);
const char *shim_entry_name(size_t entry);
int shim_entry_index(const char *name);
/* Whether the shim fails the entry point when armed.  Releases are not failed: a caller can do
 * nothing about a failed release but drop the handle, so they are checked through the balance
 * of created and released objects instead. */
int shim_entry_can_fail(size_t entry);

/* Fails the n-th call (1-based, counted from the last shim_reset) of `entry`; n = 0 disarms. */
void shim_arm(size_t entry, unsigned long n);
/* Fails every call of `entry` besides the armed one (a second, lasting fault, to reach what a
 * caller does after a failure, such as reading a failed build's log); shim_entry_count()
 * clears it. */
void shim_fail_every(size_t entry);
/* Whether the armed failure was injected since the last shim_reset. */
int shim_fired(void);
/* Clears the call counts and the fired flag (not the live objects). */
void shim_reset(void);
/* Calls of `entry` since the last shim_reset. */
unsigned long shim_calls(size_t entry);

/* Objects of a kind alive now: created or retained, minus released (counted since start-up). */
long shim_live(shim_kind kind);
const char *shim_kind_name(shim_kind kind);

#endif
