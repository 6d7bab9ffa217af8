# tests/layers.mk: the one-way layers (doc/architecture.md): allowed includes per folder, the
# symbols the lower layers' convenience libraries call, the public headers on their own.
TESTS += tests/check_layers.sh
EXTRA_DIST += tests/check_layers.sh
