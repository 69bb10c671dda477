"""The _core stub names what the compiled module defines (a new binding needs a stub line)."""
import ast
import pathlib

import pagesim
from pagesim import _core


def test_stub_matches_the_compiled_module():
    stub = pathlib.Path(_core.__file__).with_name("_core.pyi")
    tree = ast.parse(stub.read_text())
    declared = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    declared |= {t.id for n in tree.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    public = {n for n in dir(_core) if not n.startswith("_")}
    assert public - declared == set(), "missing from _core.pyi"
    assert declared - public == set(), "in _core.pyi but not in _core"
