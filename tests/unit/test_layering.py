"""Layering of ``src/userlore``: docs/architecture.md's "may touch" column as import rules.

Parsed from the source with :mod:`ast` (nothing is imported), three rules hold:

(a) no module imports a module of a higher layer;
(b) no import cycle between modules (Tarjan's strongly connected components);
(c) no module uses another package's underscore name, neither ``from x import _y`` nor
    ``x._y`` on an imported module, nor ``obj._y`` where ``_y`` is defined only in other packages
    (the ``store._trace(...)`` form).

Every import counts: top level, function-local and inside ``if TYPE_CHECKING:``. A type-only
import is still a dependency on the other module's shape (issue 16 names ``reviewer`` and the
tools *taking a* ``Userlore`` as the fault), and a lazy import only hides a cycle from the
interpreter, not from the reader (``learning/cache`` ↔ ``profile_md`` was one).

``KNOWN_VIOLATIONS`` is empty: the tree has none. A listed violation that no longer occurs fails
the test too, so the list cannot go stale if one is ever tolerated for a while.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

# Lowest first. A module may import its own layer and any lower one. Longest prefix wins.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "userlore.errors",
        "userlore.models",
        "userlore.config",
        "userlore.validation",
        "userlore._lazy",  # the packages' lazy exports (tidy15): imports nothing of userlore
    ),
    ("userlore.policy",),
    ("userlore.extract",),
    ("userlore.embeddings",),
    ("userlore.store",),
    ("userlore.planner",),
    ("userlore.learning",),
    # The one write path: turns, statements and candidates become records only through it.
    ("userlore.understanding",),
    # Producers and services above the write path: they hand candidates to it.
    (
        "userlore.extract.reviewer",
        "userlore.learning.producers.reviewer",
        "userlore.learning.producers.signature",
        "userlore.sources",
        "userlore.feedback",
        "userlore.memory",
        "userlore.events",
        "userlore.embeddings.reindex",
    ),
    # The facade's namespaces (lore.records, lore.memory, ...): what the composition root wires.
    ("userlore.api",),
    ("userlore.facade",),
    (
        "userlore.graph",
        "userlore.integrations",
        "userlore.work",
        "userlore.server",
        "userlore.mcp",
        "userlore.web",
        "userlore.cli",
        "userlore.demo",
        "userlore.testing",
        "userlore",
    ),
)

# Deprecated import paths kept for one release: each re-exports a moved module from its new,
# higher home, which is exactly an upward import. They are exempt from rules (a) and (b).
SHIMS = frozenset({"userlore.store.langgraph_store", "userlore.learning.tools"})


@dataclass(frozen=True, order=True)
class Violation:
    """One broken rule: ``kind`` is ``upward``, ``cycle`` or ``private``."""

    kind: str
    module: str
    target: str


# (kind, importing module, imported module or "package:name") -> why it is tolerated for now.
# Empty since issue 16 landed: keep it empty; a new entry needs a reason and an issue.
KNOWN_VIOLATIONS: dict[tuple[str, str, str], str] = {}


# -- the checker -------------------------------------------------------------------------------


def module_name(path: Path, root: Path) -> str:
    """Dotted module name of ``path`` under the source ``root``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def parse_tree(root: Path, package: str) -> dict[str, ast.Module]:
    """Every module of ``package`` under ``root``, parsed."""
    base = root / package.replace(".", "/")
    return {
        module_name(path, root): ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(base.rglob("*.py"))
    }


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    base = ".".join(parts[:keep])
    return f"{base}.{node.module}" if node.module else base


@dataclass(frozen=True)
class Import:
    """``target`` imported by a module; ``names`` bound by a ``from`` import."""

    target: str
    names: tuple[str, ...]
    bound: str | None  # local name bound to the module object itself


def imports_of(
    module: str, tree: ast.Module, known: Iterable[str], is_package: bool
) -> list[Import]:
    """Every import in ``tree`` (any depth) of a module in ``known``, resolved to its module."""
    modules = set(known)
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    bound = alias.asname or (alias.name if "." not in alias.name else None)
                    found.append(Import(alias.name, (), bound))
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, is_package, node)
            if source not in modules:
                continue
            plain: list[str] = []
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in modules:  # ``from userlore.store import governed``
                    found.append(Import(sub, (), alias.asname or alias.name))
                else:
                    plain.append(alias.name)
            if plain:
                found.append(Import(source, tuple(plain), None))
    return found


