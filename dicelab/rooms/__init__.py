"""Network game rooms (seed 003): shared games keyed by name, stored as seed + actions.

``RoomService`` holds the rules (who may join, start, act); a ``Store`` keeps rooms: in memory,
in SQLite (the default, durable) or in Redis (shared by several server processes). Pick one
with ``DICELAB_ROOMS`` = ``memory`` | ``sqlite:///path/rooms.db`` | ``redis://host:port/db``.
"""
from .class_model import ClassRecord, Student
from .classes import ClassService
from .backend import default_backend, default_pacer, default_service
from .model import Room, RoomSeat, player_name, room_name
from .service import Moved, RoomEvent, RoomService
from .stores import ENV, Conflict, MemoryStore, SQLiteStore, Store, open_store

__all__ = ["Room", "RoomSeat", "RoomService", "RoomEvent", "Moved", "Store", "MemoryStore",
           "SQLiteStore", "Conflict", "open_store", "room_name", "player_name", "ENV",
           "default_backend", "default_service", "default_pacer", "ClassService", "ClassRecord",
           "Student"]
