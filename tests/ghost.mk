# tests/ghost.mk: the ghost-zone cost model and optimizer against hand values and the document.
# The model's functions are hidden by the library, so the test compiles the sources itself.
check_PROGRAMS += tests/test_ghost_zone
TESTS += tests/test_ghost_zone

tests_test_ghost_zone_SOURCES = tests/test_ghost_zone.c lib/status.c lib/util.c
tests_test_ghost_zone_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_ghost_zone_LDADD = $(MODEL_TEST_LDADD)

# Systems of fields on the trapezoid schedule against the host reference.
check_PROGRAMS += tests/test_system_sched
TESTS += tests/test_system_sched
tests_test_system_sched_SOURCES = tests/test_system_sched.c tests/system_grids.h
tests_test_system_sched_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_system_sched_LDADD = $(TEST_LDADD)

# AUTO and the ghost-zone model for systems of fields: profiles, predictions, bitwise runs.
check_PROGRAMS += tests/test_system_auto
TESTS += tests/test_system_auto
tests_test_system_auto_SOURCES = tests/test_system_auto.c tests/h100_standin.h
tests_test_system_auto_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_system_auto_LDADD = $(TEST_LDADD)
# The same on the command line: tune's profile of a system, run --verify with both predictions.
TESTS += tests/test_cli_system_auto.sh
EXTRA_DIST += tests/test_cli_system_auto.sh

# Fused stream25d steps for systems (a field and its time levels) against the reference, and
# AUTO's offer of them under the H100 stand-in.
check_PROGRAMS += tests/test_system_fused
TESTS += tests/test_system_fused
tests_test_system_fused_SOURCES = tests/test_system_fused.c tests/system_grids.h tests/h100_standin.h
tests_test_system_fused_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_system_fused_LDADD = $(TEST_LDADD)
# The same for a stage that updates several fields (gray_scott, a 3D pair).
check_PROGRAMS += tests/test_system_fused_fields
TESTS += tests/test_system_fused_fields
tests_test_system_fused_fields_SOURCES = tests/test_system_fused_fields.c tests/system_grids.h \
	tests/h100_standin.h
tests_test_system_fused_fields_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_system_fused_fields_LDADD = $(TEST_LDADD)
# Every built-in system on stream25d, one step per pass and fused, against the reference.
check_PROGRAMS += tests/test_system_stream25d_matrix
TESTS += tests/test_system_stream25d_matrix
tests_test_system_stream25d_matrix_SOURCES = tests/test_system_stream25d_matrix.c \
	tests/system_grids.h
tests_test_system_stream25d_matrix_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_system_stream25d_matrix_LDADD = $(TEST_LDADD)
