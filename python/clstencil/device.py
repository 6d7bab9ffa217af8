"""OpenCL devices and contexts (one device, its queue and program cache)."""
import ctypes

from . import _lib
from ._handle import Handle
from ._lib import check, lib, text

_TYPES = {0: "other", 1: "cpu", 2: "gpu", 3: "accelerator"}


def _device_dict(d):
    return {
        "platform_index": d.platform_index,
        "device_index": d.device_index,
        "type": _TYPES.get(d.type, "other"),
        "name": text(d.name),
        "vendor": text(d.vendor),
        "platform_name": text(d.platform_name),
        "driver_version": text(d.driver_version),
        "device_version": text(d.device_version),
        "compute_units": d.compute_units,
        "clock_mhz": d.clock_mhz,
        "max_work_group_size": d.max_work_group_size,
        "max_work_item_sizes": tuple(d.max_work_item_sizes),
        "global_mem_bytes": d.global_mem_bytes,
        "max_alloc_bytes": d.max_alloc_bytes,
        "local_mem_bytes": d.local_mem_bytes,
        "local_mem_is_global": bool(d.local_mem_is_global),
        "double_support": bool(d.double_support),
    }


def devices():
    """Every device of every platform, as dicts."""
    count = ctypes.c_size_t()
    check(lib.cls_device_list(None, 0, ctypes.byref(count)))
    infos = (_lib.DeviceInfo * max(count.value, 1))()
    check(lib.cls_device_list(infos, count.value, ctypes.byref(count)))
    return [_device_dict(infos[i]) for i in range(min(count.value, len(infos)))]


def _selector(selector):
    return selector.encode() if selector is not None else None


def select_device(selector=None):
    """The device a selector names, without creating a context.  Selectors: None or "" (the
    CLSTENCIL_DEVICE variable, else the first GPU, else the first CPU), "gpu", "cpu",
    "accelerator" (optionally ":N"), "P:D" (platform and device index), or a piece of the
    platform and device name."""
    d = _lib.DeviceInfo()
    check(lib.cls_device_select(_selector(selector), ctypes.byref(d)))
    return _device_dict(d)


class Context(Handle):
    """One device, its queue and its program cache.  Context() takes the default device;
    Context("cpu"), Context("0:1"), ... take the one the selector names (see select_device)."""

    _release = lib.cls_context_release

    def __init__(self, selector=None):
        ptr = ctypes.c_void_p()
        check(lib.cls_context_create(_selector(selector), ctypes.byref(ptr)))
        super().__init__(ptr.value)

    @property
    def device(self):
        """The context's device, as a dict."""
        d = _lib.DeviceInfo()
        check(lib.cls_context_device(self._handle, ctypes.byref(d)))
        return _device_dict(d)

    @property
    def last_error(self):
        """Details of the last failing call made with this context (a build log included)."""
        return text(lib.cls_context_last_error(self._handle))

    def __repr__(self):
        if self.closed:
            return "<clstencil.Context closed>"
        return "<clstencil.Context '%s'>" % self.device["name"]
