/* build_quiet.c: clBuildProgram with the driver's own stderr chatter kept from the user.
 *
 * Some drivers print their compiler's diagnostics straight to the process's stderr while they
 * build (PoCL's clang: "1 warning generated."), besides putting them in the build log.  A
 * library must not write on its caller's terminal, so the build runs with file descriptor 2
 * pointed at an anonymous temporary file; what landed there is handed back to the caller, who
 * shows it only where the user asked for build diagnostics (CLSTENCIL_DEBUG,
 * CLSTENCIL_BUILD_LOG).  Another thread writing on stderr during a build would be captured too:
 * the window is the compile alone, and what is captured is never lost, only rerouted. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* Captured chatter beyond this is cut: a diagnostic, not a payload. */
#define CHATTER_MAX (64 * 1024)

/* The text written to fd since it was created (malloc'd, NUL-terminated; NULL when empty or
 * unreadable). */
static char *read_back(int fd)
{
    off_t end = lseek(fd, 0, SEEK_END);
    if (end <= 0 || lseek(fd, 0, SEEK_SET) != 0) return NULL;
    size_t n = end > CHATTER_MAX ? CHATTER_MAX : (size_t)end;
    char *text = malloc(n + 1);
    if (!text) return NULL;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, text + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    if (got == 0) {
        free(text);
        return NULL;
    }
    text[got] = '\0';
    return text;
}

cl_int cls__build_quiet(cl_program prog, cl_device_id device, const char *options, char **chatter)
{
    if (chatter) *chatter = NULL;
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = tmp ? dup(STDERR_FILENO) : -1;
    int redirected = saved >= 0 && dup2(fileno(tmp), STDERR_FILENO) >= 0;
    if (!redirected) cls__debug("cannot capture the compiler's stderr; it goes to yours");

    cl_int err = clBuildProgram(prog, 1, &device, options, NULL, NULL);

    if (redirected) {
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        char *text = read_back(fileno(tmp));
        if (chatter)
            *chatter = text;
        else
            free(text);
    }
    if (saved >= 0) close(saved);
    if (tmp) fclose(tmp);
    return err;
}
