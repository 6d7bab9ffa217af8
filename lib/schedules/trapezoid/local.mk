# lib/schedules/trapezoid/local.mk: the trapezoid schedule (lib/schedule.h).
libcls_runtime_la_SOURCES += lib/schedules/trapezoid/trapezoid.h lib/schedules/trapezoid/planner.h lib/schedules/trapezoid/plan.c lib/schedules/trapezoid/choose.c lib/schedules/trapezoid/profile.c lib/schedules/trapezoid/tune.c lib/schedules/trapezoid/exec.c lib/schedules/trapezoid/access.c
