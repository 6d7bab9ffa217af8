# tests/tune.mk: the tuner (profiles and their cache, optimizer against brute force, AUTO) and
# its command line (model STENCIL, tune, tune --exhaustive, run/bench trapezoid options).
check_PROGRAMS += tests/test_tune
TESTS += tests/test_tune tests/test_tune_cli.sh
EXTRA_DIST += tests/test_tune_cli.sh
tests_test_tune_SOURCES = tests/test_tune.c
tests_test_tune_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_tune_LDADD = $(TEST_LDADD)
# The tuner's model replayed on the H100's measured tables (no device).
check_PROGRAMS += tests/test_tune_replay
TESTS += tests/test_tune_replay
EXTRA_DIST += doc/data/h100-2026-11-21-ghost-zones-pathfinder.csv \
	doc/data/h100-2026-11-21-ghost-zones-hotspot.csv \
	doc/data/h100-2026-11-21-ghost-zones-poisson2d.csv \
	doc/data/h100-2026-11-21-ghost-zones-cell3d.csv
tests_test_tune_replay_SOURCES = tests/test_tune_replay.c
tests_test_tune_replay_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_tune_replay_LDADD = $(TEST_LDADD)
