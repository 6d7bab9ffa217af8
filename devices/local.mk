# devices/local.mk: build rules for devices/ (appended to the top-level Makefile.am).

# The device-model plug-ins: family rules, the schema, loading, matching.
DEVICES_SOURCES = \
	devices/devices.h devices/registry.c devices/schema.c \
	devices/model.c devices/model_json.c devices/model_files.c devices/match.c \
	devices/family_gt200.c devices/family_fermi.c devices/family_cpu.c devices/family_gpu.c \
	devices/tuning.c devices/defaults.c
libcls_devices_la_SOURCES += $(DEVICES_SOURCES)
# Whole-file reads and mkdir -p, shared with lib/.
libcls_devices_la_SOURCES += devices/files.h devices/files.c
# The installed models are the last place cls_model_from_name looks; the source tree's come
# before them only for code that runs from this build tree (devices/model_files.c).
libcls_devices_la_CPPFLAGS += -DCLS_PKGDATADIR='"$(pkgdatadir)"' -DCLS_BUILDDIR='"$(abs_builddir)"'

# Parameter files of the documents' devices, the generic PoCL CPU and the probed GPUs.
devicesdir = $(pkgdatadir)/devices
dist_devices_DATA = \
	devices/gtx280.json devices/tesla_c1060.json devices/tesla_c2050.json \
	devices/gtx460.json devices/pocl_cpu.json devices/h100_probe.json \
	devices/h200_probe.json
# Built into the library as well: a family takes its defaults from its reference files among
# them (devices/defaults.c), whatever the search path holds.
nodist_libcls_devices_la_SOURCES = devices/models_gen.c
BUILT_SOURCES += devices/models_gen.c
CLEANFILES += devices/models_gen.c
devices/models_gen.c: $(dist_devices_DATA) $(srcdir)/embed.sh
	$(AM_V_GEN)$(MKDIR_P) devices && $(SHELL) $(srcdir)/embed.sh '$(XXD)' $(srcdir) $@ \
		cls__embedded_models $(dist_devices_DATA)
