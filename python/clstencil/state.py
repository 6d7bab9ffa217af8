"""States: a run's field and auxiliary arrays kept on the device between calls."""
import ctypes

import numpy as np

from . import _arrays
from ._handle import Handle
from ._lib import check, lib
from .plan import count


class State(Handle):
    """A grid kept on the device for `plan`'s stencil and shape (in pinned host memory when
    the grid is above the device's memory).  Write the field (and the auxiliary arrays), then
    advance it by any number of steps and read it back: advancing by a, then b steps gives
    the field of one run of a + b steps, bit for bit."""

    _release = lib.cls_state_release

    def __init__(self, plan, field=None, aux=None):
        ptr = ctypes.c_void_p()
        check(lib.cls_state_create(plan._handle, ctypes.byref(ptr)))
        # The library's state needs the context only; the plan is the default for advance().
        super().__init__(ptr.value, plan.context)
        self.plan = plan
        self.stencil = plan.stencil
        self.shape = plan.shape
        self.dtype = plan.dtype
        if field is not None:
            self.write(field)
        for k, data in (aux.items() if isinstance(aux, dict) else enumerate(aux or ())):
            self.write_aux(k, data)

    def write(self, field):
        """Writes the field (an array of the plan's shape) and sets the step to 0."""
        u = _arrays.as_input(field, self.dtype, self.shape, "field")
        check(lib.cls_state_write(self._handle, _arrays.pointer(u)))

    def write_aux(self, k, data):
        """Writes auxiliary array k (its index or name).  A per-step array has shape
        (slices,) + shape: the state may then advance up to step `slices`."""
        if isinstance(k, str):
            k = self.stencil.aux_index(k)
        names = self.stencil.aux_names
        if not 0 <= k < len(names):
            raise IndexError("auxiliary array %d: stencil '%s' has %d" %
                             (k, self.stencil.name, len(names)))
        what = "auxiliary array '%s'" % names[k]
        if self.stencil.aux_per_step(k):
            shape = np.shape(data)
            if len(shape) != len(self.shape) + 1 or shape[0] < 1:
                raise ValueError("%s: a per-step array has shape (slices,) + %s, slices >= 1; "
                                 "got %s" % (what, self.shape, shape))
            slices = shape[0]
            a = _arrays.as_input(data, self.dtype, (slices,) + self.shape, what)
        else:
            slices = 1
            a = _arrays.as_input(data, self.dtype, self.shape, what)
        check(lib.cls_state_write_aux(self._handle, k, _arrays.pointer(a), slices))

    def read(self, out=None):
        """The field: into `out` when given (C-contiguous, of the plan's dtype and shape),
        else into a new array."""
        o = _arrays.as_output(out, self.dtype, self.shape, "out")
        check(lib.cls_state_read(self._handle, _arrays.pointer(o)))
        return o

    @property
    def step(self):
        """Steps advanced since the field was written: the STEP of the next step."""
        return lib.cls_state_step(self._handle)

    @step.setter
    def step(self, value):
        check(lib.cls_state_set_step(self._handle, count(value, "step")))

    def advance(self, steps, plan=None):
        """Advances by `steps` steps with `plan` (default: the plan the state was made for;
        any plan of the same stencil shape, grid and context will do); returns the report."""
        return (plan or self.plan).advance(self, steps)

    def __repr__(self):
        if self.closed:
            return "<clstencil.State closed>"
        return "<clstencil.State '%s' %s at step %d>" % (
            self.stencil.name, "x".join(map(str, self.shape)), self.step)
