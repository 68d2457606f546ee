"""Rooms in Redis, shared by several server processes or hosts.

Keys (``prefix`` "dicelab"): ``dicelab:room:<key>`` the room record (JSON), ``dicelab:log:<key>``
its actions (a list of JSON texts), ``dicelab:rooms`` a sorted set of room keys by creation time,
and one such set per lobby status (``dicelab:rooms:open``, ``:play``, ``:old`` for the history),
so that a lobby's page reads its own rooms only, however long the history grows.
Every change is published on ``dicelab:events`` so the other processes can tell their browsers.

Appending is one Lua script (atomic in Redis): it pushes action N only if the log holds exactly N
actions, and publishes in the same step. Durability is the server's: run redis-server with
``--appendonly yes --appendfsync always`` so an acknowledged action survives a kill -9 of Redis.
"""
from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable

from ..errors import RuleError
from ..i18n import L_
from .class_model import ClassRecord
from .model import Room, readable_rooms
from .store_api import (Conflict, Store, class_news, missing, name_taken, no_class,
                        read_actions, readable_classes)

log = logging.getLogger(__name__)

_CREATE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[3])
  redis.call('PUBLISH', KEYS[3], ARGV[4])
  return 1
end
return 0
"""  # i18n: not shown (a Lua script)

STATUSES = ("open", "play", "old")


def _status(room: Room) -> str:
    return "old" if room.archived else "play" if room.started else "open"


_APPEND = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
local n = redis.call('LLEN', KEYS[2])
if n ~= tonumber(ARGV[1]) then return -1 end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('PUBLISH', KEYS[3], ARGV[3])
return n + 1
"""  # i18n: not shown (a Lua script)


