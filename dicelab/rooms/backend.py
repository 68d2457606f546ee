"""This server process's room service and pacer, built once from the environment.

``DICELAB_ROOMS`` picks the store (``stores.open_store``), ``DICELAB_ROOM_PACE`` the seconds per
computer action (default 0.8) and ``DICELAB_ROOM_GRACE`` the seconds a seat may be away on turn
before a computer takes it over (default 120). The UI asks for them here, so it never builds
services itself.
"""
from __future__ import annotations

import logging
import threading

from .. import config
from .pacer import Pacer
from .service import RoomService

log = logging.getLogger(__name__)

_backend: tuple[RoomService, Pacer] | None = None
_lock = threading.Lock()


def env_float(name: str, default: float | None = None) -> float:
    """A number from the environment (``config.value``: its default, with a warning, when it
    is not one)."""
    return config.value(name)


def default_backend() -> tuple[RoomService, Pacer]:
    """This process's RoomService and its Pacer, made on first use."""
    global _backend
    with _lock:
        if _backend is None:
            service = RoomService(grace=env_float("DICELAB_ROOM_GRACE", 120.0))
            _backend = (service, Pacer(service, pace=env_float("DICELAB_ROOM_PACE", 0.8)))
        return _backend


def default_service() -> RoomService:
    """This process's RoomService (``default_backend``)."""
    return default_backend()[0]


def default_pacer() -> Pacer:
    """The Pacer that plays the computer seats of this process's rooms."""
    return default_backend()[1]
