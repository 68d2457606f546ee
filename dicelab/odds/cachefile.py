"""Tables cached on disk: one .npz per rules, written atomically, read defensively."""
from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np


def save_npz(path: Path, **arrays) -> None:
    """Write ``arrays`` to ``path`` so that readers see the old file or the whole new one; a
    folder that cannot be written only costs a solve next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **arrays)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def load_npz(path: Path, *names: str) -> dict[str, np.ndarray] | None:
    """The named arrays of ``path``, or None if it is missing or damaged."""
    try:
        with np.load(path, allow_pickle=False) as z:
            return {n: z[n] for n in names}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None
