"""`scorekeeper upgrade` brings the database up to date; `scorekeeper serve` does that too and
then serves the app with waitress."""

from __future__ import annotations

import contextlib
import gc
import io
import select
import socket
import threading
from collections.abc import Callable
from typing import Any, TypedDict
from urllib.parse import urlsplit

import segno
import waitress
from flask import Flask
from flask_migrate import upgrade as run_migrations
from waitress import trigger, wasyncore
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server

from . import create_app
from .http import stream
from .services.figures import refresh_stale
from .services.outcomes import refresh_outcomes


# How waitress holds its ground, from a family's table to a club night of 100 tables:
# - A club night is 100 tables of five phones, each phone keeping a connection open to poll its
#   game: 500 connections. The limit, 750, leaves half again for the extra connections a phone
#   opens while it loads a page's stylesheet and script. Beyond the limit waitress stops
#   accepting, and new phones wait in the listen queue: at 400, a club night's 500 phones queued.
# - An idle or half-open connection costs no thread (it waits in waitress's event loop), only a
#   file descriptor and a few kilobytes. So a higher limit costs little, and 750 stays under the
#   1,024 descriptors a process commonly may open, with room for the database's files.
# - The trade-off against idle connections: every connection counts against the limit until it
#   is closed, and an idle one is closed only after `channel_timeout` seconds without a byte,
#   checked every `cleanup_interval`. A low limit lets phones that left, or a flaky Wi-Fi's
#   half-open connections, fill it and queue everyone else; a high one takes more of them to
#   fill, each holding a descriptor meanwhile. Past the limit, a flood of silent connections
#   locks others out for at most ~25 s (waitress's defaults: 120 s); a phone sends a hand's form
#   in far less than 20 s. A client that sends a byte every few seconds is never dropped: 750 of
#   those lock everyone out for as long as they last, whatever the limit. So a club's server
#   sits behind a reverse proxy, which holds slow clients off the app (README, "Run it").
# - Threads run requests. SQLite writes one at a time anyway; several threads let pages be
#   read while a hand is saved, and a slow page does not hold up the table.
# - An event stream (a following page's push) holds a thread for as long as it is open, so `serve`
#   gives waitress a thread per stream it may hold (`STREAMS`, 400 unless set) on top of the
#   eight for pages: streams never take the threads that answer a save. A stream over the cap
#   is answered at once (204) and that page polls. An idle stream's thread waits on a condition
#   and costs no CPU.
# - A stream whose phone left gives its thread back at its next wake (a heartbeat, 15 s, at the
#   latest): waitress reads a connection while its request runs only with a request of lookahead
#   (`channel_request_lookahead`), and so learns that the phone closed it and says so
#   (http/stream.py asks). Without it waitress learns only from a failed write, which came two
#   or three heartbeats later (a slot back 21-44 s after its phone went). A pipelined request
#   read ahead waits its turn as before.
# - epoll or poll() rather than select(): select() cannot watch a descriptor numbered above 1023
#   (serve's loop, `Turns`, below).
# - No `Server: waitress` header (an empty `ident`): naming the server and its software only helps
#   someone looking for a known hole in it.
class WaitressSettings(TypedDict, total=False):
    threads: int
    connection_limit: int
    backlog: int
    channel_timeout: int
    cleanup_interval: int
    asyncore_use_poll: bool
    channel_request_lookahead: int
    ident: str
    clear_untrusted_proxy_headers: bool


PHONES_AT_A_CLUB_NIGHT = 100 * 5
"""100 tables of five phones, each with a connection open: what the connection limit serves."""
PAGE_THREADS = 8
"""The threads that answer pages and saves, whatever the streams hold."""
SERVED_STREAMS = 400
"""The streams `scorekeeper serve` holds unless `SCOREKEEPER_STREAMS` says: four phones of
each of 100 tables (the fifth polls), within the connection limit."""

