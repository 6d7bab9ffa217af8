# tests/runtime.mk
# --- OpenCL plumbing (device.c, context.c, program.c, kernel_source.c, bench_copy.c) ---
# test_device uses the public API only; test_cache calls cls__ internals (hidden in the .la),
# so it compiles the library files it needs itself and links nothing from libclstencil.la.
check_PROGRAMS += tests/test_device tests/test_cache
TESTS += tests/test_device tests/test_cache
tests_test_device_SOURCES = tests/test_device.c
tests_test_device_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_device_LDADD = $(TEST_LDADD)
tests_test_cache_SOURCES = tests/test_cache.c lib/program.c lib/build_quiet.c lib/file_write.c lib/sha256.c \
	lib/cache_evict.c lib/context.c lib/device.c lib/kernel_source.c lib/status.c lib/util.c
nodist_tests_test_cache_SOURCES = lib/kernels_gen.c
tests_test_cache_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_cache_LDADD = $(OPENCL_LIBS) $(MODEL_TEST_LDADD)
# --- end of the OpenCL plumbing block ---
