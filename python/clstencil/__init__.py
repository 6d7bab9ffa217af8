"""clstencil: iterative stencil loops on OpenCL devices, from Python.

A thin layer over libclstencil (ctypes, no compiler needed): NumPy arrays in and out, passed
to the library without a copy when they are C-contiguous arrays of the stencil's dtype.  A grid
of NX x NY x NZ points is the array of shape (NZ, NY, NX).  Failures of the library raise
clstencil.Error with its message.  doc/python.md has the whole story.
"""
import numpy as np

from . import _lib
from ._lib import Error, text
from .device import Context, devices, select_device
from .plan import Plan, schedules
from .reference import reference_run
from .state import State
from .stencil import Stencil, builtins

__all__ = ["Error", "Context", "Stencil", "Plan", "State", "devices", "select_device",
           "builtins", "schedules", "reference_run", "run", "version", "library_path"]


def version():
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return text(_lib.lib.cls_version())


def library_path():
    """The file libclstencil was loaded from (or the name the dynamic loader resolved)."""
    return _lib.path


def run(stencil, input, steps, aux=None, out=None, context=None, **plan_options):
    """One run in one call: plans `stencil` for `input`'s shape on `context` (default: a new
    context on the default device) and runs `steps` steps.  Returns the final state; options
    as for Plan."""
    if isinstance(stencil, str):
        stencil = Stencil.builtin(stencil)
    input = np.asanyarray(input)
    ctx = context if context is not None else Context()
    try:
        with Plan(ctx, stencil, input.shape, steps, **plan_options) as plan:
            return plan.run(input, aux, out)
    finally:
        if context is None:
            ctx.close()
