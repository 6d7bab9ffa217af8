"""Stencil specifications: built-ins, JSON, or built in Python (doc/guide.md has the body
language and the JSON schema)."""
import ctypes
import json
import os
import sys

import numpy as np

from . import _lib
from ._handle import Handle
from ._lib import check, lib, text

_DTYPES = {0: np.dtype(np.float32), 1: np.dtype(np.float64)}


def dtype_code(dtype):
    """The library's code for a NumPy dtype (float32 or float64, or their names "float",
    "double")."""
    if isinstance(dtype, str) and dtype in ("float", "double"):
        return 0 if dtype == "float" else 1
    d = np.dtype(dtype)
    for code, known in _DTYPES.items():
        if d == known:
            return code
    raise TypeError("dtype %s: the library computes in float32 or float64" % d)


def boundary_code(name):
    code = ctypes.c_int()
    check(lib.cls_boundary_from_name(name.encode(), ctypes.byref(code)))
    return code.value


def builtins():
    """The built-in stencils: {name: one-line summary}."""
    out = {}
    i = 0
    while True:
        name = lib.cls_stencil_builtin_name(i)
        if name is None:
            return out
        out[text(name)] = text(lib.cls_stencil_builtin_summary(name))
        i += 1


class Stencil(Handle):
    """What to compute: one update of a state array from its neighbours, auxiliary arrays and
    named parameters.  Made by Stencil.builtin, Stencil.from_json, Stencil.from_file or
    Stencil.create."""

    _release = lib.cls_stencil_release

    @classmethod
    def _make(cls, fn, *args):
        ptr = ctypes.c_void_p()
        check(fn(*args, ctypes.byref(ptr)))
        return cls(ptr.value)

    @classmethod
    def builtin(cls, name, **params):
        """A built-in stencil by name (see builtins()), its parameters optionally set."""
        st = cls._make(lib.cls_stencil_builtin, name.encode())
        for k, v in params.items():
            st.set_param(k, v)
        return st

    @classmethod
    def from_json(cls, spec):
        """A specification as JSON text, or as a dict that json.dumps turns into one."""
        if not isinstance(spec, (str, bytes)):
            spec = json.dumps(spec)
        if isinstance(spec, str):
            spec = spec.encode()
        return cls._make(lib.cls_stencil_from_json, spec)

    @classmethod
    def from_file(cls, path):
        return cls._make(lib.cls_stencil_from_file, os.fsencode(path))

    @classmethod
    def create(cls, name, dims, dtype=np.float32, body=None, points=None, aux=(), halo=None,
               params=None, boundary=None, boundary_value=0.0):
        """A stencil built piece by piece: `body` (OpenCL C, see the guide) or `points`, a
        list of (offset, coefficient) with offset a tuple of `dims` integers; `aux` names the
        auxiliary arrays (a name, or (name, per_step)); `halo` one radius per dimension;
        `params` {name: value}; `boundary` "clamp", "constant", "periodic" or "mirror"."""
        st = cls._make(lib.cls_stencil_create, name.encode(), int(dims), dtype_code(dtype),
                       body.encode() if body is not None else None)
        for offset, coef in points or ():
            off = tuple(int(o) for o in offset)
            if len(off) != dims:
                st.close()
                raise ValueError("point %r: %d offsets for a %d-dimensional stencil" %
                                 (offset, len(off), dims))
            st.add_point(off, coef)
        for a in aux:
            name_, per_step = (a, False) if isinstance(a, str) else a
            st.add_aux(name_, per_step)
        for k, v in (params or {}).items():
            st.set_param(k, v)
        if halo is not None:
            st.set_halo(halo)
        if boundary is not None:
            st.set_boundary(boundary, boundary_value)
        st.validate()
        return st

    # ------------------------------------------------------------------------ changes
    def add_point(self, offset, coef):
        off = (tuple(int(o) for o in offset) + (0, 0, 0))[:3]
        check(lib.cls_stencil_add_point(self._handle, off[0], off[1], off[2], float(coef)))

    def add_aux(self, name, per_step=False):
        check(lib.cls_stencil_add_aux(self._handle, name.encode(), 1 if per_step else 0))

    def set_halo(self, halo):
        h = (tuple(int(x) for x in halo) + (0, 0, 0))[:3]
        check(lib.cls_stencil_set_halo(self._handle, h[0], h[1], h[2]))

    def set_param(self, name, value):
        check(lib.cls_stencil_set_param(self._handle, name.encode(), float(value)))

    def set_dtype(self, dtype):
        check(lib.cls_stencil_set_dtype(self._handle, dtype_code(dtype)))

    def set_boundary(self, boundary, value=0.0):
        check(lib.cls_stencil_set_boundary(self._handle, boundary_code(boundary), float(value)))

    def validate(self):
        check(lib.cls_stencil_validate(self._handle))

    def copy(self):
        return self._make(lib.cls_stencil_copy, self._handle)

    # ------------------------------------------------------------------------ facts
    @property
    def name(self):
        return text(lib.cls_stencil_name(self._handle))

    @property
    def description(self):
        return text(lib.cls_stencil_description(self._handle))

    @property
    def dims(self):
        return lib.cls_stencil_dims(self._handle)

    @property
    def dtype(self):
        """numpy.float32 or numpy.float64, as a numpy.dtype."""
        return _DTYPES[lib.cls_stencil_dtype(self._handle)]

    @property
    def boundary(self):
        return text(lib.cls_boundary_name(lib.cls_stencil_boundary(self._handle)))

    @property
    def boundary_value(self):
        return lib.cls_stencil_boundary_value(self._handle)

    @property
    def halo(self):
        """One radius per dimension, x first."""
        h = (ctypes.c_int * 3)()
        lib.cls_stencil_halo(self._handle, h)
        return tuple(h[:self.dims])

    @property
    def aux_names(self):
        return [text(lib.cls_stencil_aux_name(self._handle, k))
                for k in range(lib.cls_stencil_num_aux(self._handle))]

    def aux_per_step(self, k):
        return bool(lib.cls_stencil_aux_per_step(self._handle, k))

    def aux_index(self, name):
        names = self.aux_names
        if name not in names:
            raise KeyError("stencil '%s' has no auxiliary array '%s' (it has %s)" %
                           (self.name, name, ", ".join(names) or "none"))
        return names.index(name)

    @property
    def params(self):
        """The named parameters and their values, in declaration order."""
        out = {}
        h = self._handle
        for k in range(lib.cls_stencil_num_params(h)):
            name = lib.cls_stencil_param_name(h, k)
            v = ctypes.c_double()
            check(lib.cls_stencil_get_param(h, name, ctypes.byref(v)))
            out[text(name)] = v.value
        return out

    @property
    def body(self):
        """The body as it will be compiled (generated from points where needed)."""
        return text(lib.cls_stencil_body(self._handle))

    @property
    def flops(self):
        n = ctypes.c_size_t()
        check(lib.cls_stencil_flops(self._handle, ctypes.byref(n)))
        return n.value

    @property
    def is_exact(self):
        """Whether the devices compute this body bit for bit as the reference does."""
        return bool(lib.cls_stencil_is_exact(self._handle))

    @property
    def min_bytes_per_point(self):
        return lib.cls_stencil_min_bytes_per_point(self._handle)

    def to_json(self):
        """The specification as JSON text (loads back to the same stencil)."""
        p = ctypes.c_void_p()
        check(lib.cls_stencil_to_json(self._handle, ctypes.byref(p)))
        try:
            return ctypes.string_at(p.value).decode()
        finally:
            lib.cls_free(p)

    def to_dict(self):
        return json.loads(self.to_json())

    def grid_shape(self, shape):
        """A grid shape in NumPy order (slowest axis first, one entry per dimension) checked
        against the stencil, and its cls_dims (x first, unused axes 1)."""
        shape = tuple(int(n) for n in shape)
        if len(shape) != self.dims:
            raise ValueError("shape %s: stencil '%s' is %d-dimensional" %
                             (shape, self.name, self.dims))
        dims = _lib.Dims()
        for i, n in enumerate(reversed(shape)):
            if not 0 < n <= sys.maxsize:
                raise ValueError("shape %s: every axis needs 1 to %d points" % (shape, sys.maxsize))
            dims.n[i] = n
        for i in range(len(shape), 3):
            dims.n[i] = 1
        return shape, dims

    def __repr__(self):
        if self.closed:
            return "<clstencil.Stencil closed>"
        return "<clstencil.Stencil '%s' %dD %s %s>" % (self.name, self.dims, self.dtype,
                                                       self.boundary)
