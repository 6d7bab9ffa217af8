"""Where libclstencil was installed, as pip install recorded it (setup.py writes the installed
copy of this file); None in the source tree."""
LIBDIR = None
