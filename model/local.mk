# model/local.mk: build rules for model/ (appended to the top-level Makefile.am).

# The device-model interface (parameters and rule dispatch) the model formulas consume.
MODEL_CORE_SOURCES = model/device_model.h model/device_model.c model/params.c model/rules.c
libcls_model_la_SOURCES += $(MODEL_CORE_SOURCES)
# The layer's helpers: the thread's last error, the cache-key hash, the least-squares line, and
# the strict JSON checks (duplicate keys, escaped NULs) every JSON reader applies.
libcls_model_la_SOURCES += model/error.h model/error.c model/hash.h model/hash.c model/fit.h \
	model/fit.c model/json_strict.h model/json_strict.c

# The ghost-zone (trapezoid) cost model and optimizer (Meng & Skadron 2010).
GHOST_ZONE_SOURCES = model/ghost_zone.h model/ghost_zone.c model/ghost_zone_opt.c \
	model/ghost_zone_apps.c
libcls_model_la_SOURCES += $(GHOST_ZONE_SOURCES)
# Its equations, choices and reproduction of the document.
EXTRA_DIST += doc/ghost-zones.md

# The bytes-per-point traffic model of 2.5D-streamed tiles (Mo & Li, Eq. 2).
TRAFFIC_SOURCES = model/traffic.h model/traffic.c
libcls_model_la_SOURCES += $(TRAFFIC_SOURCES)
# The stream25d schedule it serves: design, H100 and PoCL measurements.
EXTRA_DIST += doc/stream25d.md

# The CPU row kernel's step: vector work per core against the traffic per cache level.
CPU_ROWS_SOURCES = model/cpu_rows.h model/cpu_rows.c
libcls_model_la_SOURCES += $(CPU_ROWS_SOURCES)

# The tiled transfer/compute pipeline model and planner (Visschers 2012, Sect. 6).
PIPELINE_SOURCES = model/pipeline.h model/pipeline.c
libcls_model_la_SOURCES += $(PIPELINE_SOURCES)
# Its equations, the reproduction of the document and the executor plan.
EXTRA_DIST += doc/pipeline.md

# The memory-access analysis (CuMAPz, Kim & Shrivastava): access descriptions, their
# JSON form, the warp emulation with the six factors and MPE, and the built-in cases.
CUMAPZ_SOURCES = model/access.h model/access.c model/access_json.c model/cumapz.h \
	model/cumapz.c model/cumapz_cases.c
libcls_model_la_SOURCES += $(CUMAPZ_SOURCES)
# Its factors, worked examples, description format and the correlation plan.
EXTRA_DIST += doc/memory-analysis.md
