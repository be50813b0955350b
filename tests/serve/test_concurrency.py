"""200 concurrent sessions on a real uvicorn server (127.0.0.1, free port), interleaved writes.

Every session runs its own sequence of writes (an order with its own books and quantities, an
address change, a cancellation) while the 199 others run theirs; each must end with exactly the
state hash a fresh local episode reaches with the same calls: no write leaks between episodes.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autoforge.serve.app import create_app
from autoforge.serve.service import EnvService

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from lab.rawhttp import RawConnection

SESSIONS = 200
IN_STOCK = ["B-201", "B-204", "B-206", "B-209", "B-213", "B-215", "B-217", "B-219"]
CUSTOMERS = [f"C-10{n:02d}" for n in range(1, 9)]
PENDING = ["ORD-8", "ORD-9", "ORD-10"]


def session_calls(i: int) -> list[tuple[str, dict[str, Any]]]:
    """Session ``i``'s calls: different books, quantities, address and cancellation per i."""
    items = [
        {"book_id": IN_STOCK[i % len(IN_STOCK)], "quantity": 1 + i % 3},
        {"book_id": IN_STOCK[(i // 8) % len(IN_STOCK)], "quantity": 1},
    ]
    if items[0]["book_id"] == items[1]["book_id"]:
        items.pop()
    address = {
        "street": f"{i} Elm Row",
        "city": "Lyon",
        "postal_code": f"69{i:03d}",
        "country": "FR",
    }
    return [
        ("place_order", {"customer_id": CUSTOMERS[i % len(CUSTOMERS)], "items": items}),
        ("get_order", {"order_id": "ORD-11"}),
        ("update_shipping_address", {"order_id": "ORD-11", "address": address}),
        ("cancel_order", {"order_id": PENDING[i % len(PENDING)], "reason": "other"}),
    ]


async def open_session(port: int) -> tuple[RawConnection, str]:
    """A client of its own (one keep-alive connection) and its episode."""
    conn = await RawConnection.open("127.0.0.1", port)
    status, body = await conn.json("POST", "/episodes", {})
    assert status == 201, body
    return conn, str(body["episode_id"])


async def run_session(conn: RawConnection, episode: str, i: int) -> str:
    for name, args in session_calls(i):
        status, body = await conn.json("POST", f"/episodes/{episode}/tools/{name}", args)
        assert status == 200 and body["ok"] is True, (i, name, body)
    status, info = await conn.json("GET", f"/episodes/{episode}")
    await conn.close()
    return str(info["state_hash"])


async def drive(port: int) -> tuple[list[str], int]:
    """Open every session first (all 200 live at once), then run them all concurrently."""
    sessions = await asyncio.gather(*(open_session(port) for _ in range(SESSIONS)))
    _status, health = await sessions[0][0].json("GET", "/health")
    hashes = await asyncio.gather(
        *(run_session(conn, episode, i) for i, (conn, episode) in enumerate(sessions))
    )
    return list(hashes), int(health["open_episodes"])


def test_200_concurrent_sessions_each_end_in_their_own_state(
    make_service: Callable[..., EnvService],
    live_server: Any,
    bookstore_env: Any,
    replay: Callable[..., str],
) -> None:
    service = make_service(max_sessions=SESSIONS)
    server = live_server(create_app(service))
    hashes, open_now = asyncio.run(drive(server.port))
    assert open_now == SESSIONS
    expected = [replay(bookstore_env, session_calls(i)) for i in range(SESSIONS)]
    assert hashes == expected
    assert len(set(expected)) > SESSIONS // 2  # the sessions really differ from each other
    assert all(len(s.calls) == 4 for s in service.store)
