# lib/local.mk: the library's sources and the embedded kernels.
libclstencil_la_SOURCES += \
	lib/clstencil.h lib/internal.h \
	lib/status.c lib/util.c \
	lib/expr.h lib/expr.c \
	lib/stencil.c lib/stencil_json.c lib/builtins.c \
	lib/device.c lib/context.c lib/program.c lib/kernel_source.c \
	lib/codegen.c lib/plan.h lib/plan.c lib/exec_common.c lib/exec_naive.c \
	lib/exec_trapezoid.c lib/tune_trapezoid.c lib/reference.c \
	lib/grid_io.c lib/bench_copy.c lib/probe.c
nodist_libclstencil_la_SOURCES = lib/kernels_gen.c

# Kernel templates: real .cl files, embedded as byte arrays at build time (xxd).
CL_FILES = cl/prelude.cl cl/naive.cl cl/naive_rows.cl cl/trapezoid.cl cl/copy.cl cl/probe.cl
EXTRA_DIST += $(CL_FILES) lib/embed.sh
BUILT_SOURCES += lib/kernels_gen.c
CLEANFILES += lib/kernels_gen.c
lib/kernels_gen.c: $(CL_FILES) $(srcdir)/lib/embed.sh
	$(AM_V_GEN)$(MKDIR_P) lib && $(SHELL) $(srcdir)/lib/embed.sh '$(XXD)' $(srcdir) $@ $(CL_FILES)
