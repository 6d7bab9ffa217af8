"""Tests of the clstencil package against the library it loads: every result is compared with
the host reference (bit for bit where the body is exact), and every refusal with its message.

Environment: CLS_PY_EXPECT_LIBDIR, when set, is the folder the library must have been loaded
from (the installed copy); CLS_SRCDIR, when set, is the source tree whose doc/python.md example
is run."""
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import clstencil as cls

RNG = np.random.default_rng(20240611)


def heat2d(dtype="float"):
    return cls.Stencil.from_json({
        "name": "heat2d", "dims": 2, "dtype": dtype, "params": {"alpha": 0.2},
        "body": "IN(0,0) + alpha * (IN(-1,0) + IN(1,0) + IN(0,-1) + IN(0,1) - 4 * IN(0,0))"})


class Fixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls_):
        cls_.ctx = cls.Context()

    @classmethod
    def tearDownClass(cls_):
        cls_.ctx.close()


class TestLibrary(unittest.TestCase):
    def test_loaded_from_install(self):
        """the library is loaded from the folder recorded at install time"""
        want = os.environ.get("CLS_PY_EXPECT_LIBDIR")
        if not want:
            self.skipTest("CLS_PY_EXPECT_LIBDIR not set")
        self.assertEqual(os.path.realpath(os.path.dirname(cls.library_path())),
                         os.path.realpath(want))

    def test_version(self):
        """version() is the library's MAJOR.MINOR.PATCH"""
        self.assertRegex(cls.version(), r"^\d+\.\d+\.\d+$")

    def test_bad_override(self):
        """CLSTENCIL_LIB naming no library makes the import fail, saying what was tried"""
        env = dict(os.environ, CLSTENCIL_LIB="/nonexistent/libclstencil.so.0")
        r = subprocess.run([sys.executable, "-c", "import clstencil"], env=env,
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("ImportError", r.stderr)
        self.assertIn("/nonexistent/libclstencil.so.0 (CLSTENCIL_LIB): no such file", r.stderr)

    def test_override_folder(self):
        """CLSTENCIL_LIB may name the folder that holds the library"""
        folder = os.path.dirname(os.path.realpath(cls.library_path()))
        env = dict(os.environ, CLSTENCIL_LIB=folder)
        r = subprocess.run([sys.executable, "-c", "import clstencil; print(clstencil.library_path())"],
                           env=env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), os.path.join(folder, "libclstencil.so.0"))

    def test_devices(self):
        """devices() lists dicts and select_device resolves the default device"""
        devs = cls.devices()
        self.assertGreater(len(devs), 0)
        self.assertIn(devs[0]["type"], ("cpu", "gpu", "accelerator", "other"))
        d = cls.select_device()
        self.assertIn(d["name"], [x["name"] for x in devs])
        with self.assertRaises(cls.Error) as e:
            cls.select_device("no device is called this")
        self.assertEqual(e.exception.name, "CLS_ERR_NO_DEVICE")
        self.assertEqual(e.exception.status, -1004)
        self.assertIn(devs[0]["name"], e.exception.detail)

    def test_schedules(self):
        """schedules() lists the registered schedules and their parameters"""
        s = cls.schedules()
        self.assertGreater(len(s), 1)
        for sch in s:
            self.assertTrue(sch["name"] and sch["summary"])
            for p in sch["params"]:
                self.assertIn(p["kind"], ("integer", "sizes", "name"))


