"""Checks that acg's Python fixtures are real programs for the installed
frameworks: each file compiles, imports (module-level code runs: decorators,
constructors, graph building) and every call it makes into a framework
names an attribute the framework has, with arguments its signature accepts.

Input (stdin): {"root": testdata dir, "files": [relative paths],
"imports_only": [files whose body must not run here: only their imports
run, and their framework calls are checked against the signatures]}.
Output (stdout): one JSON object per file: {"file", "status": "ok" | "skip"
| "fail", "detail", "stubbed": [modules]}.

Only acg's own test data is imported here, never scanned code. Modules that
are neither a framework nor installed (vendor SDKs the fixtures name, such
as acme_crm) are replaced by permissive stubs, and the result says which:
what the check vouches for is the frameworks' side.
"""
import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import json
import os
import sys
import traceback
import types

FRAMEWORKS = {
    "langgraph", "langchain", "langchain_core", "langchain_openai", "langchain_community",
    "langchain_classic", "agents", "crewai", "crewai_tools", "mcp", "fastmcp", "deepagents",
}


def top(name):
    return name.split(".", 1)[0]


# --- stubs for modules that are neither frameworks nor installed ----------

class _StubMeta(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _stub_class(f"{cls.__name__}.{name}")

    def __getitem__(cls, _):
        return cls


def _stub_class(name):
    def __init__(self, *a, **k):
        pass

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _stub_class(f"{name}.{attr}")()

    def __call__(self, *a, **k):
        return _stub_class(f"{name}()")()

    return _StubMeta(name, (), {"__init__": __init__, "__getattr__": __getattr__, "__call__": __call__,
                                "__doc__": f"Stand-in for {name}, which is not installed."})


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _stub_class(f"{self.__name__}.{name}")


def _importer():
    """The file of the code running the import statement."""
    f = sys._getframe(1)
    while f is not None:
        fn = f.f_code.co_filename
        if not fn.startswith("<frozen") and fn != __file__:
            return fn
        f = f.f_back
    return ""


class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Last on sys.meta_path: answers for modules nothing else found, when
    a fixture imports them (a library's optional import must still fail
    as it expects), and for the submodules of stubs."""

    def __init__(self, root):
        self.root = root
        self.used = set()

    def find_spec(self, fullname, path=None, target=None):
        if top(fullname) in FRAMEWORKS:
            return None  # a framework must be real
        parent = sys.modules.get(top(fullname))
        if not isinstance(parent, _StubModule) and not _importer().startswith(self.root + os.sep):
            return None
        self.used.add(top(fullname))
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        m = _StubModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


# --- import a fixture file in its package ----------------------------------

def package_top(path):
    """The highest directory of the contiguous package chain holding path,
    or None when path's directory is not a package."""
    d = os.path.dirname(path)
    found = None
    while os.path.exists(os.path.join(d, "__init__.py")):
        found = d
        d = os.path.dirname(d)
    return found


def ident(name):
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return out if out and not out[0].isdigit() else "_" + out


def import_fixture(path):
    pkg = package_top(path)
    if pkg is None:
        sys.path.insert(0, os.path.dirname(path))
        name = os.path.splitext(os.path.basename(path))[0]
        return importlib.import_module(name)
    sys.path.insert(0, os.path.dirname(pkg))
    alias = ident(os.path.basename(pkg))
    spec = importlib.util.spec_from_file_location(alias, os.path.join(pkg, "__init__.py"),
                                                  submodule_search_locations=[pkg])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[alias] = mod
    spec.loader.exec_module(mod)
    rel = os.path.relpath(os.path.splitext(path)[0], pkg).split(os.sep)
    if rel[-1] == "__init__":
        rel = rel[:-1]
    return importlib.import_module(".".join([alias] + rel)) if rel else mod


# --- framework calls against their signatures -------------------------------

def framework_of(obj):
    if isinstance(obj, types.ModuleType):
        mod = obj.__name__
    else:
        mod = getattr(obj, "__module__", None)
        if not isinstance(mod, str) or isinstance(obj, (int, str, float, bool, list, dict, tuple)):
            mod = type(obj).__module__
    return top(mod) if isinstance(mod, str) and top(mod) in FRAMEWORKS else None


def chain(expr):
    """a.b.c as ["a", "b", "c"], or None when the callee is not a name path."""
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    return parts[::-1]


def local_names(tree):
    """Names bound inside functions (parameters, assignments): a call through
    them is not the module-level framework object of the same name."""
    out = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        a = fn.args
        for p in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
            out.add(p.arg)
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                out.add(n.id)
    return out


def check_calls(tree, module, path):
    problems = []
    shadowed = local_names(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        parts = chain(node.func)
        if not parts or parts[0] in shadowed or parts[0] not in vars(module):
            continue
        obj = vars(module)[parts[0]]
        fw = framework_of(obj)
        if fw is None:
            continue
        where = f"{os.path.basename(path)}:{node.lineno}"
        missing = False
        for i, attr in enumerate(parts[1:], 1):
            try:
                obj = getattr(obj, attr)
            except AttributeError:
                problems.append(f"{where}: {'.'.join(parts[:i])} has no attribute {attr!r} ({fw})")
                missing = True
                break
        if missing:
            continue
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            continue
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError):
            continue
        try:
            # bind_partial: required arguments may come another way
            # (CrewAI's config=...); unknown keywords and extra positionals
            # are what a wrong API looks like.
            sig.bind_partial(*[None] * len(node.args), **{k.arg: None for k in node.keywords})
        except TypeError as e:
            problems.append(f"{where}: {'.'.join(parts)}(...) rejects this call: {e}")
    return problems


def import_only_imports(path, tree):
    """A module holding what the file's top-level imports bind, for files
    whose body must not run here (it starts servers, kicks off a crew)."""
    name = "_acg_imports_of_" + ident(os.path.splitext(os.path.basename(path))[0])
    mod = types.ModuleType(name)
    mod.__file__ = path
    body = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) and not getattr(n, "level", 0)]
    code = compile(ast.Module(body=body, type_ignores=[]), path, "exec")
    sys.path.insert(0, os.path.dirname(path))
    exec(code, vars(mod))
    return mod


