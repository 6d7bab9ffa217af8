"""Finds and loads libclstencil, and declares the C API it wraps (include/clstencil.h).

Every C function the package calls is declared once, in the table at the end of this file,
with its argument and result types: ctypes then converts and checks each call, and adding a
function of the API is one line there.
"""
import ctypes
import ctypes.util
import os

from . import _config

# The ABI this package is written for: the soname of libtool's -version-info 0:0:0.  A library
# of another ABI has other structs, so it is not loaded in its place.
SONAME = "libclstencil.so.0"


class Error(Exception):
    """A failed call of the library.

    status: the library's code (negative; OpenCL failures keep their CL_* value);
    name: its name ("CLS_ERR_INVALID_SPEC"); message: the library's sentence for the code;
    detail: what cls_last_error() said about this failure (a JSON path, a build log, a limit).
    """

    def __init__(self, status, name, message, detail):
        self.status = status
        self.name = name
        self.message = message
        self.detail = detail
        text = "%s: %s" % (name, message)
        if detail:
            text += ": " + detail
        super().__init__(text)


def _candidates():
    """The places to load the library from, in order, each as (how it was found, path)."""
    env = os.environ.get("CLSTENCIL_LIB")
    if env:
        path = os.path.join(env, SONAME) if os.path.isdir(env) else env
        return [("CLSTENCIL_LIB", path)]
    found = []
    if _config.LIBDIR:
        found.append(("the library folder recorded at install time", os.path.join(_config.LIBDIR, SONAME)))
    found.append(("the dynamic loader's search path", SONAME))
    name = ctypes.util.find_library("clstencil")
    if name and name != SONAME:
        found.append(("ctypes.util.find_library", name))
    return found


def _load():
    tried = []
    for how, path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append("%s (%s): no such file" % (path, how))
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append("%s (%s): %s" % (path, how, e))
    raise ImportError("clstencil: cannot load libclstencil; tried " + "; ".join(tried) +
                      ". Install the library (make install), or set CLSTENCIL_LIB to its file.")


lib, path = _load()

# ---------------------------------------------------------------------------------- structs
c_size_p = ctypes.POINTER(ctypes.c_size_t)
c_int_p = ctypes.POINTER(ctypes.c_int)


class DeviceInfo(ctypes.Structure):
    _fields_ = [
        ("platform_index", ctypes.c_int),
        ("device_index", ctypes.c_int),
        ("type", ctypes.c_int),
        ("name", ctypes.c_char * 256),
        ("vendor", ctypes.c_char * 256),
        ("platform_name", ctypes.c_char * 256),
        ("driver_version", ctypes.c_char * 128),
        ("device_version", ctypes.c_char * 128),
        ("compute_units", ctypes.c_uint),
        ("clock_mhz", ctypes.c_uint),
        ("max_work_group_size", ctypes.c_size_t),
        ("max_work_item_sizes", ctypes.c_size_t * 3),
        ("global_mem_bytes", ctypes.c_uint64),
        ("max_alloc_bytes", ctypes.c_uint64),
        ("local_mem_bytes", ctypes.c_uint64),
        ("local_mem_is_global", ctypes.c_int),
        ("double_support", ctypes.c_int),
    ]


class Dims(ctypes.Structure):
    _fields_ = [("n", ctypes.c_size_t * 3)]


class ScheduleInfo(ctypes.Structure):
    _fields_ = [
        ("schedule", ctypes.c_int),
        ("name", ctypes.c_char_p),
        ("summary", ctypes.c_char_p),
        ("host", ctypes.c_int),
        ("num_params", ctypes.c_size_t),
    ]


class ScheduleParam(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("kind", ctypes.c_char_p),
        ("min", ctypes.c_size_t),
        ("max", ctypes.c_size_t),
        ("values", ctypes.c_char * 128),
        ("doc", ctypes.c_char_p),
    ]


class PlanOptions(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("schedule", ctypes.c_int),
        ("params", ctypes.c_char_p),
        ("max_registers", ctypes.c_size_t),
        ("device_memory", ctypes.c_double),
        ("host_pinned", ctypes.c_int),
        ("release_buffers", ctypes.c_int),
    ]


