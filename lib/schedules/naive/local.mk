# lib/schedules/naive/local.mk: the naive schedule (lib/schedule.h).
libcls_runtime_la_SOURCES += lib/schedules/naive/naive.h lib/schedules/naive/plan.c lib/schedules/naive/exec.c lib/schedules/naive/access.c \
	lib/schedules/naive/probe.c