def check(root, rel, imports_only):
    path = os.path.join(root, rel)
    with open(path, "rb") as f:
        src = f.read()
    try:
        tree = ast.parse(src, path)
        compile(tree, path, "exec")
    except SyntaxError as e:
        return "fail", f"does not compile: {e}"
    needed = sorted({top(a.name) for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
                    | {top(n.module) for n in ast.walk(tree)
                       if isinstance(n, ast.ImportFrom) and n.module and n.level == 0})
    absent = [m for m in needed if m in FRAMEWORKS and importlib.util.find_spec(m) is None]
    if absent:
        return "skip", "needs " + ", ".join(absent)
    saved_path, saved_mods = list(sys.path), set(sys.modules)
    try:
        module = import_only_imports(path, tree) if imports_only else import_fixture(path)
        problems = check_calls(tree, module, path)
    except ModuleNotFoundError as e:
        # A framework another file of the fixture imports.
        if e.name and top(e.name) in FRAMEWORKS and importlib.util.find_spec(top(e.name)) is None:
            return "skip", "needs " + top(e.name)
        return "fail", f"import failed: {type(e).__name__}: {e}"
    except BaseException as e:  # SystemExit from a fixture is a failure too
        tb = traceback.extract_tb(e.__traceback__)
        at = next((f"{os.path.relpath(fr.filename, root)}:{fr.lineno}: " for fr in reversed(tb)
                   if fr.filename.startswith(root)), "")
        return "fail", f"import failed: {at}{type(e).__name__}: {e}"
    finally:
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_mods:
            m = sys.modules[name]
            f = getattr(m, "__file__", None) or ""
            if f.startswith(root) or isinstance(m, _StubModule) or name not in sys.modules:
                del sys.modules[name]
    if problems:
        return "fail", "; ".join(problems)
    return "ok", ""


def main():
    req = json.load(sys.stdin)
    # What fixtures print at import goes to stderr; stdout is the results.
    out, sys.stdout = sys.stdout, sys.stderr
    root = os.path.realpath(req["root"])
    finder = StubFinder(root)
    sys.meta_path.append(finder)
    imports_only = set(req.get("imports_only") or [])
    for rel in req["files"]:
        finder.used = set()
        status, detail = check(root, rel, rel in imports_only)
        print(json.dumps({"file": rel, "status": status, "detail": detail, "stubbed": sorted(finder.used)}), file=out, flush=True)


if __name__ == "__main__":
    main()
