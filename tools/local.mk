# tools/local.mk: the clstencil command line (appended to the top-level Makefile.am).
bin_PROGRAMS += clstencil
clstencil_SOURCES = tools/clstencil.c tools/cli.h tools/cli_util.c tools/cmd_devices.c \
	tools/cmd_run.c tools/cmd_demo.c tools/cmd_bench.c tools/cmd_bench_transit.c \
	tools/cmd_bench_suite.c \
	tools/cmd_probe.c tools/cmd_model.c
clstencil_SOURCES += tools/cmd_tune.c
# `clstencil tune --pipeline`: host-resident runs against tile size (003_9039035f5da401ab.txt).
clstencil_SOURCES += tools/cmd_tune_pipeline.c
# `clstencil analyze` links the memory-access analysis itself (it calls only the public
# device-model API, so the library keeps its symbols hidden).
clstencil_SOURCES += tools/cmd_analyze.c $(CUMAPZ_SOURCES) model/json_strict.c
# Its correlation experiment (--measure) times cl/mapping_bench.cl on the live device.
clstencil_SOURCES += tools/analyze_measure.h tools/cmd_analyze_measure.c
# The convergent solver's commands (002_a5724ce8c3a8ee6c.txt).
clstencil_SOURCES += tools/cmd_solve.h tools/cmd_solve_common.c tools/cmd_solve.c \
	tools/cmd_poisson_edit.c tools/cmd_sfs.c
clstencil_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
clstencil_LDADD = libclstencil.la -lm
clstencil_CPPFLAGS += $(CJSON_CFLAGS)
clstencil_LDADD += $(CJSON_LIBS)
dist_man_MANS += doc/clstencil.1
# `make bench` and `make plots` (issue 9), not part of `make`.
include tools/bench/local.mk