class TestStencil(unittest.TestCase):
    def test_builtins(self):
        """every built-in loads, with its summary, and survives a JSON round trip"""
        b = cls.builtins()
        self.assertIn("hotspot", b)
        for name, summary in b.items():
            self.assertTrue(summary)
            with cls.Stencil.builtin(name) as st:
                self.assertEqual(st.name, name)
                again = cls.Stencil.from_json(st.to_json())
                self.assertEqual(again.to_dict(), st.to_dict())

    def test_builtin_params(self):
        """parameters set at load and later read back"""
        st = cls.Stencil.builtin("hotspot", amb_temp=70)
        self.assertEqual(st.params["amb_temp"], 70.0)
        st.set_param("amb_temp", 75.5)
        self.assertEqual(st.params["amb_temp"], 75.5)
        self.assertEqual(st.aux_names, ["power"])
        self.assertEqual(st.dims, 2)
        self.assertEqual(st.dtype, np.float32)

    def test_unknown_builtin(self):
        """an unknown built-in raises Error with the library's code and message"""
        with self.assertRaises(cls.Error) as e:
            cls.Stencil.builtin("hotspott")
        self.assertEqual(e.exception.name, "CLS_ERR_UNKNOWN_STENCIL")
        self.assertEqual(e.exception.message, "unknown built-in stencil")
        self.assertIn("hotspott", str(e.exception))

    def test_json_path_in_error(self):
        """a bad field of a JSON spec raises Error naming its JSON path"""
        with self.assertRaises(cls.Error) as e:
            cls.Stencil.from_json({"dims": 2, "body": "IN(0,0)", "boundary": "wrap"})
        self.assertEqual(e.exception.name, "CLS_ERR_INVALID_SPEC")
        self.assertIn("$.boundary", e.exception.detail)
        with self.assertRaises(cls.Error) as e:
            cls.Stencil.from_json("{\"dims\": 2,")
        self.assertEqual(e.exception.name, "CLS_ERR_INVALID_JSON")

    def test_from_file(self):
        """a spec read from a file equals the same spec from text"""
        spec = heat2d().to_json()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "heat2d.json")
            with open(path, "w") as f:
                f.write(spec)
            self.assertEqual(cls.Stencil.from_file(path).to_json(), spec)
            with self.assertRaises(cls.Error) as e:
                cls.Stencil.from_file(os.path.join(d, "missing.json"))
            self.assertEqual(e.exception.name, "CLS_ERR_IO")

    def test_create_points(self):
        """a stencil built from points computes what the same body computes"""
        pts = [((0, 0), 0.2), ((-1, 0), 0.2), ((1, 0), 0.2), ((0, -1), 0.2), ((0, 1), 0.2)]
        a = cls.Stencil.create("avg5", 2, np.float64, points=pts, boundary="periodic")
        self.assertEqual(a.halo, (1, 1))
        self.assertEqual(a.boundary, "periodic")
        self.assertEqual(a.dtype, np.float64)
        b = cls.Stencil.create("avg5b", 2, "double", body=a.body, boundary="periodic")
        u = RNG.random((9, 13))
        np.testing.assert_array_equal(cls.reference_run(a, u, 4), cls.reference_run(b, u, 4))
        # Four steps of the 5-point average on a periodic grid keep the mean.
        self.assertAlmostEqual(cls.reference_run(a, u, 4).mean(), u.mean(), places=12)
        with self.assertRaises(ValueError):
            cls.Stencil.create("bad", 2, points=[((0,), 1.0)])

    def test_create_invalid(self):
        """a body reading beyond its halo is refused when created"""
        with self.assertRaises(cls.Error) as e:
            cls.Stencil.create("far", 1, body="IN(3)", halo=(1,))
        self.assertEqual(e.exception.name, "CLS_ERR_INVALID_SPEC")
        with self.assertRaises(TypeError):
            cls.Stencil.create("int", 1, np.int32, body="IN(0)")

    def test_facts(self):
        """flops, halo, boundary, exactness and description come from the library"""
        st = cls.Stencil.builtin("heat3d27")
        self.assertEqual(st.flops, 30)
        self.assertEqual(st.halo, (1, 1, 1))
        self.assertTrue(st.is_exact)
        self.assertTrue(st.description)
        self.assertGreater(st.min_bytes_per_point, 0)
        st.set_boundary("constant", 2.5)
        self.assertEqual((st.boundary, st.boundary_value), ("constant", 2.5))
        with self.assertRaises(cls.Error):
            st.set_boundary("wrap")


