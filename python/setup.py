"""Installs the clstencil package and records where libclstencil is installed, so that the
package loads that copy (doc/python.md, "Finding the library").  The folder recorded is
$CLSTENCIL_LIBDIR at install time, else `pkg-config --variable=libdir libclstencil`, else none
(the dynamic loader's search path is then used)."""
import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py


def installed_libdir():
    libdir = os.environ.get("CLSTENCIL_LIBDIR")
    if libdir:
        return os.path.abspath(libdir)
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "libclstencil"],
                             capture_output=True, text=True, check=True).stdout.strip()
        return out or None
    except (OSError, subprocess.CalledProcessError):
        return None


class BuildPy(build_py):
    def run(self):
        super().run()
        path = os.path.join(self.build_lib, "clstencil", "_config.py")
        with open(path, "w") as f:
            f.write('"""Where libclstencil was installed, recorded by setup.py."""\n')
            f.write("LIBDIR = %r\n" % installed_libdir())


setup(cmdclass={"build_py": BuildPy})
