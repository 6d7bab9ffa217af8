/* cmd_schedules.c: `clstencil schedules`: the registered schedules and their parameters. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

enum { OPT_FORMAT = 1 };
static const cli_option options[] = {{"format", 1, OPT_FORMAT}, {NULL, 0, 0}};

static int schedules_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_format format = CLI_FORMAT_TEXT;
    const char *v;
    int id;
    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); return CLI_EXIT_OK;
        case CLI_OPT_ERROR: return CLI_EXIT_USAGE;
        case CLI_OPT_POSITIONAL: return cli_usage_error(self, "unexpected argument '%s'", v);
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_JSON, &format) != 0)
                return cli_usage_error(self, "unknown --format '%s' (text or json)", v);
            break;
        }
    }
    cli_json j;
    if (format == CLI_FORMAT_JSON) {
        cli_json_begin(&j, stdout);
        cli_json_array(&j, "schedules");
    }
    cls_schedule_info si;
    for (size_t i = 0; cls_schedule_describe(i, &si) == CLS_SUCCESS; i++) {
        if (format == CLI_FORMAT_JSON) {
            cli_json_object(&j, NULL);
            cli_json_str(&j, "name", si.name);
            cli_json_str(&j, "summary", si.summary);
            cli_json_bool(&j, "host", si.host);
            cli_json_array(&j, "params");
        } else {
            printf("%s%s: %s\n", i ? "\n" : "", si.name, si.summary);
        }
        for (size_t k = 0; k < si.num_params; k++) {
            cls_schedule_param sp;
            if (cls_schedule_describe_param(i, k, &sp) != CLS_SUCCESS) break;
            char range[160];
            if (sp.values[0])
                snprintf(range, sizeof range, "%s", sp.values);
            else
                snprintf(range, sizeof range, "%s %zu..%zu", sp.kind, sp.min, sp.max);
            if (format == CLI_FORMAT_JSON) {
                cli_json_object(&j, NULL);
                cli_json_str(&j, "name", sp.name);
                cli_json_str(&j, "kind", sp.kind);
                if (sp.values[0])
                    cli_json_str(&j, "values", sp.values);
                else {
                    cli_json_uint(&j, "min", sp.min);
                    cli_json_uint(&j, "max", sp.max);
                }
                cli_json_str(&j, "doc", sp.doc);
                cli_json_close(&j);
            } else {
                printf("  --param %s.%s=V  (%s)\n      %s\n", si.name, sp.name, range, sp.doc);
            }
        }
        if (format == CLI_FORMAT_JSON) {
            cli_json_close(&j);
            cli_json_close(&j);
        }
    }
    if (format == CLI_FORMAT_JSON) {
        cli_json_close(&j);
        cli_json_end(&j);
    }
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

const cli_command cli_cmd_schedules = {
    "schedules",
    "list the schedules and the parameters they take",
    "usage: clstencil schedules [--format text|json]",
    "Lists every registered schedule with a one-line summary and the parameters it takes, as\n"
    "`clstencil run --param SCHEDULE.NAME=VALUE` and cls_plan_options.params accept them.\n"
    "\n"
    "Options:\n"
    "  --format F          text (default) or json\n"
    "  -h, --help          show this help\n",
    schedules_main,
};
