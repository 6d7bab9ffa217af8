# tests/stream.mk: the traffic model against Mo & Li's numbers (its functions are
# hidden by the library, so the test links model/'s convenience library) and the stream25d
# schedule against the host reference on the test device.
check_PROGRAMS += tests/test_traffic tests/test_stream25d
TESTS += tests/test_traffic tests/test_stream25d

tests_test_traffic_SOURCES = tests/test_traffic.c
tests_test_traffic_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_traffic_LDADD = $(MODEL_TEST_LDADD)

tests_test_stream25d_SOURCES = tests/test_stream25d.c
tests_test_stream25d_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_stream25d_LDADD = $(TEST_LDADD)

# The `clstencil bench transit` command line.
TESTS += tests/test_bench_transit.sh
EXTRA_DIST += tests/test_bench_transit.sh

# Temporal blocking on stream25d (several steps per pass) against the host reference.
check_PROGRAMS += tests/test_stream25d_tb
TESTS += tests/test_stream25d_tb
tests_test_stream25d_tb_SOURCES = tests/test_stream25d_tb.c tests/user_aux.h
tests_test_stream25d_tb_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_stream25d_tb_LDADD = $(TEST_LDADD)

# CLS_SCHEDULE_AUTO's stream25d rule on GPUs against the H100's decisions (the library hides it,
# so the test compiles the rule, the family tuning defaults and the body language itself).
check_PROGRAMS += tests/test_stream25d_rule
TESTS += tests/test_stream25d_rule
tests_test_stream25d_rule_SOURCES = tests/test_stream25d_rule.c \
	lib/schedules/stream25d/rule.c devices/tuning.c lib/expr.c
tests_test_stream25d_rule_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_stream25d_rule_LDADD = -lm

# The stream25d plans' predicted device time (one step per pass: the traffic model; fused
# steps: the ghost-zone model) on the test device with its own model.
check_PROGRAMS += tests/test_stream25d_predict
TESTS += tests/test_stream25d_predict
tests_test_stream25d_predict_SOURCES = tests/test_stream25d_predict.c tests/h100_standin.h
tests_test_stream25d_predict_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_stream25d_predict_LDADD = $(TEST_LDADD)

# stream25d on 2D grids (streamed along y, fused steps) against the host reference.
check_PROGRAMS += tests/test_stream25d_2d
TESTS += tests/test_stream25d_2d
tests_test_stream25d_2d_SOURCES = tests/test_stream25d_2d.c tests/system_grids.h tests/user_aux.h
tests_test_stream25d_2d_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_stream25d_2d_LDADD = $(TEST_LDADD)

# The stream25d planner's and AUTO's choices for 2D grids on the H100 model standing in.
check_PROGRAMS += tests/test_stream25d_2d_plan
TESTS += tests/test_stream25d_2d_plan
tests_test_stream25d_2d_plan_SOURCES = tests/test_stream25d_2d_plan.c tests/h100_standin.h
tests_test_stream25d_2d_plan_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_stream25d_2d_plan_LDADD = $(TEST_LDADD)

# stream25d's column window (stars up to radius 4, systems) against the host reference.
check_PROGRAMS += tests/test_stream25d_column
TESTS += tests/test_stream25d_column
tests_test_stream25d_column_SOURCES = tests/test_stream25d_column.c tests/h100_standin.h \
	tests/system_grids.h
tests_test_stream25d_column_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_stream25d_column_LDADD = $(TEST_LDADD)
