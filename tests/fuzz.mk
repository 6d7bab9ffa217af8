# tests/fuzz.mk: the fuzz targets of the readers.  Each tests/fuzz_*.c is one libFuzzer entry
# point; make check builds it with -DCLS_FUZZ_SMOKE, a main() that runs the seeds of
# tests/fuzz/<target>/ and a fixed number of their mutations (tests/fuzz_smoke.h).
EXTRA_DIST += tests/fuzz_smoke.h tests/fuzz_target.h

check_PROGRAMS += tests/fuzz_stencil_json_smoke
TESTS += tests/fuzz_stencil_json_smoke
tests_fuzz_stencil_json_smoke_SOURCES = tests/fuzz_stencil_json.c
tests_fuzz_stencil_json_smoke_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_FUZZ_SMOKE
tests_fuzz_stencil_json_smoke_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/fuzz_npy_smoke
TESTS += tests/fuzz_npy_smoke
EXTRA_DIST += tests/fuzz_file.h
tests_fuzz_npy_smoke_SOURCES = tests/fuzz_npy.c
tests_fuzz_npy_smoke_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_FUZZ_SMOKE
tests_fuzz_npy_smoke_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/fuzz_image_smoke
TESTS += tests/fuzz_image_smoke
tests_fuzz_image_smoke_SOURCES = tests/fuzz_image.c
tests_fuzz_image_smoke_CPPFLAGS = $(TEST_CPPFLAGS) -DCLS_FUZZ_SMOKE
tests_fuzz_image_smoke_LDADD = $(TEST_LDADD)

# `make fuzz`: every target built with libFuzzer (configure's FUZZ_CC, clang) into fuzz-bin/,
# then run for FUZZ_SECONDS each with its seeds as the corpus; corpora, logs and the inputs
# that broke something go to fuzz-out/<name>/ (tests/fuzz_run.sh prints the table).
FUZZ_SECONDS = 60
FUZZ_PROGS = fuzz-bin/fuzz_expr fuzz-bin/fuzz_model_json fuzz-bin/fuzz_access_json \
	fuzz-bin/fuzz_stencil_json fuzz-bin/fuzz_npy fuzz-bin/fuzz_image
EXTRA_DIST += tests/fuzz_cc.sh tests/fuzz_run.sh tests/fuzz doc/reliability.md
if HAVE_LIBFUZZER
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-std=c11 -D_POSIX_C_SOURCE=200809L -DHAVE_CONFIG_H -DCL_TARGET_OPENCL_VERSION=120 \
	-DCLS_PKGDATADIR="$(pkgdatadir)" -I$(abs_top_builddir) -I$(abs_builddir)/lib -Iinclude \
	-Ilib -Imodel -Idevices -Itests $(OPENCL_CFLAGS) $(CJSON_CFLAGS) $(PNG_CFLAGS)
# Compiles in the source tree: the lists below are relative to it.
FUZZ_CCLD = $(SHELL) $(srcdir)/tests/fuzz_cc.sh '$(FUZZ_CC) $(FUZZ_CFLAGS)' $(srcdir) \
	$(abs_builddir)/$@
# Every target links the model and devices layers whole (as the convenience libraries hold
# them; fuzz_cc.sh drops their headers), the shipped models built in included.
FUZZ_LAYERS_SRC = $(libcls_model_la_SOURCES) $(libcls_devices_la_SOURCES) \
	$(abs_builddir)/devices/models_gen.c
FUZZ_EXPR_SRC = tests/fuzz_expr.c lib/expr.c
FUZZ_MODEL_SRC = tests/fuzz_model_json.c $(DEVICE_TEST_SOURCES) $(FUZZ_LAYERS_SRC)
FUZZ_ACCESS_SRC = tests/fuzz_access_json.c $(CUMAPZ_TEST_SOURCES) $(FUZZ_LAYERS_SRC)
FUZZ_STENCIL_SRC = tests/fuzz_stencil_json.c lib/stencil.c lib/stencil_json.c lib/builtins.c \
	lib/expr.c lib/reference.c lib/status.c lib/util.c $(FUZZ_LAYERS_SRC)
FUZZ_NPY_SRC = tests/fuzz_npy.c lib/grid_io.c lib/file_write.c lib/status.c lib/util.c \
	$(FUZZ_LAYERS_SRC)
FUZZ_IMAGE_SRC = tests/fuzz_image.c lib/image.c lib/file_write.c lib/status.c lib/util.c \
	$(FUZZ_LAYERS_SRC)
fuzz-bin/fuzz_expr: $(FUZZ_EXPR_SRC) tests/fuzz_target.h
	$(AM_V_CCLD)$(FUZZ_CCLD) $(FUZZ_EXPR_SRC) -lm
fuzz-bin/fuzz_model_json: $(FUZZ_MODEL_SRC) tests/fuzz_target.h
	$(AM_V_CCLD)$(FUZZ_CCLD) $(FUZZ_MODEL_SRC) $(CJSON_LIBS) -lm
fuzz-bin/fuzz_access_json: $(FUZZ_ACCESS_SRC) tests/fuzz_target.h
	$(AM_V_CCLD)$(FUZZ_CCLD) $(FUZZ_ACCESS_SRC) $(CJSON_LIBS) -lm
fuzz-bin/fuzz_stencil_json: $(FUZZ_STENCIL_SRC) tests/fuzz_target.h
	$(AM_V_CCLD)$(FUZZ_CCLD) $(FUZZ_STENCIL_SRC) $(CJSON_LIBS) -lm
fuzz-bin/fuzz_npy: $(FUZZ_NPY_SRC) tests/fuzz_target.h tests/fuzz_file.h
	$(AM_V_CCLD)$(FUZZ_CCLD) $(FUZZ_NPY_SRC) $(CJSON_LIBS) -lm
fuzz-bin/fuzz_image: $(FUZZ_IMAGE_SRC) tests/fuzz_target.h tests/fuzz_file.h
	$(AM_V_CCLD)$(FUZZ_CCLD) $(FUZZ_IMAGE_SRC) $(PNG_LIBS) $(CJSON_LIBS) -lm
fuzz-build: $(FUZZ_PROGS)
fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(SHELL) $(srcdir)/tests/fuzz_run.sh $(abs_srcdir) \
	    fuzz-bin fuzz-out fuzz_expr fuzz_model_json fuzz_access_json fuzz_stencil_json \
	    fuzz_npy fuzz_image
else
fuzz-build fuzz:
	@echo "make fuzz needs a C compiler with libFuzzer (clang -fsanitize=fuzzer; on Debian:" >&2
	@echo "apt-get install clang libclang-rt-dev); configure found none (set FUZZ_CC)." >&2
	@exit 1
endif
clean-local: clean-fuzz
clean-fuzz:
	-rm -rf fuzz-bin
.PHONY: fuzz fuzz-build clean-fuzz
