# lib/schedules/pipeline/local.mk: the pipeline schedule (lib/schedule.h).
libcls_runtime_la_SOURCES += lib/schedules/pipeline/pipe.h lib/schedules/pipeline/plan.c lib/schedules/pipeline/exec.c lib/schedules/pipeline/trace.c