def layer_of(module: str, layers: tuple[tuple[str, ...], ...]) -> int:
    """Index of the layer ``module`` belongs to (longest matching prefix)."""
    best, best_len = -1, -1
    for index, prefixes in enumerate(layers):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    if best < 0:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS")
    return best


def package_of(module: str) -> str:
    """The unit that owns private names: ``a.b`` for ``a.b.c``; a top-level module owns its own."""
    return ".".join(module.split(".")[:2])


def strongly_connected(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative): components with more than one node, or a self-loop."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(sorted(component))
    return found


def _private_definitions(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def check(
    root: Path,
    package: str,
    layers: tuple[tuple[str, ...], ...],
    shims: frozenset[str] = frozenset(),
) -> list[Violation]:
    """All layering, cycle and private-name violations of ``package`` under ``root``."""
    trees = parse_tree(root, package)
    packages = {name for name, tree in trees.items() if _is_package(root, name)}
    imports = {
        name: imports_of(name, tree, trees, name in packages) for name, tree in trees.items()
    }
    violations: set[Violation] = set()

    graph: dict[str, set[str]] = {name: set() for name in trees}
    for name, found in imports.items():
        for imp in found:
            if imp.target == name or name in shims:
                continue
            # A package's __init__ importing its own submodules is how packages work.
            if imp.target.startswith(name + ".") and name in packages:
                continue
            graph[name].add(imp.target)
            if layer_of(imp.target, layers) > layer_of(name, layers):
                violations.add(Violation("upward", name, imp.target))
    for component in strongly_connected(graph):
        for member in component:
            for target in sorted(graph[member] & set(component)):
                violations.add(Violation("cycle", member, target))

    defined: dict[str, set[str]] = {}
    for name, tree in trees.items():
        defined.setdefault(package_of(name), set()).update(_private_definitions(tree))
    everywhere = set().union(*defined.values())
    elsewhere_of = {
        own: {n for n in everywhere if any(n in d for p, d in defined.items() if p != own)} - names
        for own, names in defined.items()
    }
    for name, found in imports.items():
        own = package_of(name)
        for imp in found:
            if package_of(imp.target) == own:
                continue
            for private in (n for n in imp.names if n.startswith("_") and not n.startswith("__")):
                violations.add(Violation("private", name, f"{imp.target}:{private}"))
        bound = {imp.bound: imp.target for imp in found if imp.bound}
        elsewhere = elsewhere_of.get(own, set())
        for node in ast.walk(trees[name]):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            if node.attr.startswith("__"):
                continue
            receiver = node.value
            if isinstance(receiver, ast.Name) and receiver.id in bound:
                target = bound[receiver.id]
                if package_of(target) != own:
                    violations.add(Violation("private", name, f"{target}:{node.attr}"))
            elif node.attr in elsewhere and not (
                isinstance(receiver, ast.Name) and receiver.id in {"self", "cls"}
            ):
                owners = sorted(p for p, d in defined.items() if p != own and node.attr in d)
                violations.add(Violation("private", name, f"{'|'.join(owners)}:{node.attr}"))
    return sorted(violations)


def _is_package(root: Path, module: str) -> bool:
    return (root / module.replace(".", "/") / "__init__.py").is_file()


def _key(violation: Violation) -> tuple[str, str, str]:
    return (violation.kind, violation.module, violation.target)


# -- the rules applied to userlore ----------------------------------------------------------------


def test_every_module_is_in_a_layer() -> None:
    for name in parse_tree(SRC, "userlore"):
        layer_of(name, LAYERS)  # raises for an unplaced module


@pytest.fixture(scope="module")
def found() -> set[tuple[str, str, str]]:
    return {_key(v) for v in check(SRC, "userlore", LAYERS, SHIMS)}


def test_no_new_layering_violation(found: set[tuple[str, str, str]]) -> None:
    new = sorted(found - KNOWN_VIOLATIONS.keys())
    assert not new, "new layering violations (fix them; do not extend KNOWN_VIOLATIONS):\n" + (
        "\n".join(f"  {kind}: {module} -> {target}" for kind, module, target in new)
    )


def test_known_violations_are_still_real(found: set[tuple[str, str, str]]) -> None:
    gone = sorted(KNOWN_VIOLATIONS.keys() - found)
    assert not gone, "fixed: remove these from KNOWN_VIOLATIONS:\n" + "\n".join(
        f"  {kind}: {module} -> {target}" for kind, module, target in gone
    )


def test_moved_integrations_keep_their_old_import_paths() -> None:
    from userlore.integrations import facet_tools, langgraph_store
    from userlore.learning import tools
    from userlore.store import langgraph_store as old_store

    assert old_store.UserloreStore is langgraph_store.UserloreStore
    assert tools.make_facet_tools is facet_tools.make_facet_tools


# -- the checker itself fails on what it must refuse ------------------------------------------

TOY_LAYERS: tuple[tuple[str, ...], ...] = (("toy.base",), ("toy.mid",), ("toy.top", "toy"))


def _write(root: Path, files: Mapping[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    _write(
        tmp_path,
        {
            "toy/__init__.py": "",
            "toy/base.py": "X = 1\n_HIDDEN = 2\n",
            "toy/mid/__init__.py": "",
            "toy/mid/a.py": "from toy.base import X\n",
            "toy/top.py": "from toy.mid.a import X\n",
        },
    )
    return tmp_path


def test_checker_accepts_a_clean_tree(toy: Path) -> None:
    assert check(toy, "toy", TOY_LAYERS) == []


def test_checker_refuses_an_upward_import(toy: Path) -> None:
    _write(toy, {"toy/base.py": "from toy.top import X\n"})
    found = check(toy, "toy", TOY_LAYERS)
    assert Violation("upward", "toy.base", "toy.top") in found


def test_checker_counts_type_checking_and_local_imports(toy: Path) -> None:
    _write(
        toy,
        {
            "toy/base.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from toy.mid import a\n"
                "def f():\n    import toy.top\n"
            )
        },
    )
    found = {(v.kind, v.module, v.target) for v in check(toy, "toy", TOY_LAYERS)}
    assert ("upward", "toy.base", "toy.mid.a") in found
    assert ("upward", "toy.base", "toy.top") in found


def test_checker_refuses_a_cycle_within_a_layer(toy: Path) -> None:
    _write(
        toy,
        {
            "toy/mid/a.py": "from toy.mid.b import Y\nX = 1\n",
            "toy/mid/b.py": "def f():\n    from toy.mid.a import X\nY = 2\n",
        },
    )
    found = check(toy, "toy", TOY_LAYERS)
    assert Violation("cycle", "toy.mid.a", "toy.mid.b") in found
    assert Violation("cycle", "toy.mid.b", "toy.mid.a") in found
    assert all(v.kind == "cycle" for v in found)


def test_checker_refuses_another_packages_private_name(toy: Path) -> None:
    _write(
        toy,
        {
            "toy/mid/a.py": "from toy.base import _HIDDEN\n",
            "toy/mid/b.py": "import toy.base as b\nY = b._HIDDEN\n",
            "toy/mid/c.py": "def f(store):\n    return store._HIDDEN\n",
        },
    )
    found = check(toy, "toy", TOY_LAYERS)
    assert Violation("private", "toy.mid.a", "toy.base:_HIDDEN") in found
    assert Violation("private", "toy.mid.b", "toy.base:_HIDDEN") in found
    assert Violation("private", "toy.mid.c", "toy.base:_HIDDEN") in found


def test_checker_allows_private_names_within_a_package(toy: Path) -> None:
    _write(
        toy,
        {
            "toy/mid/a.py": "_OWN = 1\n",
            "toy/mid/b.py": "from toy.mid.a import _OWN\n",
        },
    )
    assert check(toy, "toy", TOY_LAYERS) == []


def test_known_violations_do_not_hide_a_new_one(toy: Path) -> None:
    _write(toy, {"toy/base.py": "from toy.top import X\n"})
    known = {("upward", "toy.mid.a", "toy.top")}
    new = {_key(v) for v in check(toy, "toy", TOY_LAYERS)} - known
    assert ("upward", "toy.base", "toy.top") in new