class PlanInfo(ctypes.Structure):
    _fields_ = [
        ("schedule", ctypes.c_int),
        ("schedule_name", ctypes.c_char_p),
        ("host_schedule", ctypes.c_int),
        ("local_size", ctypes.c_size_t * 3),
        ("global_size", ctypes.c_size_t * 3),
        ("max_registers", ctypes.c_size_t),
        ("from_cache", ctypes.c_int),
        ("build_seconds", ctypes.c_double),
        ("predicted_seconds", ctypes.c_double),
        ("predicted_total_seconds", ctypes.c_double),
        ("predicted_copy_seconds", ctypes.c_double),
        ("predicted_alloc_seconds", ctypes.c_double),
        ("params", ctypes.c_char_p),
        ("why", ctypes.c_char_p),
        ("host_why", ctypes.c_char_p),
    ]


class PlanCandidate(ctypes.Structure):
    _fields_ = [
        ("schedule", ctypes.c_int),
        ("schedule_name", ctypes.c_char_p),
        ("host", ctypes.c_int),
        ("chosen", ctypes.c_int),
        ("declined", ctypes.c_int),
        ("predicted_seconds", ctypes.c_double),
        ("predicted_total_seconds", ctypes.c_double),
        ("why", ctypes.c_char_p),
    ]


class Report(ctypes.Structure):
    _fields_ = [
        ("schedule", ctypes.c_int),
        ("steps", ctypes.c_size_t),
        ("seconds_total", ctypes.c_double),
        ("seconds_kernels", ctypes.c_double),
        ("seconds_per_step", ctypes.c_double),
        ("gpoints_per_s", ctypes.c_double),
        ("predicted_seconds", ctypes.c_double),
        ("predicted_total_seconds", ctypes.c_double),
        ("allocated", ctypes.c_int),
    ]


PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p)

# ------------------------------------------------------------------------------- functions
_h = ctypes.c_void_p          # an opaque handle (cls_context *, cls_stencil *, ...)
_hp = ctypes.POINTER(ctypes.c_void_p)
_s = ctypes.c_char_p
_st = ctypes.c_int            # cls_status
_sz = ctypes.c_size_t
_d = ctypes.c_double
_i = ctypes.c_int
_v = None

