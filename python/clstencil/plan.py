"""Plans (how a stencil runs on a grid for a device) and runs from NumPy arrays."""
import ctypes
import operator

from . import _arrays, _lib
from ._handle import Handle
from ._lib import check, lib, schedule_code, schedule_name, text


def count(n, what):
    """A count of steps or slices: a non-negative integer that fits size_t (ctypes would wrap
    a negative one silently)."""
    n = operator.index(n)
    if n < 0 or n >= 1 << 63:
        raise ValueError("%s: expected a non-negative integer, got %d" % (what, n))
    return n


def report_dict(r):
    return {
        "schedule": schedule_name(r.schedule),
        "steps": r.steps,
        "seconds_total": r.seconds_total,
        "seconds_kernels": r.seconds_kernels,
        "seconds_per_step": r.seconds_per_step,
        "gpoints_per_s": r.gpoints_per_s,
        "predicted_seconds": r.predicted_seconds,
        "predicted_total_seconds": r.predicted_total_seconds,
        "allocated": bool(r.allocated),
    }


def schedules():
    """The registered schedules and the parameters they take (`clstencil schedules`)."""
    out = []
    i = 0
    while True:
        info = _lib.ScheduleInfo()
        if lib.cls_schedule_describe(i, ctypes.byref(info)) != 0:
            return out
        params = []
        for k in range(info.num_params):
            p = _lib.ScheduleParam()
            check(lib.cls_schedule_describe_param(i, k, ctypes.byref(p)))
            params.append({"name": text(p.name), "kind": text(p.kind), "min": p.min,
                           "max": p.max, "values": text(p.values), "doc": text(p.doc)})
        out.append({"name": text(info.name), "summary": text(info.summary),
                    "host": bool(info.host), "params": params})
        i += 1


def _params_text(params):
    """Schedule parameters as the library takes them: text ("trapezoid.height=4 ..."), or a
    dict {"trapezoid.height": 4, "trapezoid.tile": (34, 34)}."""
    if params is None or isinstance(params, str):
        return params
    parts = []
    for k, v in params.items():
        if isinstance(v, (tuple, list)):
            v = "x".join(str(int(x)) for x in v)
        parts.append("%s=%s" % (k, v))
    return " ".join(parts)


