# tests/analyze.mk: the memory-access analysis: worked examples, unit cases, fuzz smoke run, CLI.
# The tests call functions the library hides, so they compile the sources themselves.
CUMAPZ_TEST_SOURCES = lib/status.c lib/util.c

check_PROGRAMS += tests/test_cumapz tests/test_cumapz_unit tests/fuzz_access_json
TESTS += tests/test_cumapz tests/test_cumapz_unit tests/fuzz_access_json tests/test_cumapz_cli.sh
EXTRA_DIST += tests/test_cumapz_cli.sh
# The correlation experiment, published descriptions and the planner's note on the test device.
TESTS += tests/test_cumapz_measure.sh
EXTRA_DIST += tests/test_cumapz_measure.sh \
	doc/data/h100-2026-11-21-cumapz.txt \
	doc/data/h100-2026-11-21-cumapz-transpose-1.csv \
	doc/data/h100-2026-11-21-cumapz-transpose-2.csv

tests_test_cumapz_SOURCES = tests/test_cumapz.c $(CUMAPZ_TEST_SOURCES)
tests_test_cumapz_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_cumapz_LDADD = $(MODEL_TEST_LDADD)

tests_test_cumapz_unit_SOURCES = tests/test_cumapz_unit.c $(CUMAPZ_TEST_SOURCES)
tests_test_cumapz_unit_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_cumapz_unit_LDADD = $(MODEL_TEST_LDADD)

# libFuzzer entry point; -DCLS_FUZZ_SMOKE adds the short deterministic run make check uses.
tests_fuzz_access_json_SOURCES = tests/fuzz_access_json.c $(CUMAPZ_TEST_SOURCES)
tests_fuzz_access_json_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_FUZZ_SMOKE
tests_fuzz_access_json_LDADD = $(MODEL_TEST_LDADD)
