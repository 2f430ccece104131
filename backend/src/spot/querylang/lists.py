"""The one way to serve a list: `POST /<entity>/query` with `{filter, sort, page, pageSize}`
answering `{results, totalItems}` (DESIGN §4 Lists). An area describes its list once (a ListSpec:
the query language's entity type, what the user may see, how a page's rows become cards) and
registers it with list_route; filtering, sorting, counting and paging happen in SQL
(querylang.run_query), and the route is a hot read: on PostgreSQL it waits for the server in the
thread pool, each statement its own transaction."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Response, params
from pydantic import BaseModel, TypeAdapter
from sqlalchemy import Select
from sqlalchemy.orm import Session

from spot.core.auth import DB, CurrentUser
from spot.core.principal import Principal
from spot.core.routing import hot_read
from spot.core.schemas import json_response
from spot.db import off_the_loop
from spot.querylang.fields import EntityType
from spot.querylang.schemas import QueryRequest, QueryResult
from spot.querylang.service import run_query


@dataclass(frozen=True)
class ListSpec:
    """`visible(db, user)`: a select of what `user` may see, selecting what `cards` needs (an entity,
    or columns); `cards(db, user, rows)`: a page's rows as cards, models of `card` or plain data with
    its JSON keys, validated through `card` before they are written. `measured`: a list that a
    `bench/` figure protects (the subject list, the map's lists), whose plain cards are written as they
    are, without validating again what was just read from our own columns (core.schemas.json_response;
    their tests compare the JSON with the model's)."""

    entity: EntityType
    card: type[BaseModel]
    visible: Callable[[Session, Principal], Select[Any]]
    cards: Callable[[Session, Principal, Sequence[Any]], Sequence[Any]]
    measured: bool = False

    def page(self, db: Session, user: Principal, request: QueryRequest) -> dict[str, Any]:
        rows, total = run_query(
            db,
            self.entity,
            self.visible(db, user),
            request.filter,
            request.sort,
            request.page,
            request.page_size,
        )
        return {"results": self.cards(db, user, rows), "totalItems": total}


# Every list route of the app, by path (tests run each of them).
LIST_ROUTES: dict[str, ListSpec] = {}


def list_route(
    router: APIRouter,
    path: str,
    spec: ListSpec,
    *,
    name: str,
    description: str,
    dependencies: Sequence[params.Depends] = (),
) -> None:
    """Registers `POST <path>` serving pages of `spec`; `name` is the route's (and the OpenAPI
    operation's) name; `dependencies`: the route's, such as a fixed permission (core.auth.require)."""

    answer = TypeAdapter(QueryResult[spec.card])  # type: ignore[name-defined]

    @hot_read
    async def query(db: DB, user: CurrentUser, data: QueryRequest) -> Response:
        page = await off_the_loop(db, lambda: spec.page(db, user, data))
        if spec.measured:
            return json_response(page)
        return Response(
            answer.dump_json(answer.validate_python(page), by_alias=True), media_type="application/json"
        )

    query.__name__ = query.__qualname__ = name
    router.add_api_route(
        path,
        query,
        methods=["POST"],
        response_model=QueryResult[spec.card],  # type: ignore[name-defined]
        description=description,
        name=name,
        dependencies=dependencies,
    )
    LIST_ROUTES[router.prefix + path] = spec
