# tests/io.mk
check_PROGRAMS += tests/test_io
TESTS += tests/test_io
tests_test_io_SOURCES = tests/test_io.c
tests_test_io_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_io_LDADD = $(TEST_LDADD)
