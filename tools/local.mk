# tools/local.mk: the clstencil command line (appended to the top-level Makefile.am).
bin_PROGRAMS += clstencil
clstencil_SOURCES = tools/clstencil.c tools/cli.h tools/cli_util.c tools/cmd_devices.c \
	tools/cmd_run.c tools/cmd_demo.c tools/cmd_bench.c tools/cmd_probe.c tools/cmd_model.c
clstencil_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
clstencil_LDADD = libclstencil.la -lm
dist_man_MANS += doc/clstencil.1
