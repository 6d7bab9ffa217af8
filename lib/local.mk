# lib/local.mk: the library's sources and the embedded kernels.
libcls_runtime_la_SOURCES += \
	lib/internal.h \
	lib/status.c lib/util.c \
	lib/expr.h lib/expr.c \
	lib/stencil.c lib/stencil_lift.c lib/stencil_system.c lib/in_place.c lib/rotation.c lib/stencil_json.c lib/builtins.c lib/builtin_systems.c \
	lib/device.c lib/context.c lib/program.c lib/build_quiet.c lib/sha256.c lib/cache_evict.c lib/kernel_source.c \
	lib/codegen.c lib/reference.c \
	lib/grid_io.c lib/file_write.c lib/bench_copy.c lib/probe.c lib/bench_transit.c \
	lib/cpu_cost.h lib/cpu_cost.c
# The planner core, states and runs, and what the schedules share (lib/schedule.h, lib/exec.h).
libcls_runtime_la_SOURCES += lib/schedule.h lib/exec.h lib/plan.h lib/plan.c lib/plan_run.c \
	lib/params.c lib/build.c lib/exec.c lib/state.c lib/host_alloc.c \
	lib/schedules/registry.c
nodist_libcls_runtime_la_SOURCES = lib/kernels_gen.c

# Kernel templates: real .cl files, embedded as byte arrays at build time (xxd).
CL_FILES = cl/prelude.cl cl/naive.cl cl/naive_rows.cl cl/naive_system.cl cl/naive_system_rows.cl cl/trapezoid.cl cl/copy.cl cl/probe.cl
CL_FILES += cl/stream25d.cl cl/transit.cl cl/stream25d_tb.cl cl/cputile.cl cl/stream25d_column.cl
# The CuMAPz correlation experiment's kernels (Kim & Shrivastava; `clstencil analyze
# --measure`) and the access descriptions the schedules publish.
libcls_runtime_la_SOURCES += lib/bench_mapping.c lib/access_publish.h lib/access_publish.c
CL_FILES += cl/mapping_bench.cl
CL_FILES += cl/pipeline.cl cl/pipeline_system.cl cl/system_rotation.cl
# Convergent solvers with chaotic relaxation (Chen et al.).
libcls_runtime_la_SOURCES += lib/solver.h lib/solver.c lib/exec_chaotic.c
CL_FILES += cl/chaotic.cl
# Images and the applications on the solvers: the optional part built with libpng.
if WITH_PNG
libcls_runtime_la_SOURCES += lib/image.c lib/image_common.c lib/image_synth.c \
	lib/image_poisson.c lib/image_sfs.c
libcls_runtime_la_CFLAGS += $(PNG_CFLAGS)
libcls_runtime_la_LIBADD += $(PNG_LIBS)
endif
EXTRA_DIST += $(CL_FILES)
BUILT_SOURCES += lib/kernels_gen.c
CLEANFILES += lib/kernels_gen.c
lib/kernels_gen.c: $(CL_FILES) $(srcdir)/embed.sh
	$(AM_V_GEN)$(MKDIR_P) lib && $(SHELL) $(srcdir)/embed.sh '$(XXD)' $(srcdir) $@ \
		cls__embedded_kernels $(CL_FILES)

# The schedules: one folder each, registered in lib/schedules/registry.c.
include lib/schedules/naive/local.mk
include lib/schedules/stream25d/local.mk
include lib/schedules/trapezoid/local.mk
include lib/schedules/pipeline/local.mk
include lib/schedules/cputile/local.mk
