"""Installing a fake third-party distribution for a test: a real ``*.dist-info`` on ``sys.path``.

``install(dist, entries, modules)`` writes the distribution's modules and its
metadata (``METADATA`` and ``entry_points.txt``, as pip would) into a temporary
directory, puts it on ``sys.path`` and makes the registry read installed entry
points again. Nothing in hiddenrole is edited or mocked: the registry finds the
game exactly as it would find a package installed with pip. Teardown takes the
directory off ``sys.path``, forgets the modules and refreshes the registry again.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from hiddenrole.gamedef import registry

Install = Callable[[str, Mapping[str, str], Mapping[str, str]], Path]


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    written: list[str] = []

    def _install(dist: str, entries: Mapping[str, str], modules: Mapping[str, str]) -> Path:
        root = tmp_path / dist
        root.mkdir()
        for module, source in modules.items():
            (root / f"{module}.py").write_text(source, encoding="utf-8")
            written.append(module)
        info = root / f"{dist.replace('-', '_')}-0.1.dist-info"  # as wheels name it (the stem's name is escaped)
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n", encoding="utf-8")
        lines = [f"{name} = {value}" for name, value in entries.items()]
        (info / "entry_points.txt").write_text("[hiddenrole.games]\n" + "\n".join(lines) + "\n", encoding="utf-8")
        monkeypatch.syspath_prepend(str(root))
        importlib.invalidate_caches()
        registry.refresh()
        return root

    yield _install
    monkeypatch.undo()
    for module in written:
        sys.modules.pop(module, None)
    importlib.invalidate_caches()
    registry.refresh()
