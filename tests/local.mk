# tests/local.mk: the test programs (TAP through automake's tap-driver).
# LeakSanitizer: use_tls=0 because its tracer crashes ("Tracer caught signal 11") walking the
# dynamic TLS of PoCL's LLVM after in-process kernel compiles (test_naive with a fresh program
# cache); the library keeps no heap pointers in thread-local storage.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
AM_TESTS_ENVIRONMENT = OCL_ICD_VENDORS=$${CLS_TEST_ICD:-pocl.icd}; export OCL_ICD_VENDORS; \
	CLSTENCIL_CACHE_DIR=$(abs_builddir)/test-cache; export CLSTENCIL_CACHE_DIR; \
	CLSTENCIL_DEVICE=$${CLS_TEST_DEVICE:-}; export CLSTENCIL_DEVICE; \
	LSAN_OPTIONS=suppressions=$(abs_srcdir)/tests/lsan.supp:print_suppressions=0:leak_check_at_exit=0:use_tls=0; export LSAN_OPTIONS; \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0; export ASAN_OPTIONS; \
	UBSAN_OPTIONS=print_stacktrace=1; export UBSAN_OPTIONS; \
	CLS_SRCDIR=$(abs_srcdir); export CLS_SRCDIR; \
	NM='$(NM)'; export NM; CC='$(CC)'; export CC;
EXTRA_DIST += tests/tap.h tests/tap.sh tests/fuzz_mutate.h tests/lsan.supp
# Tests may use every layer.
TEST_CPPFLAGS = $(LIB_CPPFLAGS) -I$(srcdir)/tests $(OPENCL_CFLAGS) $(CJSON_CFLAGS)
# Model and device-model tests link the convenience libraries: their internals, no OpenCL.
MODEL_TEST_LDADD = libcls_devices.la libcls_model.la $(CJSON_LIBS) -lm
TEST_LDADD = libclstencil.la $(OPENCL_LIBS) $(CJSON_LIBS) -lm
clean-local: clean-test-cache
clean-test-cache:
	-rm -rf $(builddir)/test-cache
.PHONY: clean-test-cache

include tests/expr.mk
include tests/io.mk
include tests/devices.mk
include tests/runtime.mk
include tests/cli.mk
include tests/core.mk
include tests/layers.mk
include tests/robust.mk

# The closing "N passed, N failed" line over every TAP result of the last `make check`.
check-summary:
	@pass=0; fail=0; skip=0; \
	for f in $$(find $(builddir)/tests -name '*.trs' 2>/dev/null); do \
	  p=$$(grep -c '^:test-result: PASS' $$f); x=$$(grep -c '^:test-result: XFAIL' $$f); \
	  s=$$(grep -c '^:test-result: SKIP' $$f); \
	  b=$$(grep -c -E '^:test-result: (FAIL|XPASS|ERROR)' $$f); \
	  pass=$$((pass + p + x)); fail=$$((fail + b)); skip=$$((skip + s)); \
	done; \
	echo "$$pass passed, $$fail failed, $$skip skipped"
.PHONY: check-summary
include tests/ghost.mk
include tests/probe.mk
include tests/pipeline.mk
include tests/stream.mk
include tests/tune.mk
include tests/chaotic.mk
include tests/analyze.mk
include tests/bench.mk
include tests/architecture.mk
include tests/faults.mk
include tests/fuzz.mk
include tests/python.mk
