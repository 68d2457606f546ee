"""``dicelab lessons [DIR]``: copy the teaching notebooks shipped in the package into DIR.

The notebooks live in the package (``dicelab/lessons/``), so an installed copy has them too;
a teacher copies them into a folder of their own, opens them in Jupyter and hands them out.
Files already in DIR are kept unless ``--force``.
"""
from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

from ..errors import RuleError
from ..i18n import _, n_

DEFAULT_DIR = "dicelab-lessons"


def lessons() -> list[Path]:
    """The shipped teaching notebooks, in their order."""
    folder = Path(str(resources.files("dicelab") / "lessons"))
    return sorted(folder.glob("*.ipynb"))


def copy_lessons(target: Path, force: bool = False) -> tuple[list[Path], list[Path]]:
    """Copy every lesson into ``target`` (made if missing): (copied, kept as they were)."""
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise RuleError(_("{path} is a file, not a folder", path=str(target)))
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RuleError(_("cannot make the folder {path}: {reason}", path=str(target),
                          reason=exc.strerror or str(exc))) from None
    copied, kept = [], []
    for source in lessons():
        dest = target / source.name
        if dest.exists() and not force:
            kept.append(dest)
            continue
        try:
            shutil.copyfile(source, dest)
        except OSError as exc:
            raise RuleError(_("cannot write {path}: {reason}", path=str(dest),
                              reason=exc.strerror or str(exc))) from None
        copied.append(dest)
    return copied, kept


def lessons_command(args) -> int:
    target = Path(args.dir)
    copied, kept = copy_lessons(target, force=args.force)
    for path in copied:
        print(path)
    if kept:
        print(n_("{n} notebook was already there and is kept (--force replaces it)",
                 "{n} notebooks were already there and are kept (--force replaces them)",
                 len(kept)))
    print(_("Open them with: jupyter lab {dir}", dir=str(target)))
    return 0
