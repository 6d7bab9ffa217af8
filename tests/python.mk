# tests/python.mk: the Python package (python/, doc/python.md) as a user gets it: the build is
# installed into a folder of the build tree, and tests/test_python.sh installs the package
# into a fresh virtual environment with pip and runs its tests against that library.
PY_STAGE = $(abs_builddir)/tests/python-stage
check_DATA = tests/python-stage.stamp
tests/python-stage.stamp: libclstencil.la $(bin_PROGRAMS) $(include_HEADERS)
	$(AM_V_GEN)rm -rf $(PY_STAGE) && \
	  $(MAKE) $(AM_MAKEFLAGS) install DESTDIR=$(PY_STAGE) >tests/python-stage.log 2>&1 || \
	  { cat tests/python-stage.log; exit 1; }; touch $@
TESTS += tests/test_python.sh
AM_TESTS_ENVIRONMENT += CLS_PY_LIBDIR=$(PY_STAGE)$(libdir); export CLS_PY_LIBDIR;
PYTHON_PACKAGE = python/pyproject.toml python/setup.py python/README.md \
	python/clstencil/__init__.py python/clstencil/_config.py python/clstencil/_lib.py \
	python/clstencil/_handle.py python/clstencil/_arrays.py python/clstencil/stencil.py \
	python/clstencil/device.py python/clstencil/plan.py python/clstencil/state.py \
	python/clstencil/reference.py python/tests/tap.py python/tests/test_clstencil.py
EXTRA_DIST += tests/test_python.sh doc/python.md doc/img/python-hotspot.png $(PYTHON_PACKAGE)
clean-local: clean-python
clean-python:
	-rm -rf $(PY_STAGE) tests/python-stage.stamp tests/python-stage.log tests/python-work
.PHONY: clean-python
