"""ctest entry point of the Python tests: runs pytest on the given files with this
interpreter. Exits 77 (ctest SKIP_RETURN_CODE) with a message when numpy or pytest is
missing, or when every test skipped itself (e.g. torch or matplotlib not installed; the
reason is printed by -rs)."""
import shutil
import sys
import tempfile

missing = []
for name in ("numpy", "pytest"):
    try:
        __import__(name)
    except ImportError:
        missing.append(name)
if missing:
    print("softfit python tests skipped: %s not installed for %s (scripts/install-deps.sh installs "
          "python3-numpy python3-pytest)" % (", ".join(missing), sys.executable))
    sys.exit(77)

import pytest  # noqa: E402


class Outcomes:
    def __init__(self):
        self.ran = self.skipped = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" and not report.skipped:
            self.ran += 1
        elif report.skipped:
            self.skipped += 1

    def pytest_collectreport(self, report):
        if report.skipped:
            self.skipped += 1


outcomes = Outcomes()
basetemp = tempfile.mkdtemp(prefix="softfit-pytest-")  # own folder: ctest runs files in parallel
try:
    code = pytest.main(["-q", "-rs", "-p", "no:cacheprovider", "--basetemp", basetemp + "/t"] + sys.argv[1:],
                       plugins=[outcomes])
finally:
    shutil.rmtree(basetemp, ignore_errors=True)
if code in (0, 5) and outcomes.ran == 0 and outcomes.skipped > 0:
    print("softfit python tests: every test skipped (reasons above)")
    sys.exit(77)
sys.exit(code)
