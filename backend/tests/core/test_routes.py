"""Areas' routers are included in the order of how often they are called (spot.main.ROUTERS); that
order may only change speed, never which route answers a request."""

import re
from itertools import combinations

from fastapi.routing import APIRoute

from spot.main import ROUTERS


def _sample_path(route: APIRoute) -> str:
    """A request path that the route answers: every parameter set to 1."""
    return re.sub(r"\{[^}]+\}", "1", route.path)


def _overlaps(first: APIRoute, second: APIRoute) -> bool:
    return bool(first.methods & second.methods) and bool(first.path_regex.match(_sample_path(second)))


def test_no_request_matches_routes_of_two_areas():
    areas = [[r for r in router.routes if isinstance(r, APIRoute)] for router in ROUTERS]
    clashes = [
        (a.path, b.path)
        for one, other in combinations(areas, 2)
        for a in one
        for b in other
        if _overlaps(a, b) or _overlaps(b, a)
    ]
    assert clashes == []


def test_the_check_sees_a_clash():
    shadowing = APIRoute("/subject/{subjectId}", lambda: None, methods=["GET"])
    shadowed = APIRoute("/subject/query", lambda: None, methods=["GET", "POST"])
    assert _overlaps(shadowing, shadowed)
    assert not _overlaps(shadowed, shadowing)
    assert not _overlaps(APIRoute("/subject/{subjectId}", lambda: None, methods=["DELETE"]), shadowed)


def test_every_area_is_included():
    import spot.main

    routers = {name for name in dir(spot.main) if name.endswith("_router")}
    assert len(ROUTERS) == len(routers)


def test_the_app_lists_every_api_route_itself():
    """No included router (a subtree each request walks again, and which has no path of its own):
    the app's own list holds every route of every area, complete as declared."""
    from spot.core.routing import SpotRoute
    from spot.main import create_app

    listed = create_app().router.routes
    declared = [route for router in ROUTERS for route in router.routes]
    assert all(isinstance(route, SpotRoute) for route in declared)  # each ends its transaction
    assert all(any(route is mine for route in listed) for mine in declared)
    assert all(hasattr(route, "path") for route in listed)