WAITRESS: WaitressSettings = {
    "threads": PAGE_THREADS,
    "connection_limit": 750,
    "channel_timeout": 20,
    "cleanup_interval": 5,
    "asyncore_use_poll": True,
    "channel_request_lookahead": 1,
    "ident": "",
}


def waitress_settings(app: Flask) -> WaitressSettings:
    """What `scorekeeper serve` gives waitress for the app: WAITRESS with a thread and three
    connections for each stream the app may hold (the stream's, its phone's page's and a share
    of its table's other phones'; `STREAMS`, else SERVED_STREAMS; the app's cap is set here, so
    that the two agree), and behind a proxy (`SCOREKEEPER_PROXY_FIX`) the proxy's headers left
    in.

    Waitress takes X-Forwarded-For and X-Forwarded-Proto out of every request from a peer it
    was not told to trust (`clear_untrusted_proxy_headers`, on by default since waitress 3), so
    ProxyFix would never see them: every phone would have the proxy's address (one phone's
    wrong PINs making every other wait) and http links behind an https proxy. They are left in,
    and ProxyFix reads them as it does under gunicorn, trusting exactly as many proxies as the
    setting says: one place decides, whatever the server."""
    streams = SERVED_STREAMS if app.config["STREAMS"] is None else int(app.config["STREAMS"])
    stream.allow(app, streams)
    settings = WaitressSettings(**WAITRESS)
    settings["threads"] = PAGE_THREADS + streams
    # A phone that holds a stream holds its page's connection too, and a table's phones that
    # hold none (its poller, its recorder) one each: a table of five is 8 connections for its
    # three streams, under 3 a stream (2 left a club of 500 tables 250 short). Past the limit
    # phones wait in the listen queue until a connection closes (an idle one after
    # `channel_timeout`). An idle connection costs a descriptor and a few kilobytes, no CPU.
    settings["connection_limit"] = WAITRESS["connection_limit"] + 3 * streams
    # And the listen queue as long (the kernel may cap it: Linux's somaxconn, 4,096 of late):
    # every phone of a club coming back at once (the server restarted) waits in it to be
    # accepted, where waitress's 1,024 dropped the rest, each phone trying again 1, 3, 7, 15 and
    # 31 s later (500 tables, their 4,000 connections opened within 2 s: a streaming follower's
    # news 40 s late at p99).
    settings["backlog"] = settings["connection_limit"]
    if app.config["PROXY_FIX"]:
        settings["clear_untrusted_proxy_headers"] = False
    return settings


def _routed_address() -> str | None:
    """The address this machine uses on its network (the host name often maps to loopback).

    Connecting a UDP socket sends nothing: it only asks the system which address a packet to
    that network would leave from.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return None


def addresses(host: str, port: int) -> list[str]:
    """Where phones can open the app: this machine's addresses when serving on all of them."""
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{host}:{port}/"]
    found = {"127.0.0.1"}
    route = _routed_address()
    if route:
        found.add(route)
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    return [f"http://{ip}:{port}/" for ip in sorted(found, key=lambda ip: ip.startswith("127."))]


def first_phone_qr(found: list[str]) -> str:
    """A QR code of the address phones can reach, for the first phone to scan off the screen
    (none when only this machine can reach the app)."""
    reachable = [a for a in found if "//127." not in a and "//localhost" not in a]
    if not reachable:
        return ""
    drawn = io.StringIO()
    segno.make(reachable[0], error="m").terminal(out=drawn, compact=True)
    return f"Or scan this with the first phone ({reachable[0]}):\n{drawn.getvalue()}"


def trusted_hosts(printed: list[str]) -> list[str]:
    """The hosts `scorekeeper serve` answers to: those of the addresses it prints, and this
    machine's own names for itself."""
    hosts = [urlsplit(address).hostname for address in printed]
    return list(dict.fromkeys([*(host for host in hosts if host), "localhost", "127.0.0.1"]))


def upgrade(app: Flask) -> int:
    """Run the migrations, then store the figures of games that an upgrade left without them;
    the number of games refreshed."""
    with app.app_context():
        run_migrations()
        refreshed = refresh_stale()
        refresh_outcomes()
        return refreshed