class TestRun(Fixture):
    def test_run_bitwise(self):
        """a run equals the host reference bit for bit, in float and double"""
        dtypes = ["float"]
        if self.ctx.device["double_support"]:
            dtypes.append("double")
        for dt in dtypes:
            with self.subTest(dtype=dt):
                st = heat2d(dt)
                u = RNG.random((40, 56)).astype(st.dtype)
                with cls.Plan(self.ctx, st, u.shape, 7) as p:
                    out = p.run(u)
                self.assertEqual(out.dtype, st.dtype)
                np.testing.assert_array_equal(out, cls.reference_run(st, u, 7))
                self.assertFalse(np.array_equal(out, u))

    def test_no_copy(self):
        """C-contiguous arrays of the dtype pass through as they are; others are converted"""
        from clstencil import _arrays
        u = np.zeros((4, 5), np.float32)
        self.assertIs(_arrays.as_input(u, np.float32, (4, 5), "u"), u)
        f = np.asfortranarray(RNG.random((4, 5)).astype(np.float32))
        c = _arrays.as_input(f, np.float32, (4, 5), "u")
        self.assertIsNot(c, f)
        self.assertTrue(c.flags.c_contiguous)
        np.testing.assert_array_equal(c, f)

    def test_in_place(self):
        """out=input runs in place and returns that very array"""
        st = heat2d()
        u = RNG.random((24, 32)).astype(np.float32)
        want = cls.reference_run(st, u, 3)
        with cls.Plan(self.ctx, st, u.shape, 3) as p:
            got = p.run(u, out=u)
        self.assertIs(got, u)
        np.testing.assert_array_equal(u, want)

    def test_converted_inputs(self):
        """Fortran-order, strided and float64 inputs give the result of their float32 copy"""
        st = heat2d()
        base = RNG.random((48, 64))
        want = cls.reference_run(st, base.astype(np.float32), 2)
        with cls.Plan(self.ctx, st, (24, 32), 2) as p:
            strided = base.astype(np.float32)[::2, ::2]
            np.testing.assert_array_equal(p.run(strided),
                                          cls.reference_run(st, strided.copy(), 2))
        with cls.Plan(self.ctx, st, base.shape, 2) as p:
            np.testing.assert_array_equal(p.run(base), want)
            np.testing.assert_array_equal(p.run(np.asfortranarray(base.astype(np.float32))),
                                          want)
            big_endian = base.astype(">f4")
            np.testing.assert_array_equal(p.run(big_endian), want)

    def test_refused_arrays(self):
        """wrong shapes, kinds and output arrays are refused before the library sees them"""
        st = heat2d()
        with cls.Plan(self.ctx, st, (8, 8), 1) as p:
            with self.assertRaisesRegex(ValueError, r"input: shape \(8, 9\), expected \(8, 8\)"):
                p.run(np.zeros((8, 9), np.float32))
            with self.assertRaises(TypeError):
                p.run(np.zeros((8, 8), np.complex64))
            with self.assertRaisesRegex(TypeError, "out: dtype float64"):
                p.run(np.zeros((8, 8), np.float32), out=np.zeros((8, 8)))
            with self.assertRaisesRegex(ValueError, "C-contiguous"):
                p.run(np.zeros((8, 8), np.float32),
                      out=np.zeros((8, 16), np.float32)[:, ::2])
            ro = np.zeros((8, 8), np.float32)
            ro.flags.writeable = False
            with self.assertRaises(ValueError):
                p.run(ro, out=ro)
            with self.assertRaisesRegex(ValueError, "0 auxiliary arrays given|1 auxiliary"):
                p.run(np.zeros((8, 8), np.float32), aux=[np.zeros((8, 8), np.float32)])
        with self.assertRaisesRegex(ValueError, "2-dimensional"):
            cls.Plan(self.ctx, st, (8, 8, 8), 1)
        with self.assertRaises(ValueError):
            cls.Plan(self.ctx, st, (8, 8), -1)

    def test_aux(self):
        """auxiliary arrays by position or by name; a missing or unknown one is refused"""
        st = cls.Stencil.builtin("hotspot")
        t = (300 + RNG.random((32, 32)) * 20).astype(np.float32)
        power = (RNG.random((32, 32)) * 1e-3).astype(np.float32)
        want = cls.reference_run(st, t, 5, aux=[power])
        with cls.Plan(self.ctx, st, t.shape, 5) as p:
            np.testing.assert_array_equal(p.run(t, [power]), want)
            np.testing.assert_array_equal(p.run(t, {"power": power}), want)
            with self.assertRaisesRegex(ValueError, "power not given"):
                p.run(t, {})
            with self.assertRaisesRegex(KeyError, "'pwr'"):
                p.run(t, {"power": power, "pwr": power})
            with self.assertRaises(ValueError):
                p.run(t)

    def test_per_step_aux(self):
        """a per-step array has one slice per step, in runs and in states"""
        st = cls.Stencil.builtin("pathfinder")
        self.assertTrue(st.aux_per_step(0))
        n, steps = 50, 9
        u = RNG.integers(0, 10, n).astype(st.dtype)
        wall = RNG.integers(0, 10, (steps, n)).astype(st.dtype)
        want = cls.reference_run(st, u, steps, aux={"wall": wall})
        with cls.Plan(self.ctx, st, u.shape, steps) as p:
            np.testing.assert_array_equal(p.run(u, {"wall": wall}), want)
            with self.assertRaisesRegex(ValueError, r"shape \(8, 50\), expected \(9, 50\)"):
                p.run(u, {"wall": wall[:8]})
            with cls.State(p, u) as s:
                s.write_aux("wall", wall)
                s.advance(4)
                s.advance(5)
                np.testing.assert_array_equal(s.read(), want)
                with self.assertRaises(cls.Error) as e:
                    s.advance(1)
                self.assertIn("per-step array 'wall' holds 9 steps", e.exception.detail)
                with self.assertRaisesRegex(ValueError, "per-step array"):
                    s.write_aux(0, wall[0])

    def test_run_function(self):
        """clstencil.run plans and runs in one call"""
        st = heat2d()
        u = RNG.random((16, 16)).astype(np.float32)
        np.testing.assert_array_equal(cls.run(st, u, 4, context=self.ctx),
                                      cls.reference_run(st, u, 4))
        np.testing.assert_array_equal(cls.run("heat3d7", np.ones((4, 5, 6)).tolist(), 2),
                                      np.ones((4, 5, 6), np.float32))


