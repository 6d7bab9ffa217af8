"""Runs the package's tests and reports them as TAP (the format of the library's test suite):
python3 tests/tap.py [MODULE...] (default: every test_*.py beside this file)."""
import os
import sys
import traceback
import unittest


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0

    def _name(self, test):
        doc = test.shortDescription()
        return "%s: %s" % (test.id().split(".", 1)[-1], doc) if doc else test.id()

    def _line(self, verdict, test, extra=""):
        self.n += 1
        print("%s %d - %s%s" % (verdict, self.n, self._name(test), extra), flush=True)

    def _diag(self, err):
        for line in "".join(traceback.format_exception(*err)).rstrip().splitlines():
            print("#   " + line)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line("ok", test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line("not ok", test)
        self._diag(err)

    def addError(self, test, err):
        super().addError(test, err)
        self._line("not ok", test)
        self._diag(err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line("ok", test, " # SKIP " + reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._line("not ok", test, " # TODO expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._line("ok", test, " # TODO unexpected success")


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    loader = unittest.TestLoader()
    if argv:
        suite = unittest.TestSuite(loader.loadTestsFromName(m) for m in argv)
    else:
        suite = loader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = TapResult()
    suite.run(result)
    print("1..%d" % result.n)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