class RedisStore(Store):
    def __init__(self, url: str = "redis://localhost:6379/0", prefix: str = "dicelab"):
        try:
            import redis
        except ImportError:
            raise RuleError(L_("a redis:// rooms store needs the redis package: "
                               "pip install redis")) from None
        self._redis = redis
        self.url = url
        self.prefix = prefix
        self.origin = uuid.uuid4().hex  # to skip our own messages coming back
        self._r = redis.Redis.from_url(url, decode_responses=True, health_check_interval=30)
        self._create = self._r.register_script(_CREATE)
        self._append = self._r.register_script(_APPEND)
        self._channel = f"{prefix}:events"
        self._callbacks: list[Callable] = []
        self._thread = None
        self._warned = -1e9
        self._warn_if_not_durable()
        self._index()

    def _warn_if_not_durable(self):
        try:
            fsync = self._r.config_get("appendfsync").get("appendfsync")
            aof = self._r.config_get("appendonly").get("appendonly")
        except self._redis.ResponseError:  # CONFIG disabled (managed Redis): cannot tell
            return
        if aof != "yes" or fsync != "always":
            log.warning("redis at %s runs appendonly=%s appendfsync=%s: an acknowledged action "
                        "may be lost if Redis is killed (use appendonly yes, appendfsync always)",
                        self.url, aof, fsync)

    def _index(self):
        """Rooms stored before the status sets existed are filed into them once."""
        marker = f"{self.prefix}:rooms:indexed"
        if self._r.exists(marker):
            return
        keys = self._r.zrange(f"{self.prefix}:rooms", 0, -1, withscores=True)
        pipe = self._r.pipeline()
        for (key, created), text in zip(keys, self._r.mget([self._room(k) for k, _ in keys])
                                        if keys else []):
            if text is None:
                continue
            try:
                status = _status(Room.from_json(text))
            except (RuleError, ValueError, TypeError, KeyError):
                status = "open"  # unreadable: reported (and skipped) when a page reads it
            pipe.zadd(self._set(status), {key: created})
        pipe.set(marker, 1)
        pipe.execute()

    def _set(self, status):
        return f"{self.prefix}:rooms:{status}"

    def _room(self, key):
        return f"{self.prefix}:room:{key}"

    def _log(self, key):
        return f"{self.prefix}:log:{key}"

    def _message(self, key, kind):
        return json.dumps({"origin": self.origin, "key": key, "kind": kind})

    # ----- records ---------------------------------------------------------------------------
    def create(self, room):
        room = room.copy()
        room.rev = 1
        done = self._create(keys=[self._room(room.key), f"{self.prefix}:rooms", self._channel,
                                  self._set(_status(room))],
                            args=[room.to_json(), room.created, room.key,
                                  self._message(room.key, "room")])
        if not done:
            raise name_taken(room)
        return room

    def get(self, key):
        text = self._r.get(self._room(key))
        return None if text is None else Room.from_json(text)

    def update(self, key, change):
        name = self._room(key)

        def attempt(pipe):  # WATCH name; redis-py runs this again if another writer got in
            text = pipe.get(name)
            if text is None:
                raise missing(key)
            room = Room.from_json(text)
            result = change(room)
            room.rev += 1
            pipe.multi()
            pipe.set(name, room.to_json())
            status = _status(room)
            for other in STATUSES:
                if other != status:
                    pipe.zrem(self._set(other), key)
            pipe.zadd(self._set(status), {key: room.created})
            pipe.publish(self._channel, self._message(key, "room"))
            return room, result

        return self._r.transaction(attempt, name, value_from_callable=True)

    def delete(self, key):
        pipe = self._r.pipeline()
        pipe.delete(self._room(key), self._log(key))
        pipe.zrem(f"{self.prefix}:rooms", key)
        for status in STATUSES:
            pipe.zrem(self._set(status), key)
        pipe.publish(self._channel, self._message(key, "deleted"))
        pipe.execute()

    def _read(self, status, limit=None):
        keys = self._r.zrange(self._set(status), 0, -1 if limit is None else limit - 1)
        texts = self._r.mget([self._room(k) for k in keys]) if keys else []
        return readable_rooms([(k, t) for k, t in zip(keys, texts) if t is not None],
                              self.damaged)

    def rooms(self, open_only=True):
        rooms = self._read("open") + ([] if open_only else self._read("play"))
        # each set is filed by the room's last change: a record changed since says best
        return sorted((r for r in rooms if not (open_only and r.started) and not r.archived),
                      key=lambda r: r.created)

    def history(self):
        return [r for r in self._read("old") if r.archived]

    def counts(self, client):
        rooms = self.rooms(open_only=False)  # the lobby only, never the history
        return len(rooms), sum(r.client == client for r in rooms)

    def page(self, started, limit):
        status = "play" if started else "open"
        rooms = [r for r in self._read(status, limit) if r.started == started and not r.archived]
        return rooms, self._r.zcard(self._set(status))

    # ----- the action log --------------------------------------------------------------------
    def actions(self, key, start=0):
        return read_actions(key, start, self._r.lrange(self._log(key), start, -1))

    def append(self, key, index, action):
        n = self._append(keys=[self._room(key), self._log(key), self._channel],
                         args=[index, json.dumps(action), self._message(key, "action")])
        if n == -2:
            raise missing(key)
        if n == -1:
            raise Conflict(f"{key}: the log has moved past {index} actions")  # i18n: not shown

    # ----- classes: ``<prefix>:class:<code>`` records, ``<prefix>:classes`` by creation ---------
    def _class(self, code):
        return f"{self.prefix}:class:{code}"

    def create_class(self, record):
        record = record.copy()
        record.rev = 1
        done = self._create(keys=[self._class(record.code), f"{self.prefix}:classes",
                                  self._channel, f"{self.prefix}:classes"],
                            args=[record.to_json(), record.created, record.code,
                                  self._message(class_news(record.code), "room")])
        if not done:
            raise Conflict(record.code)
        return record

    def get_class(self, code):
        text = self._r.get(self._class(code))
        return None if text is None else ClassRecord.from_json(text)

    def update_class(self, code, change):
        name = self._class(code)

        def attempt(pipe):
            text = pipe.get(name)
            if text is None:
                raise no_class(code)
            record = ClassRecord.from_json(text)
            result = change(record)
            record.rev += 1
            pipe.multi()
            pipe.set(name, record.to_json())
            pipe.publish(self._channel, self._message(class_news(code), "room"))
            return record, result

        return self._r.transaction(attempt, name, value_from_callable=True)

    def classes(self):
        codes = self._r.zrange(f"{self.prefix}:classes", 0, -1)
        texts = self._r.mget([self._class(c) for c in codes]) if codes else []
        return readable_classes([(c, t) for c, t in zip(codes, texts) if t is not None],
                                self.damaged)

    # ----- news from other processes -----------------------------------------------------------
    def on_remote(self, callback):
        self._callbacks.append(callback)
        if self._thread is None:
            pubsub = self._r.pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(**{self._channel: self._on_message})
            self._thread = pubsub.run_in_thread(sleep_time=0.25, daemon=True,
                                                exception_handler=self._on_error)

    def _on_message(self, message):
        try:
            data = json.loads(message["data"])
            if data["origin"] == self.origin:
                return
            key, kind = data["key"], data["kind"]
        except (ValueError, KeyError, TypeError):
            log.warning("ignoring a malformed message on %s", self._channel)
            return
        for callback in list(self._callbacks):
            callback(key, kind)

    def _on_error(self, exc, pubsub, thread):
        # Redis restarting or the network dropping: wait a little; the next read reconnects and
        # re-subscribes. Changes published meanwhile are missed, but every read goes to Redis
        # anyway, so a browser is only late until the next change or its next look.
        if time.monotonic() - self._warned > 60:  # once a minute is enough in a log
            self._warned = time.monotonic()
            log.warning("rooms pub/sub: %s; reconnecting", exc)
        time.sleep(1.0)

    def close(self):
        if self._thread is not None:
            self._thread.stop()
            self._thread.join(timeout=5)
            self._thread = None
        self._r.close()
