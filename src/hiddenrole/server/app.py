"""The HTTP lobby and the WebSocket endpoint, as one Starlette application.

Tokens travel only in an ``Authorization: Bearer`` header (HTTP) or the ``hello``
message (WebSocket), never in a URL, so no access log ever holds one. A table's log
and seed are served only once it is finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Sequence
from typing import Any, Literal
from urllib.parse import urlsplit

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import hiddenrole as hr
from hiddenrole.host import GameDefinition, Option, OptionKind

from . import web, wire
from .bots import Bot, check_agent
from .hostapi import Game, definition, game_names
from .limits import (
    DEFAULT_AGENT,
    DEFAULT_BOT_DELAY,
    MAX_BOT_DELAY,
    MAX_HTTP_BODY_BYTES,
    MAX_TABLES_LISTED,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
)
from .pushws import push_messages, push_writer
from .rooms import Hub, Room, TableSettings
from .session import Session
from .storage import FINISHED, OPEN, PLAYING, SeatUnavailable, Store, TableNotFound

__all__ = ["ServerConfig", "create_app", "option_schema", "Lobby"]

_log = logging.getLogger("hiddenrole.server")


class ServerConfig(msgspec.Struct):
    """How this process serves: which browser origins may open a WebSocket, whether seeds may be chosen."""

    allowed_origins: tuple[str, ...] = ()
    """Extra origins (``https://example.org``) besides the server's own host."""
    allow_seeds: bool = False
    """Let a table's creator choose its seed (tests and replays only: a seed reveals every role)."""


Seconds = msgspec.Meta(ge=MIN_TIMEOUT, le=MAX_TIMEOUT)


class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    """A new table: the game, its options, seats, which seats bots play, spectators, deadlines."""

    game: str
    seats: int | None = None
    options: dict[str, bool | int | str] = msgspec.field(default_factory=dict)
    bots: list[str] = msgspec.field(default_factory=list)
    spectators: bool = True
    timeouts: dict[str, float] = msgspec.field(default_factory=dict)
    timeout: float | None = None
    bot_delay: tuple[float, float] | None = None
    takeover: float | None = None
    seed: int | None = None
    agent: str | None = None
    """The agent server-side bots run: ``random`` (the default), ``heuristic`` or ``pass``."""
    agents: dict[str, str] = msgspec.field(default_factory=dict)
    """An agent per bot seat, overriding ``agent``."""


class JoinTable(msgspec.Struct, forbid_unknown_fields=True):
    seat: str | None = None


class SeatAction(msgspec.Struct, forbid_unknown_fields=True):
    seat: str


HostAction = Literal["pause", "resume", "end", "start", "end-phase"]


def _json(data: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json")


def _fail(status: int, code: str, message: str) -> Response:
    return _json({"code": code, "message": message}, status)


def option_schema(options: Sequence[Option]) -> dict[str, Any]:
    """A game's options (or preferences) as a JSON Schema object."""
    props: dict[str, Any] = {}
    for o in options:
        p: dict[str, Any] = {"default": o.default}
        if o.kind is OptionKind.BOOLEAN:
            p["type"] = "boolean"
        elif o.kind is OptionKind.INTEGER:
            p |= {"type": "integer", "minimum": o.minimum, "maximum": o.maximum}
        else:
            p |= {"type": "string", "enum": list(o.choices)}
        if o.help:
            p["description"] = o.help
        props[o.name] = p
    return {"type": "object", "properties": props, "additionalProperties": False}


def describe(d: GameDefinition) -> dict[str, Any]:
    return {
        "name": d.name,
        "version": d.version,
        "summary": d.summary,
        "seats": {"min": d.min_seats, "max": d.max_seats},
        "options": option_schema(d.options),
        "preferences": option_schema(d.preferences),
        "statistics": [{"name": s.name, "scope": s.scope.value} for s in d.statistics],
    }


async def _body(request: Request, kind: type[Any]) -> Any:
    raw = await request.body()
    if len(raw) > MAX_HTTP_BODY_BYTES:
        raise wire.WireError(wire.TOO_LARGE, f"a request body is at most {MAX_HTTP_BODY_BYTES} bytes")
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.ValidationError as exc:
        raise wire.WireError(wire.BAD_MESSAGE, str(exc)) from None
    except msgspec.DecodeError:
        raise wire.WireError(wire.MALFORMED, "the body is not JSON") from None


def _bearer(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


class Lobby:
    """The lobby's handlers, sharing one hub and store."""

    def __init__(self, hub: Hub, config: ServerConfig) -> None:
        self.hub = hub
        self.store: Store = hub.store
        self.config = config
        self.bots: dict[tuple[str, str], Bot] = {}
        self._takeovers: dict[tuple[str, str], asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.taken_over: set[tuple[str, str]] = set()
        """Seats a bot plays because their player was gone past the grace period."""
        hub.bot_hooks.append(self._start_bots)
        hub.presence_hooks.append(self._presence)

    # ------------------------------------------------------------------ bots and presence

    def _start_bots(self, room: Room) -> None:
        for seat in sorted(room.bots):
            if (room.id, seat) not in self.bots:
                bot = Bot(room, seat)
                self.bots[(room.id, seat)] = bot
                bot.start()

    async def stop_bot(self, room: Room, seat: str) -> None:
        bot = self.bots.pop((room.id, seat), None)
        if bot is not None:
            await bot.stop()

    def _presence(self, room: Room, seat: str, present: bool) -> None:
        """A player came or went: cancel or arm the take-over by a bot, or give a taken-over seat back."""
        key = (room.id, seat)
        handle = self._takeovers.pop(key, None)
        if handle is not None:
            handle.cancel()
        loop = asyncio.get_running_loop()
        if present:
            if key in self.taken_over:  # the player is back: the bot that stood in leaves
                self.taken_over.discard(key)
                task = loop.create_task(self.seat_bot(room, seat, False))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            return
        grace = room.settings.takeover
        if grace is None or room.game.over or seat in room.bots:
            return
        self._takeovers[key] = loop.call_later(grace, lambda: loop.create_task(self._take_over(room, seat)))

    async def _take_over(self, room: Room, seat: str) -> None:
        self._takeovers.pop((room.id, seat), None)
        if room.humans(seat) or room.game.over or seat in room.bots:
            return
        self.taken_over.add((room.id, seat))
        _log.info("a bot takes over an absent seat", extra={"table": room.id, "seat": seat})
        await self.seat_bot(room, seat, True)

    async def seat_bot(self, room: Room, seat: str, on: bool) -> None:
        await asyncio.to_thread(self.store.set_bot, room.id, seat, on)
        if on:
            room.bots.add(seat)
            self._start_bots(room)
        else:
            room.bots.discard(seat)
            await self.stop_bot(room, seat)

    # ------------------------------------------------------------------ games

    async def games(self, request: Request) -> Response:
        out = []
        for name in game_names():
            try:
                out.append(describe(definition(name)))
            except hr.GameError:
                continue
        return _json({"games": out})

    async def game(self, request: Request) -> Response:
        try:
            d = definition(request.path_params["name"])
        except hr.GameError as exc:
            return _fail(404, exc.code, exc.message)
        return _json(describe(d))

    # ------------------------------------------------------------------ tables

    async def create(self, request: Request) -> Response:
        body: CreateTable = await _body(request, CreateTable)
        try:
            d = definition(body.game)
        except hr.GameError as exc:
            return _fail(400, exc.code, exc.message)
        if body.seed is not None and not self.config.allow_seeds:
            return _fail(400, wire.BAD_MESSAGE, "this server does not let a table's creator choose its seed")
        seats = body.seats if body.seats is not None else max(d.min_seats, min(d.max_seats, 9))
        for t in (*body.timeouts.values(), *([body.timeout] if body.timeout is not None else [])):
            if not MIN_TIMEOUT <= t <= MAX_TIMEOUT:
                return _fail(400, wire.BAD_MESSAGE, f"a deadline is {MIN_TIMEOUT}..{MAX_TIMEOUT} seconds")
        delay = body.bot_delay or DEFAULT_BOT_DELAY
        if not 0 <= delay[0] <= delay[1] <= MAX_BOT_DELAY:
            return _fail(400, wire.BAD_MESSAGE, f"bot_delay is [low, high] within 0..{MAX_BOT_DELAY} seconds")
        if body.takeover is not None and not 0 <= body.takeover <= MAX_TIMEOUT:
            return _fail(400, wire.BAD_MESSAGE, f"takeover is 0..{MAX_TIMEOUT} seconds")
        try:
            game = await asyncio.to_thread(Game.open, body.game, seats, body.options, body.seed)
        except hr.GameError as exc:
            return _fail(400, exc.code, exc.message)
        table_id = game.id
        unknown = sorted((set(body.bots) | set(body.agents)) - set(game.seats))
        if unknown:
            return _fail(400, "SEAT_NOT_FOUND", f"no seats {unknown} at this table")
        agent = body.agent or DEFAULT_AGENT
        try:
            for name in sorted({agent, *body.agents.values()}):
                check_agent(name, d.name)
        except hr.GameError as exc:
            return _fail(400, exc.code, exc.message)
        settings = TableSettings(
            spectators=body.spectators,
            timeouts=dict(body.timeouts),
            timeout=body.timeout,
            bot_delay=(float(delay[0]), float(delay[1])),
            takeover=body.takeover,
            bot_seed=secrets.randbelow(2**53),
            agent=agent,
            agents=dict(sorted(body.agents.items())),
        )
        humans = set(game.seats) - set(body.bots)
        deadline = None if humans else self.hub.clock.now() + _first_timeout(game, settings)
        host_token = await asyncio.to_thread(
            self.store.create_table,
            table_id,
            game=d.name,
            rules_version=d.version,
            header=game.header.to_dict(),
            seats=game.seats,
            bots=sorted(body.bots),
            settings=msgspec.to_builtins(settings),
            status=OPEN if humans else PLAYING,
            deadline=deadline,
        )
        room = await self.hub.room(table_id)
        _log.info("table created", extra={"table": table_id, "game": d.name})
        return _json(
            {"table": table_id, "host_token": host_token, "seats": list(game.seats), "status": room.status}, 201
        )

    async def _info(self, table_id: str) -> dict[str, Any]:
        info = await asyncio.to_thread(self.store.table_info, table_id)
        seats = await asyncio.to_thread(self.store.seats, table_id)
        return {
            "table": info.id,
            "game": info.game,
            "status": info.status,
            "spectators": bool(info.settings.get("spectators", True)),
            "deadline": None if info.deadline is None or info.status != PLAYING else round(info.deadline * 1000),
            "seats": [{"seat": s.seat, "taken": s.taken, "bot": s.bot} for s in seats],
        }

    async def tables(self, request: Request) -> Response:
        status = request.query_params.get("status")
        infos = await asyncio.to_thread(self.store.list_tables, status)
        out = [await self._info(i.id) for i in infos[-MAX_TABLES_LISTED:]]
        return _json({"tables": out})

    async def table(self, request: Request) -> Response:
        try:
            return _json(await self._info(request.path_params["table"]))
        except TableNotFound:
            return _fail(404, wire.TABLE_NOT_FOUND, "no such table")

    async def _room(self, request: Request) -> Room:
        try:
            return await self.hub.room(request.path_params["table"])
        except TableNotFound:
            raise wire.WireError(wire.TABLE_NOT_FOUND, "no such table") from None

    async def join(self, request: Request) -> Response:
        body: JoinTable = await _body(request, JoinTable)
        room = await self._room(request)
        if room.status == FINISHED:
            return _fail(409, "GAME_ENDED", "the table is over")
        try:
            seat, token = await asyncio.to_thread(self.store.claim_seat, room.id, body.seat)
        except SeatUnavailable as exc:
            return _fail(409, wire.SEAT_TAKEN, exc.message)
        seats = await asyncio.to_thread(self.store.seats, room.id)
        if room.status == OPEN and not any(s.free for s in seats):
            await room.begin()
        return _json({"table": room.id, "seat": seat, "token": token})

    async def leave(self, request: Request) -> Response:
        room = await self._room(request)
        seat = await asyncio.to_thread(self.store.seat_for_token, room.id, _bearer(request))
        if seat is None:
            return _fail(401, wire.UNAUTHORIZED, "not a seat token of this table")
        await asyncio.to_thread(self.store.release_seat, room.id, seat)
        await room.kick(seat, "you left the seat")
        return _json({"table": room.id, "seat": seat, "left": True})

    async def spectate(self, request: Request) -> Response:
        room = await self._room(request)
        if not room.settings.spectators:
            return _fail(403, wire.NO_SPECTATORS, "this table does not allow spectators")
        async with room.lock:
            return _json(room.view_message(None))

    async def log(self, request: Request) -> Response:
        room = await self._room(request)
        async with room.lock:
            if room.status != FINISHED:
                return _fail(409, wire.TABLE_NOT_OVER, "a table's log is shown once it is finished")
            log = room.game.log()
        return _json(
            {
                "log": log.to_dict(),
                "outcome": None if log.end is None or log.end.outcome is None else log.end.outcome.to_dict(),
            }
        )

    async def host(self, request: Request) -> Response:
        room = await self._room(request)
        ok = await asyncio.to_thread(self.store.check_host_token, room.id, _bearer(request))
        if not ok:
            return _fail(401, wire.UNAUTHORIZED, "not this table's host token")
        action = request.path_params["action"]
        if action == "pause":
            await room.pause()
        elif action == "resume":
            await room.resume()
        elif action == "end":
            await room.end()
        elif action == "start":
            await room.begin()
        elif action == "end-phase":
            await room.host_end_phase()
        elif action in ("bot", "unbot"):
            body: SeatAction = await _body(request, SeatAction)
            if body.seat not in room.game.seats:
                return _fail(404, "SEAT_NOT_FOUND", "no such seat")
            if action == "bot" and room.humans(body.seat):
                return _fail(409, wire.SEAT_TAKEN, "the seat's player is connected")
            await self.seat_bot(room, body.seat, action == "bot")
        else:
            return _fail(404, wire.BAD_MESSAGE, f"no host action {action!r}")
        return _json({"table": room.id, "status": room.status})

    # ------------------------------------------------------------------ operations

    async def healthz(self, request: Request) -> Response:
        return _json({"ok": True})

    async def metrics(self, request: Request) -> Response:
        return _json(self.hub.metrics.to_dict(len(self.hub.rooms)))

    async def openapi(self, request: Request) -> Response:
        return _json(openapi_document())

    # ------------------------------------------------------------------ WebSocket

    def origin_ok(self, ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:  # not a browser: nothing to protect against cross-site use
            return True
        if origin in self.config.allowed_origins:
            return True
        host = ws.headers.get("host", "")
        return urlsplit(origin).netloc == host

    async def websocket(self, ws: WebSocket) -> None:
        if not self.origin_ok(ws):
            await ws.close(code=1008, reason="origin not allowed")
            return
        await ws.accept()

        async def send(data: bytes) -> None:
            await ws.send_text(data.decode())

        async def close(code: int, reason: str) -> None:
            with contextlib.suppress(Exception):
                await ws.close(code=code, reason=reason)

        async def frames() -> AsyncIterator[bytes | str]:
            while True:
                try:
                    msg = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    return
                if msg["type"] == "websocket.disconnect":
                    return
                data = msg.get("text")
                if data is None:
                    data = msg.get("bytes") or b""
                yield data

        direct = push_messages(ws.scope)  # hiddenrole serve: the protocol's own inbox, no ASGI receive
        session = Session(self.hub, send, close, push_writer(ws.scope))
        # The session runs as a task of its own: each time a task resumes, Python re-enters every
        # coroutine in its await chain, and under this endpoint that chain is a dozen frames of
        # Starlette and uvicorn middleware, walked several times per move. Awaiting the task keeps
        # the endpoint's lifetime (it ends with the session; cancelling it cancels the session).
        await asyncio.get_running_loop().create_task(session.run(frames() if direct is None else direct()))


def _first_timeout(game: Game, s: TableSettings) -> float:
    phase = game.facts().phase
    if phase in s.timeouts:
        return s.timeouts[phase]
    if s.timeout is not None:
        return s.timeout
    return game.facts().timeout


def openapi_document() -> dict[str, Any]:
    """The lobby's OpenAPI description (request bodies from the msgspec types)."""
    (create, join, seat), components = msgspec.json.schema_components(
        (CreateTable, JoinTable, SeatAction), ref_template="#/components/schemas/{name}"
    )

    def body(schema: dict[str, Any]) -> dict[str, Any]:
        return {"required": True, "content": {"application/json": {"schema": schema}}}

    def op(summary: str, **extra: Any) -> dict[str, Any]:
        return {"summary": summary, "responses": {"200": {"description": "JSON"}}, **extra}

    bearer: list[dict[str, list[str]]] = [{"bearer": []}]
    return {
        "openapi": "3.1.0",
        "info": {"title": "hiddenrole lobby", "version": "1"},
        "paths": {
            "/api/games": {"get": op("Games with their options and preferences as JSON Schema")},
            "/api/games/{name}": {"get": op("One game")},
            "/api/tables": {
                "get": op("Tables (seats taken, bots, status)"),
                "post": op("Create a table; answers its id and the host token", requestBody=body(create)),
            },
            "/api/tables/{table}": {"get": op("One table")},
            "/api/tables/{table}/join": {"post": op("Take a seat; answers the seat token", requestBody=body(join))},
            "/api/tables/{table}/leave": {"post": op("Give up your seat (seat token)", security=bearer)},
            "/api/tables/{table}/spectate": {"get": op("The spectator view")},
            "/api/tables/{table}/log": {"get": op("A finished table's full log and outcome (409 during play)")},
            "/api/tables/{table}/host/{action}": {
                "post": op(
                    "Host actions: pause, resume, start, end, end-phase, bot / unbot {seat} (host token)",
                    security=bearer,
                    requestBody={"required": False, "content": {"application/json": {"schema": seat}}},
                )
            },
            "/healthz": {"get": op("Liveness")},
            "/metrics": {"get": op("Tables, connections, moves per second")},
        },
        "components": {
            "schemas": components,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }


def create_app(store: Store, config: ServerConfig | None = None, hub: Hub | None = None) -> Starlette:
    """The ASGI app serving ``store``; the hub (live tables) starts and stops with the app."""
    hub = hub or Hub(store)
    lobby = Lobby(hub, config or ServerConfig())

    def guard(handler: Any) -> Any:
        async def wrapped(request: Request) -> Response:
            try:
                return await handler(request)  # type: ignore[no-any-return]
            except wire.WireError as exc:
                status = 404 if exc.code == wire.TABLE_NOT_FOUND else 413 if exc.code == wire.TOO_LARGE else 400
                return _fail(status, exc.code, exc.message)

        return wrapped

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            for bot in list(lobby.bots.values()):
                await bot.stop()
            await hub.close()

    routes = [
        Route("/api/games", guard(lobby.games)),
        Route("/api/games/{name}", guard(lobby.game)),
        Route("/api/tables", guard(lobby.tables), methods=["GET"]),
        Route("/api/tables", guard(lobby.create), methods=["POST"]),
        Route("/api/tables/{table}", guard(lobby.table)),
        Route("/api/tables/{table}/join", guard(lobby.join), methods=["POST"]),
        Route("/api/tables/{table}/leave", guard(lobby.leave), methods=["POST"]),
        Route("/api/tables/{table}/spectate", guard(lobby.spectate)),
        Route("/api/tables/{table}/log", guard(lobby.log)),
        Route("/api/tables/{table}/host/{action}", guard(lobby.host), methods=["POST"]),
        Route("/healthz", lobby.healthz),
        Route("/metrics", lobby.metrics),
        Route("/openapi.json", lobby.openapi),
        WebSocketRoute("/ws", lobby.websocket),
        *web.routes(),  # the browser client (hiddenrole.server.web)
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    app.state.lobby = lobby
    return app
