/* clstencil.c: the command line's entry point: finds the subcommand and hands it argv. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The dispatch table: a new subcommand is one file defining a cli_command and one line here. */
static const cli_command *const commands[] = {
    &cli_cmd_devices,
    &cli_cmd_run,
    &cli_cmd_schedules,
    &cli_cmd_demo,
    &cli_cmd_bench,
    &cli_cmd_probe,
    &cli_cmd_model,
    &cli_cmd_tune,
    &cli_cmd_analyze,
    &cli_cmd_solve,
#ifdef CLS_WITH_IMAGES
    &cli_cmd_poisson_edit,
    &cli_cmd_sfs,
#endif
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* Commands of an optional part this build leaves out, and what brings them in. */
static const struct {
    const char *name, *part;
} absent[] = {
#ifndef CLS_WITH_IMAGES
    {"poisson-edit", "the image applications (libpng; configure --with-png)"},
    {"sfs", "the image applications (libpng; configure --with-png)"},
#endif
    {NULL, NULL},
};

/* "clstencil: NAME is not built in: ..." when the command belongs to a part left out; 1 then. */
static int say_absent(const char *prefix, const char *name)
{
    for (size_t i = 0; absent[i].name; i++) {
        if (strcmp(absent[i].name, name) != 0) continue;
        fprintf(stderr, "%s: '%s' is not built in: this build of libclstencil leaves out %s\n",
                prefix, name, absent[i].part);
        return 1;
    }
    return 0;
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0) return commands[i];
    return NULL;
}

static void print_main_usage(FILE *f)
{
    fprintf(f, "usage: clstencil [--help] [--version] COMMAND [OPTIONS] [ARGS]\n"
               "\n"
               "Runs iterative stencil loops on OpenCL devices (libclstencil %s).\n"
               "\n"
               "Commands:\n",
            cls_version());
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-13s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "  %-13s %s\n", "help", "show the help of a command");
    fprintf(f, "\n"
               "Run 'clstencil help COMMAND' or 'clstencil COMMAND --help' for its options.\n"
               "Results go to stdout; the chosen device, progress and errors to stderr.\n"
               "CLSTENCIL_DEVICE selects the device unless --device is given; see clstencil(1).\n");
}

void cli_print_help(const cli_command *cmd, FILE *f)
{
    fprintf(f, "%s\n\n%s", cmd->synopsis, cmd->help);
}

int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "clstencil %s: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s\nRun 'clstencil help %s' for the options.\n", cmd->synopsis, cmd->name);
    return CLI_EXIT_USAGE;
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        print_main_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (argc > 2) {
        fprintf(stderr, "clstencil help: one command name expected\n");
        return CLI_EXIT_USAGE;
    }
    const cli_command *cmd = find_command(argv[1]);
    if (!cmd && say_absent("clstencil help", argv[1])) return CLI_EXIT_FAIL;
    if (!cmd) {
        fprintf(stderr, "clstencil help: unknown command '%s'\n\n", argv[1]);
        print_main_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    cli_print_help(cmd, stdout);
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_main_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        print_main_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("clstencil (libclstencil) %s\n", cls_version());
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "help") == 0) return cmd_help(argc - 1, argv + 1);

    const cli_command *cmd = find_command(name);
    if (!cmd && say_absent("clstencil", name)) return CLI_EXIT_FAIL;
    if (!cmd) {
        if (name[0] == '-')
            fprintf(stderr, "clstencil: unknown option '%s' (options follow the command)\n\n",
                    name);
        else
            fprintf(stderr, "clstencil: unknown command '%s'\n\n", name);
        print_main_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return cmd->main(cmd, argc - 1, argv + 1);
}
