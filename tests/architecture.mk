# tests/architecture.mk: the architecture's rules, checked on the sources
# (doc/architecture.md): no schedule named outside its folder and the registry.
TESTS += tests/check_schedule_names.sh
EXTRA_DIST += tests/check_schedule_names.sh
# A schedule registered by the test suite: the planner core, parameters, candidates and states
# take it without a change (doc/architecture.md, "Adding a schedule").
check_PROGRAMS += tests/test_schedule_plugin
TESTS += tests/test_schedule_plugin
tests_test_schedule_plugin_SOURCES = tests/test_schedule_plugin.c
tests_test_schedule_plugin_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_schedule_plugin_LDADD = libcls_runtime.la libcls_devices.la libcls_model.la \
	$(OPENCL_LIBS) $(CJSON_LIBS) -lm
# House rules of the developers' guide: the research documents cited by author and year, no
# history of runs or issues in comments.
TESTS += tests/check_house.sh
EXTRA_DIST += tests/check_house.sh
