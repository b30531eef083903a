"""The load benchmark's minimal WebSocket client speaks RFC 6455 as a real server hears it.

Its frames are checked against the RFC's own example and against the ``websockets`` library's
server over loopback (which refuses an unmasked or misframed client frame), and what it does not
support must be refused, not misread.
"""

from __future__ import annotations

import asyncio
import base64
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))

import wsclient  # noqa: E402

SIZES = (0, 1, 3, 4, 5, 125, 126, 127, 65535, 65536, 70001)
"""Payload lengths around each boundary of the frame header (7-bit, 16-bit, 64-bit) and of the 4-byte mask."""


def test_accept_key_is_the_rfc_example() -> None:
    # RFC 6455, 1.3: this key's answer.
    assert wsclient.accept_key(b"dGhlIHNhbXBsZSBub25jZQ==") == b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="


@pytest.mark.parametrize("n", SIZES)
def test_mask_is_the_repeated_key_xor(n: int) -> None:
    data = bytes((i * 7 + 3) % 256 for i in range(n))
    key = b"\x37\xfa\x21\x3d"
    plain = bytes(b ^ key[i % 4] for i, b in enumerate(data))
    assert wsclient.mask(data, key) == plain
    assert wsclient.mask(plain, key) == data


def test_frame_matches_the_rfc_example() -> None:
    # RFC 6455, 5.7: a masked "Hello" text frame with key 37 fa 21 3d.
    frame = wsclient.encode_frame(wsclient.OP_TEXT, b"Hello", b"\x37\xfa\x21\x3d")
    assert frame == bytes.fromhex("818537fa213d7f9f4d5158")


@pytest.mark.parametrize(("n", "head"), [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10)])
def test_frame_header_lengths(n: int, head: int) -> None:
    frame = wsclient.encode_frame(wsclient.OP_TEXT, b"x" * n, b"abcd")
    assert len(frame) == head + 4 + n
    assert frame[0] == 0x81 and frame[1] & 0x80  # FIN + text; masked


def _run(main: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(main(), 30))


def test_exchange_with_a_real_server() -> None:
    """Echo every size through websockets' server; it answers a ping and closes with a code."""
    pinged: list[float] = []

    async def handler(conn: ServerConnection) -> None:
        async for message in conn:
            if message == "ping me":
                pinged.append(await (await conn.ping()))  # waits for our pong
                await conn.send("ponged")
            elif message == "close me":
                await conn.close(4001, "asked to")
            else:
                await conn.send(message)

    async def main() -> None:
        async with serve(handler, "127.0.0.1", 0, max_size=2**20, compression=None) as server:
            port = server.sockets[0].getsockname()[1]
            ws = await wsclient.connect(f"ws://127.0.0.1:{port}/", max_size=2**20)
            for n in SIZES:
                text = "".join(chr(0x61 + (i % 26)) for i in range(n))
                await ws.send(text)
                assert await ws.recv() == text
            await ws.send("é ✓ non-ASCII")
            assert await ws.recv() == "é ✓ non-ASCII"
            await ws.send("ping me")
            assert await ws.recv() == "ponged"
            assert len(pinged) == 1
            await ws.send("close me")
            with pytest.raises(wsclient.Closed):
                await ws.recv()
            assert ws.close_code == 4001 and ws.close_reason == "asked to"
            with pytest.raises(wsclient.Closed):
                await ws.send("too late")

            ws2 = await wsclient.connect(f"ws://127.0.0.1:{port}/")
            await ws2.send("bye")
            assert await ws2.recv() == "bye"
            await ws2.close()  # our close handshake: the server answers and the connection ends
            assert ws2.close_code == 1000

    _run(main)


async def _fake_server(reply: Callable[[bytes], bytes]) -> tuple[asyncio.Server, int]:
    """A raw server that completes the handshake and then sends ``reply(key)`` bytes as it is."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await reader.readuntil(b"\r\n\r\n")
        key = next(
            line.split(b":", 1)[1].strip()
            for line in request.split(b"\r\n")
            if line.lower().startswith(b"sec-websocket-key")
        )
        writer.write(reply(key))
        await writer.drain()
        await asyncio.sleep(1)
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def _upgrade(key: bytes, extra: bytes = b"") -> bytes:
    return (
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Accept: " + wsclient.accept_key(key) + b"\r\n" + extra + b"\r\n"
    )


@pytest.mark.parametrize(
    ("frames", "why"),
    [
        (b"\x01\x02hi\x80\x01!", "fragmented"),  # a text frame without FIN, then a continuation
        (b"\x81\x82abcd\x09\x0b", "masked"),  # servers never mask
        (b"\xc1\x02hi", "reserved bit"),  # RSV1 set: permessage-deflate was not negotiated
        (b"\x81\x7f" + (2**40).to_bytes(8, "big"), "past the"),  # past max_size
    ],
)
def test_unsupported_frames_are_refused(frames: bytes, why: str) -> None:
    async def main() -> None:
        server, port = await _fake_server(lambda key: _upgrade(key) + frames)
        async with server:
            ws = await wsclient.connect(f"ws://127.0.0.1:{port}/")
            with pytest.raises(wsclient.Closed):
                await ws.recv()
            assert why in ws.close_reason

    _run(main)


def test_a_wrong_accept_key_fails_the_handshake() -> None:
    async def main() -> None:
        server, port = await _fake_server(lambda key: _upgrade(base64.b64encode(b"not the key")))
        async with server:
            with pytest.raises(wsclient.ProtocolError, match="Accept"):
                await wsclient.connect(f"ws://127.0.0.1:{port}/")

    _run(main)


def test_frames_in_the_handshake_packet_are_read() -> None:
    """The server's first message may arrive in the same segment as its handshake response."""

    async def main() -> None:
        server, port = await _fake_server(lambda key: _upgrade(key) + b"\x81\x05hello\x81\x00")
        async with server:
            ws = await wsclient.connect(f"ws://127.0.0.1:{port}/")
            assert await ws.recv() == "hello"
            assert await ws.recv() == ""

    _run(main)
