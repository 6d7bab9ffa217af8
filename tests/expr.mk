# tests/expr.mk: the body language's unit tests and its fuzz target's smoke run.
check_PROGRAMS += tests/test_expr tests/fuzz_expr_smoke
TESTS += tests/test_expr tests/fuzz_expr_smoke
# The library hides its internal symbols, so the tests link lib/expr.c directly.
tests_test_expr_SOURCES = tests/test_expr.c lib/expr.c
tests_test_expr_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_expr_LDADD = $(TEST_LDADD)
tests_fuzz_expr_smoke_SOURCES = tests/fuzz_expr.c lib/expr.c
tests_fuzz_expr_smoke_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_FUZZ_SMOKE
tests_fuzz_expr_smoke_LDADD = -lm
