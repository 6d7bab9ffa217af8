# model/local.mk: build rules for model/ (appended to the top-level Makefile.am).

# The device-model interface (parameters and rule dispatch) the model formulas consume.
MODEL_CORE_SOURCES = model/device_model.h model/device_model.c
libclstencil_la_SOURCES += $(MODEL_CORE_SOURCES)

# The ghost-zone (trapezoid) cost model and optimizer (000_c422610359a92120.txt).
GHOST_ZONE_SOURCES = model/ghost_zone.h model/ghost_zone.c model/ghost_zone_opt.c \
	model/ghost_zone_apps.c
libclstencil_la_SOURCES += $(GHOST_ZONE_SOURCES)
# Its equations, choices and reproduction of the document.
EXTRA_DIST += doc/ghost-zones.md

# The tiled transfer/compute pipeline model and planner (003_9039035f5da401ab.txt Sect. 6).
PIPELINE_SOURCES = model/pipeline.h model/pipeline.c
libclstencil_la_SOURCES += $(PIPELINE_SOURCES)
# Its equations, the reproduction of the document and the executor plan.
EXTRA_DIST += doc/pipeline.md
