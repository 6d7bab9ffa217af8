"""The lifetime of the library's objects: each Python object owns one handle and releases it
once, after everything made from it (a context outlives its plans and states)."""
import weakref


class Handle:
    """Owns a handle of the library.  close() (or leaving a `with` block, or garbage
    collection) releases it, and first closes every object made from it; using a closed object
    raises ValueError."""

    _release = None  # the C function that releases this kind of handle

    def __init__(self, ptr, parent=None):
        self._ptr = ptr
        # A strong reference up (the parent lives while a child does), weak ones down (so
        # that closing the parent can close the children first).
        self._parent = parent
        self._children = weakref.WeakSet()
        if parent is not None:
            parent._children.add(self)

    @property
    def _handle(self):
        if not self._ptr:
            raise ValueError("%s is closed" % type(self).__name__)
        return self._ptr

    @property
    def closed(self):
        return not self._ptr

    def close(self):
        for child in list(self._children):
            child.close()
        ptr, self._ptr = self._ptr, None
        if ptr:
            type(self)._release(ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        # Objects made from this one hold it alive, so none of them is left when this runs.
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr and type(self)._release is not None:
            type(self)._release(ptr)
