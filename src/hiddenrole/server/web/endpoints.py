"""The browser client's routes: three pages, the API reference (``/docs``), their assets, and a JSON API in words.

The pages speak the server's own lobby (``/api``) and WebSocket (``/ws``) protocols.
This module adds only what a browser needs on top: the reader's view *presented*
(sentences from the game's narration, display names, legal actions with their targets)
and the replay of a finished table or an uploaded log. A seat's presentation needs
its seat token (``Authorization: Bearer``), exactly like the WebSocket; without one
the spectator view is presented, if the table allows spectators. A replay is served
only for a finished table, since a replay shows every seat's secrets.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Final

import msgspec
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

import hiddenrole as hr
from hiddenrole.host import LoggedMove, Table, TableLog
from hiddenrole.host.catalog import get

from ..rooms import Hub, Room
from ..storage import FINISHED, TableNotFound
from .present import event_of, narration_of, present, words

__all__ = ["routes", "present", "STATIC", "MAX_UPLOAD_BYTES", "MAX_REPLAY_MOVES", "replay_view"]

STATIC: Final = Path(__file__).parent / "static"
"""The page assets, shipped inside the package (no build step)."""
MAX_UPLOAD_BYTES: Final = 4 * 1024 * 1024
"""Largest log file the replay viewer accepts, in bytes."""
MAX_REPLAY_MOVES: Final = 5_000
"""Most moves a replayed log may hold (each step replays from the start; games hold a few hundred)."""
PAGE_HEADERS: Final = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Pages load only their own scripts and styles, talk only to this server, and are never framed."""
GOD: Final = "god"
"""The replay viewer's name for the full view (every role, every event)."""


class ReplayRequest(msgspec.Struct, forbid_unknown_fields=True):
    log: dict[str, Any]
    at: int | None = None
    seat: str = GOD


