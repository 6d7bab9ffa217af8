# tests/core.mk: stencil specs, built-ins and the naive schedule against the host reference.
check_PROGRAMS += tests/test_spec tests/test_naive
TESTS += tests/test_spec tests/test_naive
tests_test_spec_SOURCES = tests/test_spec.c
tests_test_spec_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_spec_LDADD = $(TEST_LDADD)
tests_test_naive_SOURCES = tests/test_naive.c
tests_test_naive_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_naive_LDADD = $(TEST_LDADD)
