"""ctest entry point of the Python tests: runs pytest on the given folders with this
interpreter, or exits 77 (ctest SKIP_RETURN_CODE) with a message when numpy or pytest is
missing. Tests that need torch or matplotlib skip themselves (pytest.importorskip)."""
import sys

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

sys.exit(pytest.main(["-q", "-rs", "-p", "no:cacheprovider"] + sys.argv[1:]))
