# tests/chaotic.mk: the convergent solvers (Chen et al.) on the test device: every
# schedule against a tight host solution, divergence, non-convergence and bad input.
check_PROGRAMS += tests/test_chaotic
TESTS += tests/test_chaotic
tests_test_chaotic_SOURCES = tests/test_chaotic.c
tests_test_chaotic_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_chaotic_LDADD = $(TEST_LDADD)
# Image files, Poisson image editing and shape from shading on their synthetic images (in a
# build with the image applications).
if WITH_PNG
check_PROGRAMS += tests/test_images
TESTS += tests/test_images
endif
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
# The H100 results (doc/chaotic.md, "H100 results (2026-11-21)"): figures, output images, logs.
EXTRA_DIST += doc/data/h100-2026-11-21-chaotic.txt doc/data/h100-2026-11-21-chaotic-tests.txt \
	doc/img/h100-2026-11-21-chaotic-poisson-4096-update.png \
	doc/img/h100-2026-11-21-chaotic-poisson-480-b32x14.png \
	doc/img/h100-2026-11-21-chaotic-poisson-480-b32x32.png \
	doc/img/h100-2026-11-21-chaotic-poisson-480-b64x16.png \
	doc/img/h100-2026-11-21-chaotic-poisson-480-l.png \
	doc/img/h100-2026-11-21-chaotic-poisson-480-residual.png \
	doc/img/h100-2026-11-21-chaotic-poisson-480-tol1e-4.png \
	doc/img/h100-2026-11-21-chaotic-poisson-480-update.png \
	doc/img/h100-2026-11-21-chaotic-sfs-4096-update.png \
	doc/img/h100-2026-11-21-chaotic-sfs-480-comm.png \
	doc/img/h100-2026-11-21-chaotic-sfs-480-l.png \
	doc/img/h100-2026-11-21-chaotic-sfs-480-update.png \
	doc/img/h100-scene-4096-edit-1024.png \
	doc/img/h100-scene-4096-edit-crop.png \
	doc/img/h100-scene-480-edit.png \
	doc/img/h100-scene-480-mask.png \
	doc/img/h100-scene-480-paste.png \
	doc/img/h100-scene-480-source.png \
	doc/img/h100-scene-480-target.png \
	doc/img/h100-sphere-480-height.png \
	doc/img/h100-sphere-480-mask.png \
	doc/img/h100-sphere-480-normals.png \
	doc/img/h100-sphere-480-shaded.png \
	doc/img/h100-sphere-480-truth.png
