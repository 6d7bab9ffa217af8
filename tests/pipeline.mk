# tests/pipeline.mk: the pipeline model and planner against hand values and Visschers' tables.
# The model's functions are hidden by the library, so the test compiles the sources itself.
check_PROGRAMS += tests/test_pipeline
TESTS += tests/test_pipeline

tests_test_pipeline_SOURCES = tests/test_pipeline.c lib/status.c lib/util.c
tests_test_pipeline_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_pipeline_LDADD = $(MODEL_TEST_LDADD)

# The pipeline executor on PoCL: every scheme against the host reference, the memory cap.
check_PROGRAMS += tests/test_pipeline_exec
TESTS += tests/test_pipeline_exec
tests_test_pipeline_exec_SOURCES = tests/test_pipeline_exec.c
tests_test_pipeline_exec_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_pipeline_exec_LDADD = $(TEST_LDADD)

# The planner's choice within the device: the resident schedule against the best pipeline,
# with the H100 model standing in for PoCL's (plans created, not run).
check_PROGRAMS += tests/test_pipeline_choice
TESTS += tests/test_pipeline_choice
tests_test_pipeline_choice_SOURCES = tests/test_pipeline_choice.c tests/h100_standin.h
tests_test_pipeline_choice_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_pipeline_choice_LDADD = $(TEST_LDADD)

# `clstencil tune --pipeline` on PoCL: the sweep's CSV and the confirmation rounds.
TESTS += tests/test_tune_pipeline.sh
EXTRA_DIST += tests/test_tune_pipeline.sh

# Plans keep their device buffers between runs: refilled each run, freed on request, after a
# failure and with release_buffers; the report's allocated flag and prediction.
check_PROGRAMS += tests/test_plan_buffers
TESTS += tests/test_plan_buffers
tests_test_plan_buffers_SOURCES = tests/test_plan_buffers.c tests/h100_standin.h
tests_test_plan_buffers_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_plan_buffers_LDADD = $(TEST_LDADD)

# The pipeline's dependencies on PoCL, read off $CLSTENCIL_PIPE_TRACE's profiling times:
# every scheme, thin last tiles with auxiliary arrays, halo reuse in 2D and 3D.
check_PROGRAMS += tests/test_pipeline_order
TESTS += tests/test_pipeline_order
tests_test_pipeline_order_SOURCES = tests/test_pipeline_order.c
tests_test_pipeline_order_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_pipeline_order_LDADD = $(TEST_LDADD)

# The limits: the cap's pick never tiles thinner than the halo makes sensible, caps and host
# arrays that leave no sensible run are refused with the bytes.
check_PROGRAMS += tests/test_pipeline_limits
TESTS += tests/test_pipeline_limits
tests_test_pipeline_limits_SOURCES = tests/test_pipeline_limits.c
tests_test_pipeline_limits_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_pipeline_limits_LDADD = $(TEST_LDADD)

# Systems of fields through the pipeline on PoCL: built-in systems x schemes x steps per tile x
# tiles x dtypes x boundary kinds, bitwise; a cap, a host state, in place.
check_PROGRAMS += tests/test_pipeline_system
TESTS += tests/test_pipeline_system
tests_test_pipeline_system_SOURCES = tests/test_pipeline_system.c tests/system_grids.h
tests_test_pipeline_system_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_pipeline_system_LDADD = $(TEST_LDADD)
