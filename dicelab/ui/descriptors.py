"""A served app and the process's file descriptors (issue 33): as many as the system allows,
and when they run out, new connections wait with one line in the log while the open pages go
on (Tornado logged a traceback per try, at every turn of the event loop)."""
from __future__ import annotations

import errno
import logging

log = logging.getLogger(__name__)


def more_file_descriptors() -> None:
    """The soft limit of open files raised to the hard one: the default 1,024 is about 300
    websockets, and past it Tornado logged every refused accept (239,683 lines)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or hard > soft):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY
                                                        else 65536, hard))
    except (ImportError, ValueError, OSError):
        pass


OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
ACCEPT_PAUSE = 0.5  # s a listening socket is not watched after an accept found no descriptor


class _OutOfFiles:
    """The process has no file descriptor for a new connection: Tornado's accept raised at
    every turn of the event loop while connections waited (the listening socket stays
    readable), a traceback each (239,683 lines) and a busy core. Instead the socket is not
    watched for ``ACCEPT_PAUSE``, one line says so, and one more when connections are
    accepted again, with how many tries found no descriptor. Pages already open go on."""

    def __init__(self) -> None:
        self.refused = 0  # accepts that found no descriptor since the last line
        self.total = 0

    def failed(self, exc: OSError) -> None:
        if not self.refused:
            # i18n: not shown (a log line)
            log.warning("out of file descriptors (%s): new connections wait until some "
                        "close; the open pages go on", exc.strerror)
        self.refused += 1
        self.total += 1

    def accepted(self) -> None:
        if self.refused:
            # i18n: not shown (a log line)
            log.warning("accepting connections again (%d tries found no file descriptor)",
                        self.refused)
            self.refused = 0


out_of_files = _OutOfFiles()


def _pausing_accepts(add_accept_handler):
    """Tornado's ``add_accept_handler``, whose handler pauses when the process is out of file
    descriptors (see ``_OutOfFiles``)."""
    def add(sock, callback):
        remove = add_accept_handler(sock, callback)
        from tornado.ioloop import IOLoop

        pause_when_out_of_files(IOLoop.current(), sock)
        return remove
    add.pauses = True  # type: ignore[attr-defined]
    return add


def pause_when_out_of_files(io_loop, sock) -> None:
    """Wrap the accept handler ``io_loop`` has for the listening socket ``sock``."""
    handlers = getattr(io_loop, "handlers", None)  # Tornado's asyncio loop: fd -> (obj, fn)
    fd = sock.fileno()
    if not isinstance(handlers, dict) or fd not in handlers:
        return
    fileobj, accept = handlers[fd]
    if getattr(accept, "pauses", False):
        return

    def resume():
        if fd in handlers and handlers[fd][1] is pausing and sock.fileno() == fd:
            io_loop.update_handler(fd, io_loop.READ)  # (a stopped server removed it)

    def pausing(obj, events):
        try:
            accept(obj, events)
        except OSError as exc:
            if exc.errno not in OUT_OF_FILES:
                raise
            out_of_files.failed(exc)
            io_loop.update_handler(fd, 0)
            io_loop.call_later(ACCEPT_PAUSE, resume)
            return
        out_of_files.accepted()
    pausing.pauses = True  # type: ignore[attr-defined]
    handlers[fd] = (fileobj, pausing)


def listening_sockets_pause() -> None:
    """The same for a server that was listening before this module was loaded (``panel serve``
    runs the app's script at its first session): once per event loop."""
    try:
        from tornado.ioloop import IOLoop

        io_loop = IOLoop.current(instance=False)
    except Exception:
        return
    handlers = getattr(io_loop, "handlers", None)
    if io_loop is None or not isinstance(handlers, dict) or id(io_loop) in _loops_done:
        return
    _loops_done.add(id(io_loop))
    for fd, (fileobj, fn) in list(handlers.items()):
        if getattr(fn, "__qualname__", "").endswith("add_accept_handler.<locals>.accept_handler"):
            pause_when_out_of_files(io_loop, fileobj)


_loops_done: set[int] = set()


def pause_accepts_when_out() -> None:
    """Every Tornado server made from now on pauses its accepts when out of descriptors."""
    from tornado import tcpserver

    if not getattr(tcpserver.add_accept_handler, "pauses", False):
        tcpserver.add_accept_handler = _pausing_accepts(tcpserver.add_accept_handler)
