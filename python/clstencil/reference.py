"""The host reference: the stencil's semantics in plain C, single-threaded (the yardstick of
the device runs; bitwise equal to them for the bodies Stencil.is_exact accepts)."""
import numpy as np

from . import _arrays
from ._lib import check, lib
from .plan import count


def reference_run(stencil, input, steps, aux=None, out=None):
    """`steps` steps of `stencil` from `input` (its grid shape in NumPy order), computed on the
    host; auxiliary arrays and `out` as for Plan.run."""
    input = np.asanyarray(input)
    shape, dims = stencil.grid_shape(input.shape)
    steps = count(steps, "steps")
    u = _arrays.as_input(input, stencil.dtype, shape, "input")
    a = _arrays.aux_inputs(stencil, aux, stencil.dtype, shape, steps, "aux")
    o = _arrays.as_output(out, stencil.dtype, shape, "out")
    check(lib.cls_reference_run(stencil._handle, dims, steps, _arrays.pointer(u),
                                _arrays.pointer_array(a), _arrays.pointer(o)))
    return o
