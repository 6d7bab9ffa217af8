# tests/chaotic.mk: the convergent solvers (002_a5724ce8c3a8ee6c.txt) on the test device: every
# schedule against a tight host solution, divergence, non-convergence and bad input.
check_PROGRAMS += tests/test_chaotic
TESTS += tests/test_chaotic
tests_test_chaotic_SOURCES = tests/test_chaotic.c
tests_test_chaotic_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_chaotic_LDADD = $(TEST_LDADD)
# Image files, Poisson image editing and shape from shading on their synthetic images.
check_PROGRAMS += tests/test_images
TESTS += tests/test_images
tests_test_images_SOURCES = tests/test_images.c
tests_test_images_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_images_LDADD = $(TEST_LDADD)
# The solver commands end to end.
TESTS += tests/test_chaotic_cli.sh
EXTRA_DIST += tests/test_chaotic_cli.sh
# The documentation of the solvers and its images.
EXTRA_DIST += doc/chaotic.md doc/chaotic-scene-target.png doc/chaotic-scene-source.png \
	doc/chaotic-scene-mask.png doc/chaotic-scene-paste.png doc/chaotic-scene-edit.png \
	doc/chaotic-sphere-shaded.png doc/chaotic-sphere-height.png doc/chaotic-sphere-truth.png \
	doc/chaotic-sphere-normals.png
# The H100 runs and the figures (doc/chaotic.md, "The H100 runs", "Figures").
EXTRA_DIST += tools/gpu/h100_chaotic.sh tools/plots/chaotic.py \
	doc/img/pocl-2026-11-21-chaotic-poisson-240x180-update.png \
	doc/img/pocl-2026-11-21-chaotic-poisson-240x180-residual.png \
	doc/img/pocl-2026-11-21-chaotic-poisson-240x180-n.png \
	doc/img/pocl-2026-11-21-chaotic-poisson-240x180-comm.png \
	doc/img/pocl-2026-11-21-chaotic-sfs-128-update.png \
	doc/img/pocl-2026-11-21-chaotic-sfs-128-residual.png \
	doc/img/pocl-2026-11-21-chaotic-sfs-128-n.png doc/img/pocl-2026-11-21-chaotic-sfs-128-l.png
