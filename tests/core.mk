# tests/core.mk: stencil specs, built-ins and the naive schedule against the host reference.
check_PROGRAMS += tests/test_spec tests/test_naive
TESTS += tests/test_spec tests/test_naive
tests_test_spec_SOURCES = tests/test_spec.c
tests_test_spec_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_spec_LDADD = $(TEST_LDADD)
tests_test_naive_SOURCES = tests/test_naive.c
tests_test_naive_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_naive_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/test_naive_vector
TESTS += tests/test_naive_vector
tests_test_naive_vector_SOURCES = tests/test_naive_vector.c tests/h100_standin.h
tests_test_naive_vector_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_naive_vector_LDADD = $(TEST_LDADD)

# Systems of fields: specs, refusals and the host reference (no device needed).
check_PROGRAMS += tests/test_system_spec
TESTS += tests/test_system_spec
tests_test_system_spec_SOURCES = tests/test_system_spec.c
tests_test_system_spec_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_system_spec_LDADD = $(TEST_LDADD) -lm

# Systems of fields on the naive schedule against the reference; refusals of the others.
check_PROGRAMS += tests/test_system
TESTS += tests/test_system
tests_test_system_SOURCES = tests/test_system.c
tests_test_system_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_system_LDADD = $(TEST_LDADD)
# The same with the H100's model on PoCL: the GPUs' stage kernel (columns).
check_PROGRAMS += tests/test_system_columns
TESTS += tests/test_system_columns
tests_test_system_columns_SOURCES = tests/test_system.c
tests_test_system_columns_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_TEST_COLUMNS
tests_test_system_columns_LDADD = $(TEST_LDADD)

# The user guide's example program is compiled and run, and must be quoted verbatim in the guide.
check_PROGRAMS += tests/example_guide
TESTS += tests/test_example.sh tests/test_guide_quotes.sh
tests_example_guide_SOURCES = doc/example.c
tests_example_guide_CPPFLAGS = $(TEST_CPPFLAGS)
tests_example_guide_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/test_guide_quotes.sh tests/test_example.sh doc/guide.md doc/stencils.md
# The guide's system example, the same way (quoted in the guide's "Systems of fields").
check_PROGRAMS += tests/example_system
TESTS += tests/test_example_system.sh
tests_example_system_SOURCES = doc/example_system.c
tests_example_system_CPPFLAGS = $(TEST_CPPFLAGS)
tests_example_system_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/test_example_system.sh
# Shell tests speak TAP too.
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)

# States (advanced in parts, per-step arrays, OpenCL interop, misuse) on every schedule against
# the reference.
check_PROGRAMS += tests/test_state
TESTS += tests/test_state
tests_test_state_SOURCES = tests/test_state.c
tests_test_state_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_state_LDADD = $(TEST_LDADD)

# The trapezoid (ghost-zone) schedule against the reference.
check_PROGRAMS += tests/test_trapezoid
TESTS += tests/test_trapezoid
tests_test_trapezoid_SOURCES = tests/test_trapezoid.c
tests_test_trapezoid_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_trapezoid_LDADD = $(TEST_LDADD)

# Systems of fields against physics: orders of convergence, conserved energy, a pattern forming.
check_PROGRAMS += tests/test_system_physics
TESTS += tests/test_system_physics
tests_test_system_physics_SOURCES = tests/test_system_physics.c
tests_test_system_physics_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_system_physics_LDADD = $(TEST_LDADD) -lm
check_PROGRAMS += tests/test_cputile
TESTS += tests/test_cputile
tests_test_cputile_SOURCES = tests/test_cputile.c tests/user_aux.h
tests_test_cputile_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_cputile_LDADD = $(TEST_LDADD)
# cputile's model on fixed inputs.
check_PROGRAMS += tests/test_cputile_system
TESTS += tests/test_cputile_system
tests_test_cputile_system_SOURCES = tests/test_cputile_system.c tests/system_grids.h
tests_test_cputile_system_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_cputile_system_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/test_cputile_model
TESTS += tests/test_cputile_model
tests_test_cputile_model_SOURCES = tests/test_cputile_model.c lib/schedules/cputile/model.c \
	model/cpu_rows.c
tests_test_cputile_model_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_cputile_model_LDADD = -lm
# AUTO's choice between the naive row kernel and cputile under the CPU model.
check_PROGRAMS += tests/test_cpu_pick
TESTS += tests/test_cpu_pick
tests_test_cpu_pick_SOURCES = tests/test_cpu_pick.c
tests_test_cpu_pick_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_cpu_pick_LDADD = $(TEST_LDADD)
