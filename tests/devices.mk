# tests/devices.mk: device-model tests: rules, shipped and bad files, matching, fuzz smoke run.
# They call internal functions hidden by the library, so they compile the sources themselves.
DEVICE_TEST_SOURCES = lib/status.c lib/util.c

check_PROGRAMS += tests/test_devices tests/test_devices_match tests/fuzz_model_json \
	tests/test_family_defaults
TESTS += tests/test_devices tests/test_devices_match tests/fuzz_model_json \
	tests/test_family_defaults

tests_test_devices_SOURCES = tests/test_devices.c $(DEVICE_TEST_SOURCES)
tests_test_devices_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_devices_LDADD = $(MODEL_TEST_LDADD)

tests_test_devices_match_SOURCES = tests/test_devices_match.c $(DEVICE_TEST_SOURCES)
tests_test_devices_match_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_devices_match_LDADD = $(MODEL_TEST_LDADD)

# libFuzzer entry point; -DCLS_FUZZ_SMOKE adds the short deterministic run make check uses.
tests_fuzz_model_json_SOURCES = tests/fuzz_model_json.c $(DEVICE_TEST_SOURCES)
tests_fuzz_model_json_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_FUZZ_SMOKE
tests_fuzz_model_json_LDADD = $(MODEL_TEST_LDADD)

# Where each family's defaults come from: its code or its reference files, never both.
tests_test_family_defaults_SOURCES = tests/test_family_defaults.c $(DEVICE_TEST_SOURCES)
tests_test_family_defaults_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_family_defaults_LDADD = $(MODEL_TEST_LDADD)

# Installed copies read the installed models; the build tree's binaries the source tree's.
TESTS += tests/test_installed.sh
EXTRA_DIST += tests/test_installed.sh

# The CPU row kernel's model on fixed inputs, the probe's fit and the keys it writes.
check_PROGRAMS += tests/test_cpu_model
TESTS += tests/test_cpu_model
tests_test_cpu_model_SOURCES = tests/test_cpu_model.c $(DEVICE_TEST_SOURCES)
tests_test_cpu_model_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_cpu_model_LDADD = $(MODEL_TEST_LDADD)
