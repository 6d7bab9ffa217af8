# tests/architecture.mk: the architecture's rules, checked on the sources
# (doc/architecture.md): no schedule named outside its folder and the registry.
TESTS += tests/check_schedule_names.sh
EXTRA_DIST += tests/check_schedule_names.sh
