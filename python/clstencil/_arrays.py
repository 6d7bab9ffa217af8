"""NumPy arrays to and from the library's host arrays (C order, x fastest: the array of a grid
of NX x NY x NZ points has shape (NZ, NY, NX)).  The library cannot see how long a buffer is,
so every size is checked here before a pointer is handed over."""
import ctypes

import numpy as np


def pointer(a):
    return ctypes.c_void_p(a.ctypes.data)


def as_input(a, dtype, shape, what):
    """`a` as a C-contiguous, aligned array of `dtype` and `shape`: the very array when it is
    one already, else a converted copy (casts within a kind only: float64 to float32 is taken,
    complex numbers are not)."""
    a = np.asanyarray(a)
    if tuple(a.shape) != tuple(shape):
        raise ValueError("%s: shape %s, expected %s" % (what, tuple(a.shape), tuple(shape)))
    if a.dtype != dtype and not np.can_cast(a.dtype, dtype, casting="same_kind"):
        raise TypeError("%s: cannot take %s as %s" % (what, a.dtype, np.dtype(dtype)))
    return np.require(a, dtype=dtype, requirements=["C_CONTIGUOUS", "ALIGNED"])


def as_output(out, dtype, shape, what):
    """A new array for a result, or the caller's `out`, which the library writes in place and
    must therefore be exactly right: `dtype`, `shape`, C-contiguous, aligned and writeable."""
    if out is None:
        return np.empty(shape, dtype=dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError("%s: expected a numpy.ndarray, got %s" % (what, type(out).__name__))
    if out.dtype != dtype:
        raise TypeError("%s: dtype %s, expected %s" % (what, out.dtype, np.dtype(dtype)))
    if tuple(out.shape) != tuple(shape):
        raise ValueError("%s: shape %s, expected %s" % (what, tuple(out.shape), tuple(shape)))
    if not (out.flags.c_contiguous and out.flags.aligned and out.flags.writeable):
        raise ValueError("%s: must be C-contiguous, aligned and writeable" % what)
    return out


def aux_inputs(stencil, aux, dtype, shape, slices, what):
    """The auxiliary arrays of a run as a list in the stencil's order.  `aux`: None (a stencil
    without any), a sequence in the stencil's order, or a dict by name.  A per-step array holds
    `slices` grids: shape (slices,) + shape."""
    names = stencil.aux_names
    if aux is None:
        aux = []
    if isinstance(aux, dict):
        unknown = sorted(set(aux) - set(names))
        if unknown:
            raise KeyError("%s: no auxiliary array %s in stencil '%s' (it has %s)" %
                           (what, ", ".join(map(repr, unknown)), stencil.name,
                            ", ".join(names) or "none"))
        missing = [n for n in names if n not in aux]
        if missing:
            raise ValueError("%s: auxiliary array %s not given" % (what, ", ".join(missing)))
        aux = [aux[n] for n in names]
    aux = list(aux)
    if len(aux) != len(names):
        raise ValueError("%s: %d auxiliary arrays given, stencil '%s' has %d (%s)" %
                         (what, len(aux), stencil.name, len(names), ", ".join(names) or "none"))
    arrays = []
    for k, (name, a) in enumerate(zip(names, aux)):
        s = (slices,) + tuple(shape) if stencil.aux_per_step(k) else tuple(shape)
        arrays.append(as_input(a, dtype, s, "%s: auxiliary array '%s'" % (what, name)))
    return arrays


def pointer_array(arrays):
    """A C array of the arrays' data pointers (None when there are none)."""
    if not arrays:
        return None
    return (ctypes.c_void_p * len(arrays))(*[a.ctypes.data for a in arrays])