class TestPlan(Fixture):
    def test_info(self):
        """the plan's info and candidates as dicts"""
        with cls.Plan(self.ctx, cls.Stencil.builtin("heat3d7"), (12, 16, 20), 4) as p:
            info = p.info
            names = [s["name"] for s in cls.schedules()]
            self.assertIn(info["schedule"], names)
            self.assertEqual(len(info["local_size"]), 3)
            self.assertIn(info["from_cache"], ("built", "disk", "memory"))
            self.assertTrue(info["why"])
            for part in info["params"].split():
                k, v = part.split("=", 1)
                self.assertEqual(p.param(k), v)
            self.assertIsNone(p.param("nosuch.param"))
            cands = p.candidates
            self.assertTrue(any(c["chosen"] for c in cands))
            self.assertTrue(all(c["schedule"] in names and c["why"] for c in cands))
            self.assertEqual(p.shape, (12, 16, 20))

    def test_forced_schedule(self):
        """a forced schedule with parameters as a dict runs, bit for bit as the reference"""
        st = heat2d()
        u = RNG.random((64, 64)).astype(np.float32)
        with cls.Plan(self.ctx, st, u.shape, 6, schedule="trapezoid",
                      params={"trapezoid.height": 2, "trapezoid.tile": (16, 16)}) as p:
            self.assertEqual(p.info["schedule"], "trapezoid")
            self.assertEqual(p.param("trapezoid.height"), "2")
            self.assertEqual(p.param("trapezoid.tile"), "16x16x1")
            np.testing.assert_array_equal(p.run(u), cls.reference_run(st, u, 6))

    def test_bad_options(self):
        """unknown schedules and parameters raise Error with the library's explanation"""
        st = heat2d()
        with self.assertRaises(cls.Error) as e:
            cls.Plan(self.ctx, st, (32, 32), 2, schedule="warp")
        self.assertEqual(e.exception.name, "CLS_ERR_INVALID_ARGUMENT")
        with self.assertRaises(cls.Error) as e:
            cls.Plan(self.ctx, st, (32, 32), 2, params="trapezoid.colour=red")
        self.assertIn("colour", e.exception.detail)
        self.assertIn("height", e.exception.detail)

    def test_progress(self):
        """the progress callback sees the steps, and cancels the run when it answers true"""
        st = heat2d()
        u = RNG.random((16, 16)).astype(np.float32)
        seen = []
        with cls.Plan(self.ctx, st, u.shape, 5, schedule="naive") as p:
            p.set_progress(lambda done, total: seen.append((done, total)))
            p.run(u)
            self.assertEqual(seen[-1], (5, 5))
            self.assertTrue(all(t == 5 for _, t in seen))
            out = np.full_like(u, 7)
            p.set_progress(lambda done, total: done >= 2)
            with self.assertRaises(cls.Error) as e:
                p.run(u, out=out)
            self.assertEqual(e.exception.name, "CLS_ERR_CANCELLED")
            self.assertTrue((out == 7).all())

            def boom(done, total):
                raise RuntimeError("stop here")
            p.set_progress(boom)
            with self.assertRaisesRegex(RuntimeError, "stop here"):
                p.run(u)
            p.set_progress(None)
            np.testing.assert_array_equal(p.run(u), cls.reference_run(st, u, 5))

    def test_release_buffers(self):
        """the report says which run allocated the plan's buffers"""
        st = heat2d()
        u = RNG.random((16, 16)).astype(np.float32)
        with cls.Plan(self.ctx, st, u.shape, 2) as p:
            p.run(u)
            self.assertTrue(p.last_report["allocated"])
            p.run(u)
            self.assertFalse(p.last_report["allocated"])
            p.release_buffers()
            p.run(u)
            rep = p.last_report
            self.assertTrue(rep["allocated"])
            self.assertEqual(rep["steps"], 2)
            self.assertGreater(rep["seconds_total"], 0)
            self.assertEqual(rep["schedule"], p.info["schedule"])


