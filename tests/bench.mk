# tests/bench.mk: the smoke test of `clstencil bench suite` and its output checker.
check_PROGRAMS += tests/check_bench_output
tests_check_bench_output_SOURCES = tests/check_bench_output.c
tests_check_bench_output_CPPFLAGS = $(TEST_CPPFLAGS)
tests_check_bench_output_LDADD = $(CJSON_LIBS) -lm
TESTS += tests/test_bench_suite.sh
EXTRA_DIST += tests/test_bench_suite.sh
# doc/results.md's tables from the committed data (tools/plots/results.py --markdown).
TESTS += tests/test_results_tables.sh
EXTRA_DIST += tests/test_results_tables.sh
