"""The rooms and records files under every path form, across restarts, and files that cannot be
opened (read-only): opened the way the stores open them, set aside only when really damaged."""
from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from dicelab.errors import RuleError
from dicelab.rooms import RoomService
from dicelab.rooms.stores import open_store
from dicelab.sqlite_files import FileTrouble

FOLDERS = ["plain", "with#hash", "with?question", "with space", "нелатиница é", "per%20cent",
           "both#and?x=1"]

# a second process opens each store and lists its rooms (the check runs afresh there)
LIST_ROOMS = """
import json, sys
from dicelab.rooms import RoomService
out = []
for spec in json.loads(sys.argv[1]):
    service = RoomService(spec)
    out.append([sorted(r.name for r in service.list_all()), service.store.problem])
    service.close()
print(json.dumps(out))
"""


def other_process(specs: list[str], cwd: Path) -> list:
    out = subprocess.run([sys.executable, "-c", LIST_ROOMS, json.dumps(specs)], cwd=cwd,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def spec_forms(tmp_path: Path, folder: str) -> list[tuple[str, Path]]:
    """(spec, the file it names): sqlite:// + absolute path, SQLAlchemy's four slashes, and a
    path relative to the working folder."""
    file = tmp_path / folder / "rooms.db"
    return [(f"sqlite://{file}", file), (f"sqlite:///{file}", file),
            (f"sqlite://{folder}/rooms.db", file)]


def nothing_set_aside(tmp_path: Path) -> list[str]:
    return [str(p) for p in tmp_path.rglob("*") if "damaged" in p.name]


def test_rooms_survive_restarts_under_every_path_form(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    specs = []
    for folder in FOLDERS:
        for n, (spec, file) in enumerate(spec_forms(tmp_path, folder)):
            service = RoomService(spec)
            service.create(f"Room {n}", "bones", {}, "Ann")
            service.close()
            assert file.is_file(), spec
            again = RoomService(spec)  # a restart in this process
            assert f"Room {n}" in [r.name for r in again.list_all()], spec
            assert again.store.problem is None, spec
            again.close()
            specs.append(spec)
    # then each twice in fresh processes (the check runs there from nothing); the last one
    # sees every form's rooms
    final = [[["Room 0", "Room 1", "Room 2"], None]] * len(specs)
    for _ in range(2):
        assert other_process(specs, tmp_path) == final
    assert nothing_set_aside(tmp_path) == []
    # only the files and SQLite's companions, no stray files named after a part of the path
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(FOLDERS)
    for folder in FOLDERS:
        assert {p.name for p in (tmp_path / folder).iterdir()} <= {
            "rooms.db", "rooms.db-wal", "rooms.db-shm"}


READ_RECORDS = """
import json, os, sys
from dicelab.ui.records import RecordStore
out = []
for path in json.loads(sys.argv[1]):
    os.environ["DICELAB_RECORDS"] = path
    store = RecordStore()
    out.append([store.problem, store.get("bones")["game_total"]["value"]])
print(json.dumps(out))
"""


def test_records_survive_restarts_under_every_path_form(tmp_path, monkeypatch):
    from dicelab.ui.records import RecordStore

    monkeypatch.chdir(tmp_path)
    paths = []
    for n, folder in enumerate(FOLDERS):
        for path in (tmp_path / folder / "records.db", f"{folder}/records.db"):
            monkeypatch.setenv("DICELAB_RECORDS", str(path))
            RecordStore().offer("bones", "game_total", 900 + n, "Ann")
            store = RecordStore()
            assert store.problem is None and store.get("bones")["game_total"]["value"] == 900 + n
            paths.append(str(path))
    out = subprocess.run([sys.executable, "-c", READ_RECORDS, json.dumps(paths)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [
        [None, 900 + n] for n in range(len(FOLDERS)) for _ in range(2)], out.stderr
    assert nothing_set_aside(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(FOLDERS)


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "1m"):
    """A small tmpfs mounted at ``where`` (root only); unmounted after."""
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def read_only(where: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)


def test_a_rooms_file_on_a_read_only_file_system_is_a_clear_error_and_stays(tmp_path):
    with tmpfs(tmp_path / "ro") as mnt:
        file = mnt / "rooms.db"
        service = RoomService(f"sqlite://{file}")
        service.create("Kept", "bones", {}, "Ann")
        service.close()
        before = sorted(p.name for p in mnt.iterdir())
        read_only(mnt)
        with pytest.raises(FileTrouble) as caught:
            open_store(f"sqlite://{file}")
        said = str(caught.value)
        assert str(file) in said and "Read-only file system" in said and "damaged" not in said
        assert sorted(p.name for p in mnt.iterdir()) == before  # never moved


def test_a_records_file_on_a_read_only_file_system_is_said_and_stays(tmp_path):
    from dicelab.ui.records import RecordStore

    with tmpfs(tmp_path / "ro") as mnt:
        file = mnt / "records.db"
        RecordStore(file).offer("bones", "game_total", 700, "Ann")
        read_only(mnt)
        store = RecordStore(file)
        assert str(file) in str(store.problem) and "Read-only" in str(store.problem)
        assert not store.offer("bones", "game_total", 800, "Bob")  # refused, no traceback
        assert [p.name for p in mnt.iterdir()] == ["records.db"]


def test_a_folder_that_cannot_be_made_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(FileTrouble, match=str(blocker / "rooms.db").replace("/", ".")):
        open_store(f"sqlite://{blocker / 'rooms.db'}")
    assert blocker.read_text() == "x"


def test_file_trouble_is_a_rule_error_in_each_language(tmp_path):
    from dicelab import i18n

    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(RuleError) as caught:
        open_store(f"sqlite://{blocker / 'rooms.db'}")
    with i18n.using("fr"):
        assert str(caught.value).startswith("Le fichier des salles")
    with i18n.using("ru"):
        assert "нельзя" in str(caught.value)