# name: (result, arguments), in the order of include/clstencil.h.
_PROTOTYPES = {
    "cls_status_string": (_s, [_i]),
    "cls_status_message": (_s, [_i]),
    "cls_last_error": (_s, []),
    "cls_version": (_s, []),
    "cls_free": (_v, [_h]),
    "cls_device_list": (_st, [ctypes.POINTER(DeviceInfo), _sz, c_size_p]),
    "cls_device_select": (_st, [_s, ctypes.POINTER(DeviceInfo)]),
    "cls_context_create": (_st, [_s, _hp]),
    "cls_context_release": (_v, [_h]),
    "cls_context_device": (_st, [_h, ctypes.POINTER(DeviceInfo)]),
    "cls_context_last_error": (_s, [_h]),
    "cls_stencil_from_json": (_st, [_s, _hp]),
    "cls_stencil_from_file": (_st, [_s, _hp]),
    "cls_stencil_builtin": (_st, [_s, _hp]),
    "cls_stencil_builtin_name": (_s, [_sz]),
    "cls_stencil_builtin_summary": (_s, [_s]),
    "cls_stencil_create": (_st, [_s, _i, _i, _s, _hp]),
    "cls_stencil_add_point": (_st, [_h, _i, _i, _i, _d]),
    "cls_stencil_add_aux": (_st, [_h, _s, _i]),
    "cls_stencil_set_halo": (_st, [_h, _i, _i, _i]),
    "cls_stencil_set_param": (_st, [_h, _s, _d]),
    "cls_stencil_get_param": (_st, [_h, _s, ctypes.POINTER(_d)]),
    "cls_stencil_set_dtype": (_st, [_h, _i]),
    "cls_stencil_set_boundary": (_st, [_h, _i, _d]),
    "cls_stencil_validate": (_st, [_h]),
    "cls_stencil_to_json": (_st, [_h, _hp]),
    "cls_stencil_copy": (_st, [_h, _hp]),
    "cls_stencil_release": (_v, [_h]),
    "cls_stencil_name": (_s, [_h]),
    "cls_stencil_dims": (_i, [_h]),
    "cls_stencil_dtype": (_i, [_h]),
    "cls_stencil_boundary": (_i, [_h]),
    "cls_stencil_halo": (_v, [_h, ctypes.c_int * 3]),
    "cls_stencil_num_aux": (_sz, [_h]),
    "cls_stencil_aux_name": (_s, [_h, _sz]),
    "cls_stencil_num_params": (_sz, [_h]),
    "cls_stencil_param_name": (_s, [_h, _sz]),
    "cls_stencil_boundary_value": (_d, [_h]),
    "cls_stencil_description": (_s, [_h]),
    "cls_stencil_aux_per_step": (_i, [_h, _sz]),
    "cls_stencil_body": (_s, [_h]),
    "cls_stencil_flops": (_st, [_h, c_size_p]),
    "cls_dtype_size": (_sz, [_i]),
    "cls_boundary_name": (_s, [_i]),
    "cls_boundary_from_name": (_st, [_s, c_int_p]),
    "cls_dims_points": (_sz, [Dims]),
    "cls_schedule_name": (_s, [_i]),
    "cls_schedule_from_name": (_st, [_s, c_int_p]),
    "cls_schedule_describe": (_st, [_sz, ctypes.POINTER(ScheduleInfo)]),
    "cls_schedule_describe_param": (_st, [_sz, _sz, ctypes.POINTER(ScheduleParam)]),
    "cls_plan_options_init": (_v, [ctypes.POINTER(PlanOptions)]),
    "cls_plan_create": (_st, [_h, _h, Dims, _sz, ctypes.POINTER(PlanOptions), _hp]),
    "cls_plan_release": (_v, [_h]),
    "cls_plan_release_buffers": (_v, [_h]),
    "cls_plan_describe": (_st, [_h, ctypes.POINTER(PlanInfo)]),
    "cls_plan_param": (_s, [_h, _s]),
    "cls_plan_num_candidates": (_sz, [_h]),
    "cls_plan_candidate_info": (_st, [_h, _sz, ctypes.POINTER(PlanCandidate)]),
    "cls_plan_set_progress": (_st, [_h, PROGRESS_FN, _h]),
    "cls_plan_run": (_st, [_h, _h, _hp, _h, ctypes.POINTER(Report)]),
    "cls_state_create": (_st, [_h, _hp]),
    "cls_state_release": (_v, [_h]),
    "cls_state_write": (_st, [_h, _h]),
    "cls_state_write_aux": (_st, [_h, _sz, _h, _sz]),
    "cls_state_read": (_st, [_h, _h]),
    "cls_state_step": (_sz, [_h]),
    "cls_state_set_step": (_st, [_h, _sz]),
    "cls_plan_advance": (_st, [_h, _h, _sz, ctypes.POINTER(Report)]),
    "cls_reference_run": (_st, [_h, Dims, _sz, _h, _hp, _h]),
    "cls_stencil_is_exact": (_i, [_h]),
    "cls_stencil_min_bytes_per_point": (_d, [_h]),
}

for _name, (_res, _args) in _PROTOTYPES.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def text(b):
    """A C string from the library as str ("" for NULL)."""
    return b.decode("utf-8", "replace") if b is not None else ""


def check(status):
    """Raises Error for a failed call, with the library's message for this thread."""
    if status != 0:
        raise Error(status, text(lib.cls_status_string(status)),
                    text(lib.cls_status_message(status)), text(lib.cls_last_error()))


def schedule_name(code):
    return text(lib.cls_schedule_name(code))


def schedule_code(name):
    code = ctypes.c_int()
    check(lib.cls_schedule_from_name(name.encode(), ctypes.byref(code)))
    return code.value

