# tests/faults.mk: OpenCL fault injection.  The shim (tests/ocl_shim.c) defines the OpenCL
# entry points in the test program itself, so the library's calls resolve to it; it forwards
# to the real ones with dlsym(RTLD_NEXT).  -rdynamic exports its definitions even where the
# link would not (they must win over libOpenCL's at run time).
check_PROGRAMS += tests/test_faults
TESTS += tests/test_faults
EXTRA_DIST += tests/ocl_shim.h
tests_test_faults_SOURCES = tests/test_faults.c tests/ocl_shim.c tests/ocl_shim.h
tests_test_faults_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_faults_LDFLAGS = $(AM_LDFLAGS) -rdynamic
tests_test_faults_LDADD = $(TEST_LDADD) -ldl
# The entry points the shim defines are those the library calls (nm on the built library).
TESTS += tests/test_faults_cover.sh
EXTRA_DIST += tests/test_faults_cover.sh

# The command line with the shim (configured through CLS_SHIM_FAIL and CLS_SHIM_REPORT):
# failed OpenCL calls under `clstencil run --output` and `clstencil poisson-edit --output`
# leave an existing output file as it was and every object released.
check_PROGRAMS += tests/clstencil_shim
tests_clstencil_shim_SOURCES = $(clstencil_SOURCES) tests/ocl_shim.c
tests_clstencil_shim_CPPFLAGS = $(clstencil_CPPFLAGS) -I$(srcdir)/tests
tests_clstencil_shim_LDFLAGS = $(AM_LDFLAGS) -rdynamic
tests_clstencil_shim_LDADD = $(clstencil_LDADD) -ldl
TESTS += tests/test_faults_cli.sh
EXTRA_DIST += tests/test_faults_cli.sh