def _json(data: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json")


def _fail(status: int, code: str, message: str) -> Response:
    return _json({"code": code, "message": message}, status)


def _bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _page(name: str) -> Any:
    async def handler(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html", headers=PAGE_HEADERS)

    return handler


async def _room(request: Request) -> Room:
    hub: Hub = request.app.state.hub
    return await hub.room(request.path_params["table"])


async def seat(request: Request) -> Response:
    """The reader's view, presented: the seat of the bearer token, or the spectator without one."""
    try:
        room = await _room(request)
    except TableNotFound:
        return _fail(404, "TABLE_NOT_FOUND", "no such table")
    token = _bearer(request)
    reader: str | None = None
    if token:
        reader = await asyncio.to_thread(room.hub.store.seat_for_token, room.id, token)
        if reader is None:
            return _fail(401, "UNAUTHORIZED", "no such table, or not your token")
    elif not room.settings.spectators:
        return _fail(403, "NO_SPECTATORS", "this table does not allow spectators")
    async with room.lock:
        view = room.game.view(reader)
        state = {**room.table_state(), "status": room.status, "table": room.id}
        config = room.game.rules.config
    return _json(present(view, config, state))


# ---------------------------------------------------------------------- replay


def _god_view(table: Table) -> dict[str, Any]:
    """Every seat's role, every event anyone saw and every line said, in the third person."""
    module = narration_of(table.definition.name)
    role_name = getattr(module, "role_name", words)
    describe = getattr(module, "describe", None)
    gv = table.inspect()
    events, chat = table.host_lines()
    lines = []
    for i, e in enumerate(events, 1):
        text = describe(event_of(e.to_dict()), None) if describe is not None else None
        if text is None and describe is not None:
            continue
        lines.append({"n": i, "text": text or words(e.type), "canceled": e.canceled})
    phase_name = getattr(module, "phase_name", words)
    status = table.status()
    return {
        "seat": GOD,
        "game": table.definition.name,
        "phase": phase_name(status.phase),
        "round": status.round,
        "over": status.over,
        "players": [
            {"seat": p.id, "alive": p.alive, "role": role_name(p.role), "me": False, "turn": False, "teammate": False}
            for p in gv.all_players()
        ],
        "me": None,
        "prompt": "",
        "actions": [],
        "moves": [],
        "data": [],
        "events": lines,
        "chat": [
            {"n": i, "sender": c.sender, "text": c.text, "phase": phase_name(c.phase), "round": c.round}
            for i, c in enumerate(chat, 1)
        ],
        "outcome": None,
    }


def _describe_move(m: LoggedMove, game: str) -> str:
    """One logged move in words (shown only for finished tables and uploaded logs)."""
    who = m.seat or "the host"
    if m.kind == "act":
        skill_name = getattr(narration_of(game), "skill_name", words)
        targets = f" on {', '.join(m.targets)}" if m.targets else ""
        return f"{who}: {skill_name(m.skill)}{targets}"
    if m.kind == "say":
        return f"{who} says: {m.text}"
    return f"{who}: {words(m.kind)}"


def replay_view(log: TableLog, at: int | None, reader: str) -> dict[str, Any]:
    """The table of ``log`` after its first ``at`` moves (all when ``None``), as ``reader`` saw it then.

    ``reader`` is a seat, ``"spectator"``, or ``"god"`` for everything.
    """
    d = get(log.header.game)
    if len(log.moves) > MAX_REPLAY_MOVES:
        raise hr.InvalidArgument(f"a replayed log holds at most {MAX_REPLAY_MOVES} moves")
    total = len(log.moves)
    n = total if at is None else max(0, min(int(at), total))
    if log.header.version != d.version:
        raise hr.RulesMismatch(f"the log was written under rules version {log.header.version!r}, not {d.version!r}")
    table = Table(d, log.header, log.moves[:n])
    if reader == GOD:
        shown = _god_view(table)
        if table.over:
            full = present(table.view(None).to_dict(), table.rules.config)
            shown["outcome"] = full["outcome"]
            shown["players"] = full["players"]
    else:
        who = None if reader == "spectator" else reader
        if who is not None and who not in table.seats:
            raise hr.InvalidArgument(f"no seat {reader!r} at this table")
        view = table.view(who).to_dict()
        shown = present(view, table.rules.config)
    return {
        "game": log.header.game,
        "table": log.header.table,
        "seats": list(log.header.seats),
        "at": n,
        "moves": total,
        "move": _describe_move(log.moves[n - 1], log.header.game) if n else "The table as dealt.",
        "view": shown,
    }


async def _finished_log(request: Request, not_over: str) -> tuple[Room, TableLog] | Response:
    """The room and log of a finished table, or the refusal: 404 for no table, 409 (``not_over``) while it is played."""
    try:
        room = await _room(request)
    except TableNotFound:
        return _fail(404, "TABLE_NOT_FOUND", "no such table")
    async with room.lock:
        if room.status != FINISHED:
            return _fail(409, "TABLE_NOT_OVER", not_over)
        return room, room.game.log()


async def table_replay(request: Request) -> Response:
    """A finished table's replay step (409 while it is played: a replay shows every secret)."""
    found = await _finished_log(request, "a table is replayed once it is finished")
    if isinstance(found, Response):
        return found
    _, log = found
    try:
        at_raw = request.query_params.get("at")
        at = None if at_raw in (None, "") else int(at_raw)
        out = await asyncio.to_thread(replay_view, log, at, request.query_params.get("seat", GOD))
    except ValueError:
        return _fail(400, "BAD_MESSAGE", "at is a move number")
    except hr.GameError as exc:
        return _fail(400, exc.code, exc.message)
    return _json(out)


async def table_log(request: Request) -> Response:
    """A finished table's log as a file to download (the lobby's ``/api/tables/{id}/log`` carries the same)."""
    found = await _finished_log(request, "a table's log is shown once it is finished")
    if isinstance(found, Response):
        return found
    room, log = found
    data = log.to_json()
    disposition = f'attachment; filename="{room.id}.json"'
    return Response(data, media_type="application/json", headers={"Content-Disposition": disposition})


async def uploaded_replay(request: Request) -> Response:
    """A replay step of a log file the user uploads (their own data: any table, any time)."""
    raw = await request.body()
    if len(raw) > MAX_UPLOAD_BYTES:
        return _fail(413, "TOO_LARGE", f"a log file is at most {MAX_UPLOAD_BYTES} bytes")
    try:
        body = msgspec.json.decode(raw, type=ReplayRequest)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _fail(400, "BAD_MESSAGE", str(exc))
    try:
        log = TableLog.from_dict(body.log)
        out = await asyncio.to_thread(replay_view, log, body.at, body.seat)
    except hr.GameError as exc:
        return _fail(400, exc.code, exc.message)
    return _json(out)


def routes() -> list[BaseRoute]:
    """Mount these in the server's Starlette app (``app.state.hub`` must be the server's hub)."""
    return [
        Route("/", _page("index.html")),
        Route("/table/{table}", _page("table.html")),
        Route("/replay", _page("replay.html")),
        Route("/docs", _page("docs.html")),  # the lobby API reference, drawn from /openapi.json
        Route("/web/api/tables/{table}/seat", seat),
        Route("/web/api/tables/{table}/replay", table_replay),
        Route("/web/api/tables/{table}/log.json", table_log),
        Route("/web/api/replay", uploaded_replay, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
