# tests/robust.mk: hostile and careless input (doc/reliability-fixes.md lists what each covers).
check_PROGRAMS += tests/test_injection
TESTS += tests/test_injection
tests_test_injection_SOURCES = tests/test_injection.c
tests_test_injection_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_injection_LDADD = $(TEST_LDADD)
TESTS += tests/test_cli_hostile.sh
EXTRA_DIST += tests/test_cli_hostile.sh
check_PROGRAMS += tests/test_limits
TESTS += tests/test_limits
tests_test_limits_SOURCES = tests/test_limits.c
tests_test_limits_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_limits_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/test_writers
TESTS += tests/test_writers
tests_test_writers_SOURCES = tests/test_writers.c
tests_test_writers_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_writers_LDADD = $(TEST_LDADD)