class Plan(Handle):
    """How `stencil` runs on a grid of `shape` (NumPy order: slowest axis first, one entry per
    dimension) for `steps` steps on the context's device: the schedule, its parameters and the
    built program.

    schedule: "auto" (the planner decides), a resident schedule, or "pipeline" (runs from
    host arrays tile by tile); params: the schedules' parameters (text or a dict, see
    _params_text); max_registers, device_memory (bytes), host_pinned, release_buffers: as in
    cls_plan_options (doc/guide.md, "Options").  The plan keeps its own copy of the stencil.
    """

    _release = lib.cls_plan_release

    def __init__(self, context, stencil, shape, steps, schedule="auto", params=None,
                 max_registers=0, device_memory=0, host_pinned=False, release_buffers=False):
        self.stencil = stencil.copy()
        self.shape, dims = self.stencil.grid_shape(shape)
        self.steps = count(steps, "steps")
        opt = _lib.PlanOptions()
        lib.cls_plan_options_init(ctypes.byref(opt))
        opt.schedule = schedule_code(schedule)
        params = _params_text(params)
        opt.params = params.encode() if params is not None else None
        opt.max_registers = count(max_registers, "max_registers")
        opt.device_memory = float(device_memory)
        opt.host_pinned = 1 if host_pinned else 0
        opt.release_buffers = 1 if release_buffers else 0
        ptr = ctypes.c_void_p()
        check(lib.cls_plan_create(context._handle, self.stencil._handle, dims, self.steps,
                                  ctypes.byref(opt), ctypes.byref(ptr)))
        super().__init__(ptr.value, context)
        self.context = context
        self.last_report = None
        self._progress = None      # the C callback: kept alive while the plan may call it
        self._progress_error = None

    @property
    def dtype(self):
        return self.stencil.dtype

    # --------------------------------------------------------------------- what was chosen
    @property
    def info(self):
        """What the planner chose (cls_plan_describe), as a dict."""
        i = _lib.PlanInfo()
        check(lib.cls_plan_describe(self._handle, ctypes.byref(i)))
        return {
            "schedule": text(i.schedule_name),
            "host_schedule": schedule_name(i.host_schedule),
            "local_size": tuple(i.local_size),
            "global_size": tuple(i.global_size),
            "max_registers": i.max_registers,
            "from_cache": ("built", "disk", "memory")[i.from_cache]
            if 0 <= i.from_cache <= 2 else i.from_cache,
            "build_seconds": i.build_seconds,
            "predicted_seconds": i.predicted_seconds,
            "predicted_total_seconds": i.predicted_total_seconds,
            "predicted_copy_seconds": i.predicted_copy_seconds,
            "predicted_alloc_seconds": i.predicted_alloc_seconds,
            "params": text(i.params),
            "why": text(i.why),
            "host_why": text(i.host_why),
        }

    def param(self, name):
        """The value the plan chose for a parameter ("trapezoid.height" -> "4"), None when it
        has none."""
        v = lib.cls_plan_param(self._handle, name.encode())
        return text(v) if v is not None else None

    @property
    def candidates(self):
        """Every configuration the planner priced, as dicts (the chosen ones marked)."""
        out = []
        for i in range(lib.cls_plan_num_candidates(self._handle)):
            c = _lib.PlanCandidate()
            check(lib.cls_plan_candidate_info(self._handle, i, ctypes.byref(c)))
            out.append({"schedule": text(c.schedule_name), "host": bool(c.host),
                        "chosen": bool(c.chosen), "declined": bool(c.declined),
                        "predicted_seconds": c.predicted_seconds,
                        "predicted_total_seconds": c.predicted_total_seconds,
                        "why": text(c.why)})
        return out

    # --------------------------------------------------------------------- progress
    def set_progress(self, fn):
        """fn(done, total) is called between steps; a true result cancels the run, which then
        raises Error CLS_ERR_CANCELLED.  An exception raised by fn cancels the run too and is
        raised again from it.  None removes the callback."""
        if fn is None:
            check(lib.cls_plan_set_progress(self._handle, _lib.PROGRESS_FN(), None))
            self._progress = None
            return

        def call(done, total, user):
            try:
                return 1 if fn(done, total) else 0
            except BaseException as e:  # noqa: B036 - handed back to the caller of the run
                self._progress_error = e
                return 1

        cb = _lib.PROGRESS_FN(call)
        check(lib.cls_plan_set_progress(self._handle, cb, None))
        self._progress = cb

    def _finish(self, status, report):
        err, self._progress_error = self._progress_error, None
        if err is not None:
            raise err
        check(status)
        self.last_report = report_dict(report)
        return self.last_report

    # --------------------------------------------------------------------- runs
    def run(self, input, aux=None, out=None):
        """Runs the plan's steps from host arrays and returns the final state: `out` when
        given (it may be `input` itself), else a new array.  `input` and the auxiliary arrays
        (a list in the stencil's order, or a dict by name; a per-step array has shape
        (steps,) + shape) are passed to the library as they are when they are C-contiguous
        arrays of the stencil's dtype, else converted first.  The report is in last_report."""
        u = _arrays.as_input(input, self.dtype, self.shape, "input")
        a = _arrays.aux_inputs(self.stencil, aux, self.dtype, self.shape, self.steps, "aux")
        o = _arrays.as_output(out, self.dtype, self.shape, "out")
        report = _lib.Report()
        status = lib.cls_plan_run(self._handle, _arrays.pointer(u), _arrays.pointer_array(a),
                                  _arrays.pointer(o), ctypes.byref(report))
        self._finish(status, report)
        return o

    def advance(self, state, steps):
        """Advances a State by `steps` steps (any number, whatever the plan's own steps) and
        returns the report as a dict."""
        steps = count(steps, "steps")
        report = _lib.Report()
        status = lib.cls_plan_advance(self._handle, state._handle, steps, ctypes.byref(report))
        return self._finish(status, report)

    def release_buffers(self):
        """Frees the device buffers the plan keeps between runs (the next run allocates them
        again)."""
        lib.cls_plan_release_buffers(self._handle)

    def __repr__(self):
        if self.closed:
            return "<clstencil.Plan closed>"
        return "<clstencil.Plan '%s' %s x %d steps: %s>" % (
            self.stencil.name, "x".join(map(str, self.shape)), self.steps,
            self.info["schedule"])
