from spot.core.auth import CurrentUser
from spot.core.errors import not_found
from spot.core.routing import api_router
from spot.querylang.errors import QueryError
from spot.querylang.fields import EntityType, find_entity
from spot.querylang.parser import parse_filter, parse_sort
from spot.querylang.schemas import (
    QueryCheckResult,
    QueryFieldsOut,
    QueryParseRequest,
    QueryParseResult,
    field_out,
    node_out,
    sort_out,
)

querylang_router = api_router(prefix="/querylang", tags=["querylang"])


def _entity(name: str) -> EntityType:
    entity = find_entity(name)
    if entity is None:
        raise not_found("unknownEntityType")
    return entity


def _parsed(entity: EntityType, data: QueryParseRequest) -> QueryParseResult:
    tree = parse_filter(data.filter, entity)
    keys = parse_sort(data.sort, entity)
    return QueryParseResult(filter=None if tree is None else node_out(tree, entity), sort=sort_out(keys))


@querylang_router.post("/{entityType}/parse")
async def parse(_: CurrentUser, entityType: str, data: QueryParseRequest) -> QueryParseResult:
    """The trees of a filter and a sort, or 400 with the message and position of the first error."""
    return _parsed(_entity(entityType), data)


@querylang_router.post("/{entityType}/check")
async def check(_: CurrentUser, entityType: str, data: QueryParseRequest) -> QueryCheckResult:
    """As parse, for a text being typed: a refused text answers 200 with the errors parse's 400 would
    carry (message and position), since a refusal is what checking expects, not a failed call."""
    entity = _entity(entityType)
    try:
        parsed = _parsed(entity, data)
    except QueryError as error:
        return QueryCheckResult(errors=error.errors)
    return QueryCheckResult(filter=parsed.filter, sort=parsed.sort)


@querylang_router.get("/{entityType}/fields")
async def fields(_: CurrentUser, entityType: str) -> QueryFieldsOut:
    entity = _entity(entityType)
    return QueryFieldsOut(
        entity_type=entity.name,
        fields=[field_out(f) for f in entity.fields],
        default_sort=sort_out(tuple(entity.default_sort)),
    )
