# model/local.mk: build rules for model/ (appended to the top-level Makefile.am).

# The device-model interface (parameters and rule dispatch) the model formulas consume.
MODEL_CORE_SOURCES = model/device_model.h model/device_model.c
libclstencil_la_SOURCES += $(MODEL_CORE_SOURCES)
