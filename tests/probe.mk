# tests/probe.mk: `clstencil probe` (quick mode on the test device) and the model command line.
check_PROGRAMS += tests/test_probe
TESTS += tests/test_probe tests/test_cli_model.sh
EXTRA_DIST += tests/test_cli_model.sh
tests_test_probe_SOURCES = tests/test_probe.c
tests_test_probe_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_probe_LDADD = $(TEST_LDADD)