def serve(host: str | None = None, port: int | None = None) -> int:
    """Upgrade the database and serve the app; host and port default to the settings'."""
    app = create_app()
    upgrade(app)
    listen: tuple[str, int] = (
        app.config["HOST"] if host is None else host,
        app.config["PORT"] if port is None else port,
    )
    printed = addresses(*listen)
    if app.config["TRUSTED_HOSTS"] is None:
        app.config["TRUSTED_HOSTS"] = trusted_hosts(printed)
    print("Samba Scorekeeper is running. Open it on a phone on the same network:")
    for address in printed:
        print(f"  {address}")
    # A console that cannot draw blocks (an old Windows code page): the addresses will do.
    with contextlib.suppress(UnicodeEncodeError):
        print(first_phone_qr(printed), end="")
    print("Stop it with Ctrl+C.", flush=True)
    settings = waitress_settings(app)
    _room_for(settings["connection_limit"])
    settle()
    waitress.serve(
        app, host=listen[0], port=listen[1], _quiet=True, _server=waitress_server, **settings
    )
    return 0


# waitress's own loop (wasyncore.poll2) asks every open connection at every turn whether it
# would read or write, and builds its poll set anew from the answers: work in proportion to
# the connections open, at every request served. A club night keeps 1,500 open (1,200 of them
# streams that wait), and that was most of the server's work (benchmarks/idle_connections.py
# measures it). `Turns` keeps one poll set and asks only the connections that may have changed
# since the last turn: those it saw an event on, those opened or closed, those a request's
# thread wrote to or finished with (`Channel` says so, then wakes the loop), all of them after
# waitress's maintenance (which may close any), and the listening sockets and the trigger at
# every turn (a few; the server's `readable` runs that maintenance). The poll set is the
# kernel's own where it keeps one (`PollSet`: epoll on Linux), so that a wait costs what its
# events do, not a look at every connection open. Where poll() is missing (Windows), waitress's
# own loop runs.


class PollSet:
    """The descriptors the loop waits on, and for what (select.poll's events): kept by the
    kernel where it can (epoll: each wait costs what its events do, where poll() looks at every
    descriptor of the set at every wait: 1 ms a request beside 2,000 idle connections), else
    handed to poll() at each wait. The two are asked alike but for their waits' unit."""

    def __init__(self, kernels: bool = hasattr(select, "epoll")) -> None:
        self.kernel: Any = select.epoll() if kernels else select.poll()
        self.unit = 1.0 if kernels else 1000.0
        """A second in the unit the set waits in (epoll seconds, poll() milliseconds)."""

    def watch(self, fd: int, flags: int) -> None:
        """Wait on `fd` for `flags` (its last ones replaced)."""
        try:
            self.kernel.modify(fd, flags)
        except FileNotFoundError:  # not in the set: new, or (epoll) closed and taken again
            self.kernel.register(fd, flags)

    def forget(self, fd: int) -> None:
        """Stop waiting on `fd` (closed already, it may have left epoll's set on its own)."""
        with contextlib.suppress(OSError):  # closed (EBADF), or taken again (ENOENT)
            self.kernel.unregister(fd)

    def wait(self, timeout: float | None) -> list[tuple[int, int]]:
        """The events of the descriptors ready, waiting at most `timeout` seconds (None: as
        long as it takes)."""
        return list(self.kernel.poll(-1 if timeout is None else timeout * self.unit))


