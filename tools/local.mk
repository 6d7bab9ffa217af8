# tools/local.mk: the clstencil command line (appended to the top-level Makefile.am).
bin_PROGRAMS += clstencil
clstencil_SOURCES = tools/clstencil.c tools/cli.h tools/cli_util.c tools/cli_plan.c tools/cli_fields.c tools/cli_picture.c tools/cmd_schedules.c tools/cmd_devices.c \
	tools/cmd_run.c tools/cmd_demo.c tools/cmd_bench.c tools/cmd_bench_transit.c \
	tools/cmd_bench_suite.c \
	tools/cmd_probe.c tools/cmd_model.c
clstencil_SOURCES += tools/cmd_tune.c
# `clstencil tune --pipeline`: host-resident runs against tile size (Visschers 2012).
clstencil_SOURCES += tools/cmd_tune_pipeline.c
# `clstencil analyze`: the memory-access analysis of clstencil_model.h.
clstencil_SOURCES += tools/cmd_analyze.c
# Its correlation experiment (--measure) times cl/mapping_bench.cl on the live device.
clstencil_SOURCES += tools/analyze_measure.h tools/cmd_analyze_measure.c
# The convergent solver's commands (Chen et al.).
clstencil_SOURCES += tools/cmd_solve.h tools/cmd_solve_common.c tools/cmd_solve.c
# The command line sees the public headers (AM_CPPFLAGS) and its own folder only.
clstencil_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tools
# The image applications' commands, where the library has them (configure --with-png).
if WITH_PNG
clstencil_SOURCES += tools/cmd_poisson_edit.c tools/cmd_sfs.c
clstencil_CPPFLAGS += -DCLS_WITH_IMAGES
endif
clstencil_LDADD = libclstencil.la -lm
dist_man_MANS += doc/clstencil.1
# `make bench` and `make plots` (doc/results.md), not part of `make`.
include tools/bench/local.mk
