#!/usr/bin/env python3
"""Writes python/softfit/_softfit.pyi, the type stubs of the compiled module, from the
signatures pybind11 puts into its docstrings. `--check` compares instead and exits 1 when
the committed stubs differ from the module (the ctest python_stubs runs that).

    PYTHONPATH=build/python /usr/bin/python3 scripts/make_python_stubs.py [--check]
"""
import argparse
import pathlib
import re
import sys

import softfit._softfit as module

STUBS = pathlib.Path(__file__).resolve().parents[1] / "python" / "softfit" / "_softfit.pyi"
HEADER = '''"""Type stubs of softfit's compiled module (written by scripts/make_python_stubs.py)."""
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy
import numpy.typing
'''


def clean(text):
    text = text.replace("softfit._softfit.", "")
    text = re.sub(r"numpy\.ndarray\[numpy\.float64[^\]]*\]", "numpy.typing.NDArray[numpy.float64]", text)
    text = re.sub(r"numpy\.ndarray\[numpy\.int32[^\]]*\]", "numpy.typing.NDArray[numpy.int32]", text)
    return text


def split_arguments(text):
    """Top-level comma-separated arguments (brackets and quotes respected)."""
    parts, depth, quote, current = [], 0, None, ""
    for ch in text:
        if quote:
            current += ch
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "[({":
            depth += 1
        elif ch in "])}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def signature(name, doc, method):
    """`def name(...) -> type: ...` from the first docstring line, defaults as `...`."""
    first = (doc or "").strip().split("\n")[0]
    match = re.match(re.escape(name) + r"\((.*)\) -> (.+)$", first)
    if not match:
        return f"def {name}(*args: Any, **kwargs: Any) -> Any: ..."
    arguments = []
    for part in split_arguments(match.group(1)):
        part = re.sub(r"\s*=\s*.*$", " = ...", part)
        if method and part.startswith("self"):
            part = "self"
        arguments.append(part)
    return f"def {name}({', '.join(arguments)}) -> {clean(match.group(2))}: ..."


def property_type(prop):
    first = ((prop.fget.__doc__ if prop.fget else "") or "").strip().split("\n")[0]
    match = re.match(r"\((?:self|arg0): [^)]*\) -> (.+)$", first)
    return clean(match.group(1)) if match else "Any"


def render():
    lines = [HEADER]
    lines.append("class InputError(ValueError): ...\n")
    lines.append("class SolveError(RuntimeError): ...\n")
    for name in sorted(dir(module)):
        value = getattr(module, name)
        if name.startswith("_") or name in ("InputError", "SolveError") or not isinstance(value, type):
            continue
        lines.append(f"class {name}:")
        for attribute, member in sorted(vars(value).items()):
            if attribute.startswith("__") and attribute != "__init__":
                continue
            if isinstance(member, property):
                lines.append("    @property")
                lines.append(f"    def {attribute}(self) -> {property_type(member)}: ...")
            elif isinstance(member, staticmethod):
                lines.append("    @staticmethod")
                function = member.__func__
                lines.append("    " + clean(signature(attribute, function.__doc__, False)))
            elif callable(member):
                lines.append("    " + clean(signature(attribute, member.__doc__, True)))
        lines.append("")
    for name in sorted(dir(module)):
        value = getattr(module, name)
        if name.startswith("_") or isinstance(value, type) or not callable(value):
            continue
        lines.append(clean(signature(name, value.__doc__, False)))
    return "\n".join(lines).rstrip() + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed stubs")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not STUBS.exists() or STUBS.read_text() != text:
            print(f"{STUBS} differs from the compiled module: run scripts/make_python_stubs.py", file=sys.stderr)
            return 1
        print(f"{STUBS}: matches the compiled module")
        return 0
    STUBS.write_text(text)
    print(f"wrote {STUBS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
