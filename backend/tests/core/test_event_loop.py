"""How requests run (core.routing): every API route and every dependency it uses is a coroutine, so that
database work stays on the event loop, but for work routes, whose handler runs in a worker thread with
a transaction of its own (and list pages on PostgreSQL, which wait for the server in the thread pool).
A plain `def` elsewhere would send it to the thread pool, where its statements would interleave with
other requests' transactions on the same SQLite file."""

import asyncio
import inspect
from collections.abc import Iterator

import pytest
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from spot.main import ROUTERS
from support import openapi_document


def _dependants(dependant: Dependant) -> Iterator[Dependant]:
    for sub in dependant.dependencies:
        yield sub
        yield from _dependants(sub)


def _api_routes() -> list[APIRoute]:
    routes = [route for router in ROUTERS for route in router.routes if isinstance(route, APIRoute)]
    operations = sum(
        method in {"get", "post", "put", "delete", "patch"}
        for item in openapi_document()["paths"].values()
        for method in item
    )
    # Routes left out of the document (the cmi5 runtime's protocol) are checked all the same.
    documented = [route for route in routes if route.include_in_schema]
    assert len(documented) == operations, "every operation of the API is checked"
    return routes


@pytest.mark.parametrize("route", _api_routes(), ids=lambda r: f"{sorted(r.methods)[0]} {r.path}")
def test_the_route_and_its_dependencies_are_coroutines(route: APIRoute) -> None:
    # A work route's own handler runs in a worker thread (core.routing.Kind.work); what comes before it
    # (its dependencies: the session lookup, reading the body) runs on the loop like any other's.
    calls = [route.dependant.call, *(d.call for d in _dependants(route.dependant) if d.call is not None)]
    plain = [
        getattr(call, "__qualname__", repr(call))
        for call in calls
        if not (
            inspect.iscoroutinefunction(call)
            or inspect.isasyncgenfunction(call)
            or inspect.iscoroutinefunction(getattr(call, "__call__", None))  # noqa: B004
        )
    ]
    assert plain == []


def test_a_slow_password_hash_does_not_hold_up_other_requests(client, login, make_user, monkeypatch) -> None:
    """Creating a user hashes its password in the thread pool: the event loop stays free."""
    from spot.users import service

    admin = make_user(permissions=["perm_UserManagement"])
    on_the_loop: list[bool] = []
    original = service.hash_password

    def watching(password: str) -> str:
        on_the_loop.append(_in_event_loop())
        return original(password)

    monkeypatch.setattr(service, "hash_password", watching)
    answer = client.put(
        "/backend/api/v2/user/create",
        json={"login": "lente", "password": "long-enough-pw", "firstName": "A", "lastName": "B"},
        headers=login(admin),
    )
    assert answer.status_code == 200, answer.text
    assert on_the_loop == [False]


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
