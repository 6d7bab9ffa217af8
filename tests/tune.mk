# tests/tune.mk: the tuner (profiles and their cache, optimizer against brute force, AUTO) and
# its command line (model STENCIL, tune, tune --exhaustive, run/bench trapezoid options).
check_PROGRAMS += tests/test_tune
TESTS += tests/test_tune tests/test_tune_cli.sh
EXTRA_DIST += tests/test_tune_cli.sh
tests_test_tune_SOURCES = tests/test_tune.c
tests_test_tune_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_tune_LDADD = $(TEST_LDADD)
