# tests/fuzz.mk: the fuzz targets of the readers.  Each tests/fuzz_*.c is one libFuzzer entry
# point; make check builds it with -DCLS_FUZZ_SMOKE, a main() that runs the seeds of
# tests/fuzz/<target>/ and a fixed number of their mutations (tests/fuzz_smoke.h).
EXTRA_DIST += tests/fuzz_smoke.h tests/fuzz_target.h

check_PROGRAMS += tests/fuzz_stencil_json_smoke
TESTS += tests/fuzz_stencil_json_smoke
tests_fuzz_stencil_json_smoke_SOURCES = tests/fuzz_stencil_json.c
tests_fuzz_stencil_json_smoke_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_FUZZ_SMOKE
tests_fuzz_stencil_json_smoke_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/fuzz_npy_smoke
TESTS += tests/fuzz_npy_smoke
EXTRA_DIST += tests/fuzz_file.h
tests_fuzz_npy_smoke_SOURCES = tests/fuzz_npy.c
tests_fuzz_npy_smoke_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_FUZZ_SMOKE
tests_fuzz_npy_smoke_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/fuzz_image_smoke
TESTS += tests/fuzz_image_smoke
tests_fuzz_image_smoke_SOURCES = tests/fuzz_image.c
tests_fuzz_image_smoke_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_FUZZ_SMOKE
tests_fuzz_image_smoke_LDADD = $(TEST_LDADD)

