"""A write that fails (a genuinely full disk, Redis stopped) is shown to the player, changes
nothing, keeps every page in step with the store, and is one line in the log per kind of failure
(no traceback per press); play resumes when the store works again."""
from __future__ import annotations

import errno
import logging
import os

import pytest

from dicelab import i18n
from dicelab.rooms import RoomService
from dicelab.rooms.service import Unavailable
from dicelab.ui.room_play import RoomPlay

from .test_rooms import RedisServer, need_redis
from .test_sqlite_paths import tmpfs


def fill(folder) -> "os.PathLike":
    """Fill the file system of ``folder`` to the last byte; returns the filler file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 512, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def failing_press(service, name, page, other, caplog, words: str):
    """Presses during the failure: each is shown on the page, nothing is stored, one log line."""
    before = len(service.log(name)) if words != "reach" else None
    for _ in range(4):
        assert not page.roll(page.mark())
        assert "Not saved" in page.message and words in page.message
    with pytest.raises(Unavailable) as caught:
        service.act(name, page.token, page.roll_action())
    with i18n.using("fr"):
        assert "Non enregistré" in str(caught.value)
    with i18n.using("ru"):
        assert "Не сохранено" in str(caught.value)
    failures = [r for r in caplog.records if "rooms store failed" in r.getMessage()]
    assert len(failures) == 1 and failures[0].exc_info is None  # one line, no traceback
    assert not [r for r in caplog.records if r.exc_info]
    if before is not None:
        assert len(service.log(name)) == before
    assert len(page.game.actions) == len(other.game.actions)  # every page in step


def test_a_full_disk_is_shown_and_play_resumes_when_space_returns(tmp_path, caplog):
    with tmpfs(tmp_path / "small", size="2m") as mnt:
        service = RoomService(f"sqlite://{mnt / 'rooms.db'}")
        room, ann = service.create("Full", "yahtzee", {}, "Ann")
        service.start("Full", ann)
        page = RoomPlay(service, service.room("Full"), ann)
        spectator = RoomPlay(service, service.room("Full"), None)
        assert page.roll(page.mark())
        spectator.sync()  # (a served page hears of it through the service's news)
        filler = fill(mnt)
        with caplog.at_level(logging.WARNING):
            failing_press(service, "Full", page, spectator, caplog, "disk is full")
            os.remove(filler)  # space returns
            assert page.roll(page.mark()), page.message
        assert page.message == "" and len(service.log("Full")) == 2
        spectator.sync()
        assert len(spectator.game.actions) == 2
        assert "works again" in caplog.text
        service.close()


def test_redis_stopped_is_shown_and_play_resumes_when_it_is_back(tmp_path, caplog):
    need_redis()
    server = RedisServer(tmp_path).start()
    try:
        service = RoomService(server.url)
        room, ann = service.create("Down", "yahtzee", {}, "Ann")
        service.start("Down", ann)
        page = RoomPlay(service, service.room("Down"), ann)
        other = RoomPlay(service, service.room("Down"), None)
        assert page.roll(page.mark())
        other.sync()
        server.stop()
        with caplog.at_level(logging.WARNING, logger="dicelab.rooms.service"):
            failing_press(service, "Down", page, other, caplog, "reach")
            server.start()  # the same port and data (AOF)
            assert page.roll(page.mark()), page.message
        assert len(service.log("Down")) == 2
        service.close()
    finally:
        server.stop()