class Channel(HTTPChannel):
    """waitress's connection, telling the loop (`Turns`) when a request's thread changed what
    it waits for: output to write, a request done, a connection to close."""

    turns: Turns | None = None

    def _changed(self) -> None:
        turns = self.turns
        if turns is not None and self.connected:  # a connection closed is the loop's doing
            turns.mark(self._fileno)  # type: ignore[attr-defined]  # wasyncore's
            self.server.pull_trigger()  # after the mark: the turn it wakes sees it

    sending = False
    """Whether a request's thread is writing (`write_soon`, which holds the output's lock): the
    loop could send nothing then, and asks again when it is done (`_changed`)."""

    def writable(self) -> bool:
        # Not while a request's thread writes: waitress's `handle_write` finds the output locked
        # and sends nothing, while a connection that says it would write is reported writable
        # by every poll at once, so the loop turned over and over, taking the interpreter from
        # the very thread it waited for (some 140 askings for a rules page of 23 KB, 5 now).
        if self.sending and not (self.will_close or self.close_when_flushed):
            return False
        return bool(super().writable())

    def write_soon(self, data: Any) -> int:
        self.sending = True
        try:
            return int(super().write_soon(data))
        finally:
            self.sending = False
            # Written whole by this thread (most answers), the loop has nothing more to do.
            if self.total_outbufs_len or self.will_close or self.close_when_flushed:
                self._changed()

    def _flush_outbufs_below_high_watermark(self) -> None:
        # Past the high watermark this thread waits for the loop to send: the loop is to write
        # while it waits (asked again now, before waitress wakes it).
        if self.total_outbufs_len > self.adj.outbuf_high_watermark:
            self.sending = False
            self._changed()
        try:
            super()._flush_outbufs_below_high_watermark()  # type: ignore[misc]  # untyped there
        finally:
            self.sending = True  # back to this thread's writing, till `write_soon` ends

    def service(self) -> None:
        try:
            super().service()
        finally:
            self._changed()

    def cancel(self) -> None:
        super().cancel()
        self._changed()

    def add_channel(self, map: Any = None) -> None:
        super().add_channel(map)
        if self.turns is not None:
            self.turns.mark(self._fileno)  # type: ignore[attr-defined]

    def del_channel(self, map: Any = None) -> None:
        fd = self._fileno  # type: ignore[attr-defined]
        super().del_channel(map)
        if self.turns is not None:
            self.turns.mark(fd)  # out of the poll set at the next turn


class Turns:
    """The loop's turns (`loop`, in place of wasyncore's), with a poll set kept between them."""

    def __init__(self) -> None:
        self.poller = PollSet()
        self.registered: dict[int, tuple[Any, int]] = {}
        """Each descriptor asked about, its dispatcher and the events it waits for (in the
        poll set if any)."""
        self.changed: set[int] = set()
        """Descriptors to ask again at the next turn (`mark`)."""
        self.lock = threading.Lock()
        self.asked = 0
        """How many times a dispatcher was asked what it waits for (tests count them)."""
        self.waiting = False
        """Whether the loop waits for events, all asked (tests wait for it)."""
        self.always: set[int] = set()
        """Descriptors asked at every turn: the listening sockets and the trigger."""

    def mark(self, fd: int) -> None:
        """Ask `fd` again at the next turn (from any thread)."""
        with self.lock:
            self.changed.add(fd)

    def loop(
        self, timeout: float = 30.0, use_poll: bool = True, map: Any = None, count: Any = None
    ) -> None:
        """wasyncore.loop's signature: turn until the map is empty."""
        ask_all = True
        while map:
            ask_all = self.turn(timeout, map, ask_all)

    def turn(self, timeout: float, map: dict[int, Any], ask_all: bool) -> bool:
        """One turn: the poll set brought up to date, a wait for events and their handling.
        Whether the next turn must ask every connection (waitress's maintenance ran)."""
        with self.lock:
            changed, self.changed = self.changed, set()
        if ask_all:
            changed.update(map)
        else:
            changed.update(self.always)
        maintained = False
        for fd in changed:
            maintained |= self._ask(fd, map.get(fd))
        self.waiting = True
        try:
            events = self.poller.wait(timeout)
        except InterruptedError:
            events = []
        self.waiting = False
        for fd, flags in events:
            # Only to the dispatcher the poll set was brought up to date with: a descriptor
            # closed since and taken again belongs to another file, to be asked at the next turn
            # (the poll set is level-triggered: what is still to do is reported again).
            obj, asked = map.get(fd), self.registered.get(fd)
            if obj is not None and asked is not None and asked[0] is obj:
                wasyncore.readwrite(obj, flags)
            self.mark(fd)
        return maintained

    def _ask(self, fd: int, obj: Any) -> bool:
        """The poll set brought up to date with what `obj` (at `fd`, None if gone) waits for
        now; whether that ran waitress's maintenance (the server's `readable` does)."""
        was = self.registered.pop(fd, None)
        if obj is None:
            self.always.discard(fd)
            if was is not None and was[1]:
                self.poller.forget(fd)
            return False
        if not isinstance(obj, Channel):
            self.always.add(fd)
        cleanup = getattr(obj, "next_channel_cleanup", None)
        flags = self._flags(obj)
        # Kept even when it waits for nothing (out of the poll set): not new at the next turn.
        self.registered[fd] = (obj, flags)
        if flags and was != (obj, flags):
            self.poller.watch(fd, flags)
        elif not flags and was is not None and was[1]:
            self.poller.forget(fd)
        return cleanup is not None and obj.next_channel_cleanup != cleanup

    def _flags(self, obj: Any) -> int:
        """What `obj` waits for, as waitress's poll2 asks it."""
        self.asked += 1
        flags = 0
        if obj.readable():
            flags |= select.POLLIN | select.POLLPRI
        if obj.writable() and not obj.accepting:
            flags |= select.POLLOUT
        return flags

    def __getattr__(self, name: str) -> Any:
        return getattr(wasyncore, name)  # the rest of what waitress asks its loop module


