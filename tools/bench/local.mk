# tools/bench/local.mk: the benchmark baselines (`make bench`) and the figures of doc/results.md
# (`make plots`), never built by `make` or `make check`.
#
#   make bench   tools/bench/omp_stencils (gcc -O3 -march=native -fopenmp, every built-in),
#                tools/bench/pocl_systems (the library's side of the systems' comparison) and,
#                where configure found nvcc, tools/bench/cuda/{heat3d7,hotspot,poisson2d}_cuda
#                (NVCC_ARCH, default sm_90: the H100)
#   make plots   tools/plots/results.py over every doc/data/results-*/ folder into doc/img/
BENCH_OMP = tools/bench/omp_stencils$(EXEEXT)
BENCH_SYSTEMS = tools/bench/pocl_systems$(EXEEXT)
BENCH_CUDA = tools/bench/cuda/heat3d7_cuda$(EXEEXT) tools/bench/cuda/hotspot_cuda$(EXEEXT) \
	tools/bench/cuda/poisson2d_cuda$(EXEEXT)
NVCC_ARCH = sm_90
# -arch=sm_XX embeds the SASS for sm_XX and the PTX of compute_XX.
NVCC_FLAGS = -O3 -arch=$(NVCC_ARCH)
EXTRA_DIST += tools/bench/README.md tools/bench/omp_stencils.c tools/bench/pocl_vs_omp.sh \
	tools/bench/pocl_systems.c tools/bench/pocl_cputile.sh tools/bench/cputile_table.py \
	tools/bench/pocl_model.sh tools/bench/model_table.py \
	tools/bench/pocl_results.sh tools/bench/cuda/common.cuh tools/bench/cuda/heat3d7.cu \
	tools/bench/cuda/hotspot.cu tools/bench/cuda/poisson2d.cu tools/plots/results.py \
	tools/gpu/h100_results.sh tools/gpu/env.sh tools/gpu/h100_ebisu.sh \
	tools/bench/ebisu/star2d5.json tools/bench/ebisu/box2d9.json tools/bench/ebisu/star3d7.json \
	tools/bench/ebisu/box3d27.json tools/bench/ebisu/star3d13.json tools/bench/star3d25.json \
	tools/gpu/h100_column.sh
CLEANFILES += $(BENCH_OMP) $(BENCH_CUDA) $(BENCH_SYSTEMS)

bench: $(BENCH_OMP) $(BENCH_SYSTEMS) clstencil$(EXEEXT)
	@if test -n "$(NVCC)"; then \
	  $(MAKE) $(AM_MAKEFLAGS) $(BENCH_CUDA); \
	else \
	  echo "make bench: nvcc not found by configure; the CUDA baselines are not built"; \
	fi

$(BENCH_OMP): $(srcdir)/tools/bench/omp_stencils.c
	@$(MKDIR_P) tools/bench
	$(AM_V_CC)$(CC) -O3 -march=native $(OPENMP_CFLAGS) -Wall -Wextra \
	  $(srcdir)/tools/bench/omp_stencils.c -lm -o $@

$(BENCH_SYSTEMS): $(srcdir)/tools/bench/pocl_systems.c libclstencil.la
	@$(MKDIR_P) tools/bench
	$(AM_V_CCLD)$(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CC) $(AM_CFLAGS) $(CFLAGS) \
	  -I$(srcdir)/include $(LDFLAGS) $(srcdir)/tools/bench/pocl_systems.c libclstencil.la -lm -o $@

tools/bench/cuda/heat3d7_cuda$(EXEEXT): $(srcdir)/tools/bench/cuda/heat3d7.cu \
		$(srcdir)/tools/bench/cuda/common.cuh
	@$(MKDIR_P) tools/bench/cuda
	$(AM_V_GEN)$(NVCC) $(NVCC_FLAGS) $(srcdir)/tools/bench/cuda/heat3d7.cu -o $@
tools/bench/cuda/hotspot_cuda$(EXEEXT): $(srcdir)/tools/bench/cuda/hotspot.cu \
		$(srcdir)/tools/bench/cuda/common.cuh
	@$(MKDIR_P) tools/bench/cuda
	$(AM_V_GEN)$(NVCC) $(NVCC_FLAGS) $(srcdir)/tools/bench/cuda/hotspot.cu -o $@
tools/bench/cuda/poisson2d_cuda$(EXEEXT): $(srcdir)/tools/bench/cuda/poisson2d.cu \
		$(srcdir)/tools/bench/cuda/common.cuh
	@$(MKDIR_P) tools/bench/cuda
	$(AM_V_GEN)$(NVCC) $(NVCC_FLAGS) $(srcdir)/tools/bench/cuda/poisson2d.cu -o $@

plots:
	@if test -z "$(PYTHON3)"; then echo "make plots: python3 not found by configure"; exit 1; fi
	$(PYTHON3) $(srcdir)/tools/plots/results.py --out $(srcdir)/doc/img \
	  $(srcdir)/doc/data/results-*

.PHONY: bench plots
