# lib/schedules/cputile/local.mk: the cputile schedule (lib/schedule.h).
libcls_runtime_la_SOURCES += lib/schedules/cputile/cputile.h lib/schedules/cputile/plan.c lib/schedules/cputile/model.c lib/schedules/cputile/exec.c \
	lib/schedules/cputile/probe.c
EXTRA_DIST += doc/cputile.md
