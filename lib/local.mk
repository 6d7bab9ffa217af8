# lib/local.mk: the library's sources and the embedded kernels.
libclstencil_la_SOURCES += \
	lib/clstencil.h lib/internal.h \
	lib/status.c lib/util.c \
	lib/expr.h lib/expr.c \
	lib/stencil.c lib/stencil_json.c lib/builtins.c \
	lib/device.c lib/context.c lib/program.c lib/sha256.c lib/cache_evict.c lib/kernel_source.c \
	lib/codegen.c lib/plan.h lib/plan.c lib/exec_common.c lib/exec_naive.c \
	lib/exec_trapezoid.c lib/tune_trapezoid.c lib/reference.c \
	lib/grid_io.c lib/file_write.c lib/bench_copy.c lib/probe.c
libclstencil_la_SOURCES += lib/plan_stream25d.c lib/exec_stream25d.c lib/bench_transit.c
libclstencil_la_SOURCES += lib/plan_stream25d_tb.c lib/stream25d.h lib/stream25d_rule.c \
	lib/stream25d_rule.h
# The trapezoid planner, the ghost-zone profiles and the tuner (000_c422610359a92120.txt).
libclstencil_la_SOURCES += lib/plan_trapezoid.c lib/profile.c lib/tune.h lib/tune.c
include_HEADERS += lib/clstencil_tune.h
nodist_libclstencil_la_SOURCES = lib/kernels_gen.c

# Kernel templates: real .cl files, embedded as byte arrays at build time (xxd).
CL_FILES = cl/prelude.cl cl/naive.cl cl/naive_rows.cl cl/trapezoid.cl cl/copy.cl cl/probe.cl
# The stream25d schedule and the transit benchmarks (001_405c9e1d5e6c3c1a.txt).
CL_FILES += cl/stream25d.cl cl/transit.cl cl/stream25d_tb.cl
# The CuMAPz correlation experiment's kernels (004_3bb0fc5541bb7adb.txt; `clstencil analyze
# --measure`).
libclstencil_la_SOURCES += lib/bench_mapping.c lib/access_publish.h lib/access_publish.c
CL_FILES += cl/mapping_bench.cl
# Host-resident grids: the tiled transfer/compute pipeline (003_9039035f5da401ab.txt Sect. 6)
# and pinned host arrays.
libclstencil_la_SOURCES += lib/pipe.h lib/plan_pipeline.c lib/exec_pipeline.c lib/host_alloc.c \
	lib/pipe_trace.c
CL_FILES += cl/pipeline.cl
# Convergent solvers with chaotic relaxation, images, and their applications
# (002_a5724ce8c3a8ee6c.txt).
libclstencil_la_SOURCES += lib/solver.h lib/solver.c lib/exec_chaotic.c lib/image.c \
	lib/image_common.c lib/image_synth.c lib/image_poisson.c lib/image_sfs.c
libclstencil_la_CFLAGS += $(PNG_CFLAGS)
libclstencil_la_LIBADD += $(PNG_LIBS)
CL_FILES += cl/chaotic.cl
EXTRA_DIST += $(CL_FILES) lib/embed.sh
BUILT_SOURCES += lib/kernels_gen.c
CLEANFILES += lib/kernels_gen.c
lib/kernels_gen.c: $(CL_FILES) $(srcdir)/lib/embed.sh
	$(AM_V_GEN)$(MKDIR_P) lib && $(SHELL) $(srcdir)/lib/embed.sh '$(XXD)' $(srcdir) $@ $(CL_FILES)
