# tests/pipeline.mk: the pipeline model and planner against hand values and 003's tables.
# The model's functions are hidden by the library, so the test compiles the sources itself.
check_PROGRAMS += tests/test_pipeline
TESTS += tests/test_pipeline

tests_test_pipeline_SOURCES = tests/test_pipeline.c $(PIPELINE_SOURCES) \
	$(MODEL_CORE_SOURCES) $(DEVICES_SOURCES) lib/status.c lib/util.c
tests_test_pipeline_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_pipeline_LDADD = $(CJSON_LIBS) -lm