class Trigger(trigger.trigger):
    """waitress's trigger (what wakes the loop), which a request's thread may pull while the
    loop closes it: a server stopped as its last request ends. Pulled once closed, it does
    nothing, where waitress's wrote to a descriptor closed (EBADF) or, given back and taken
    again by another file of the process, to that file."""

    def __init__(self, map: Any) -> None:
        self.pulling = threading.Lock()
        self.shut = False
        super().__init__(map)

    def close(self) -> None:
        with self.pulling:  # no pull is writing, and none will
            self.shut = True
        super().close()

    def _physical_pull(self) -> None:
        # Only the write to the pipe, after waitress's pull_trigger has kept its thunk: the
        # close of a thunk runs under the thunks' lock, so the two locks are never held the
        # other way round.
        with self.pulling:
            if not self.shut:
                super()._physical_pull()  # type: ignore[misc]  # untyped there


def waitress_server(app: Callable[..., Any], **settings: Any) -> Any:
    """waitress's server for `app`, its triggers `Trigger`, its loop `Turns` where poll() is to
    be had."""
    server: Any = create_server(app, **settings)
    # One listening socket's server holds its map, several sockets' share theirs.
    served = getattr(server, "map", None) or server._map
    listening: list[Any] = [obj for obj in served.values() if isinstance(obj, BaseWSGIServer)]
    for obj in listening:
        obj.trigger.close()  # not yet served: no thread holds it
        obj.trigger = Trigger(obj._map)
    if hasattr(select, "poll"):
        turns = Turns()
        for obj in listening:
            obj.channel_class = type("Channel", (Channel,), {"turns": turns})
        server.asyncore = turns
    return server


def settle() -> None:
    """Keep what the process has loaded to serve (modules, classes, functions, the app: some
    120,000 objects) out of the garbage collector's full passes from now on. Such a pass looked
    at all of them, ~65 ms of CPU on a small machine, in whichever request's allocations set it
    off: every few heavy pages (a season's standings drawn anew, a player's page at five years
    of a club), it set their p99 (benchmarks/season.py). Collected first, so that no garbage
    is kept for good; what the process makes later is collected as ever."""
    gc.collect()
    gc.freeze()


def _room_for(connections: int) -> None:
    """Let this process open a descriptor for each connection and the database's files: its
    soft limit raised as far as the hard one allows (where the system has such limits)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 100
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