class TestState(Fixture):
    def test_advance_in_parts(self):
        """advancing a state by a, then b steps equals one run of a + b steps"""
        st = cls.Stencil.builtin("heat3d7")
        u = RNG.random((10, 12, 14)).astype(np.float32)
        want = cls.reference_run(st, u, 7)
        with cls.Plan(self.ctx, st, u.shape, 7) as p, cls.State(p) as s:
            s.write(u)
            self.assertEqual(s.step, 0)
            rep = s.advance(3)
            self.assertEqual(rep["steps"], 3)
            snap = s.read()
            np.testing.assert_array_equal(snap, cls.reference_run(st, u, 3))
            p.advance(s, 4)
            self.assertEqual(s.step, 7)
            out = np.empty_like(u)
            self.assertIs(s.read(out), out)
            np.testing.assert_array_equal(out, want)
            s.step = 2
            self.assertEqual(s.step, 2)

    def test_unwritten(self):
        """advancing a state whose field was never written is refused"""
        with cls.Plan(self.ctx, heat2d(), (8, 8), 1) as p, cls.State(p) as s:
            with self.assertRaises(cls.Error) as e:
                s.advance(1)
            self.assertIn("write it first", e.exception.detail)

    def test_close_order(self):
        """closing a context closes its plans and states; a closed object refuses use"""
        ctx = cls.Context()
        p = cls.Plan(ctx, heat2d(), (8, 8), 1)
        s = cls.State(p, np.zeros((8, 8), np.float32))
        ctx.close()
        self.assertTrue(p.closed and s.closed)
        with self.assertRaisesRegex(ValueError, "State is closed"):
            s.read()
        with self.assertRaisesRegex(ValueError, "Plan is closed"):
            p.run(np.zeros((8, 8), np.float32))
        p.close()
        ctx.close()


class TestDocExample(unittest.TestCase):
    def test_python_md_example(self):
        """the example of doc/python.md runs (and saves its picture where matplotlib is)"""
        src = os.environ.get("CLS_SRCDIR")
        if not src:
            self.skipTest("CLS_SRCDIR not set")
        with open(os.path.join(src, "doc", "python.md")) as f:
            doc = f.read()
        m = re.search(r"```python\n(.*?)```", doc, re.S)
        self.assertIsNotNone(m, "doc/python.md has no python example")
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([sys.executable, "-c", m.group(1)], cwd=d, capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("bitwise equal to the host reference: True", r.stdout)
            if importlib.util.find_spec("matplotlib") is not None:
                self.assertTrue(any(n.endswith(".png") for n in os.listdir(d)), os.listdir(d))


if __name__ == "__main__":
    unittest.main()
