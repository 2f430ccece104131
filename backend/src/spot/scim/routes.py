"""SCIM 2.0 (RFC 7644) at /backend/api/v2/scim/v2/, for identity providers that provision Spot's people
and groups (docs/people.md, "SCIM"). Authenticated by an API token of the scim scope, sent as
`Authorization: Bearer`; every answer, errors included, is SCIM's own JSON (application/scim+json). Not
in the OpenAPI document: a SCIM client learns the service from /ServiceProviderConfig, /ResourceTypes
and /Schemas."""

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from scim2_models import (
    AuthenticationScheme,
    Bulk,
    ChangePassword,
    Context,
    Error,
    ETag,
    Filter,
    ListResponse,
    Patch,
    ResourceType,
    ResponseParameters,
    Schema,
    SCIMException,
    ServiceProviderConfig,
    Sort,
    UnauthorizedException,
)

from spot.apitokens import service as tokens
from spot.apitokens.models import ApiToken
from spot.core import files
from spot.core.auth import DB
from spot.core.errors import ApiError
from spot.core.routing import API_PREFIX, SpotRoute
from spot.db import request_session
from spot.scim import resources, service
from spot.scim.resources import PREFIX, _Group, _User, _UserIn

MEDIA_TYPE = "application/scim+json"
MAX_BODY_BYTES = 5_000_000


def _error(status: int, detail: str, scim_type: str | None = None) -> Response:
    body = Error(status=status, scim_type=scim_type, detail=detail).model_dump()
    return Response(Error.model_validate(body).model_dump_json(), status_code=status, media_type=MEDIA_TYPE)


def _from_exception(exc: Exception) -> Response | None:
    if isinstance(exc, SCIMException):
        error = exc.to_error()
        return _error(error.status or 400, error.detail or "", error.scim_type)
    if isinstance(exc, ApiError):
        # The users area's refusals, by their message keys: loginAlreadyUsed, lastAdministrator...
        scim_type = "uniqueness" if exc.status == 409 and exc.message.endswith("AlreadyUsed") else None
        scim_type = scim_type or ("invalidValue" if exc.status == 400 else None)
        return _error(exc.status, exc.message, scim_type)
    if isinstance(exc, RequestValidationError | ValidationError):
        return _error(400, "invalid parameter", "invalidValue")
    return None


class ScimRoute(SpotRoute):
    """A route whose refusals are SCIM errors (RFC 7644 §3.12), after its transaction is rolled back."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def handle_scim(request: Request) -> Response:
            try:
                return await handle(request)
            except Exception as exc:
                response = _from_exception(exc)
                if response is None:
                    raise
                return response

        return handle_scim


router = APIRouter(prefix=API_PREFIX + PREFIX, route_class=ScimRoute, include_in_schema=False)


async def scim_token(request: Request, authorization: Annotated[str | None, Header()] = None) -> ApiToken:
    """The API token of the scim scope sent as `Authorization: Bearer`; 401 for anything else (a
    session token, a token of another scope or revoked)."""
    scheme, _, value = (authorization or "").partition(" ")
    token = (
        tokens.holder(request_session(request), value=value.strip(), scope="scim")
        if scheme.lower() == "bearer"
        else None
    )
    if token is None:
        raise UnauthorizedException(detail="a valid API token of the scim scope is required")
    return token


Token = Annotated[ApiToken, Depends(scim_token)]


def _answer(
    model: Any, status_code: int = 200, location: str | None = None, parameters: Any = None
) -> Response:
    context = Context.RESOURCE_CREATION_RESPONSE if status_code == 201 else Context.RESOURCE_QUERY_RESPONSE
    body = model.model_dump_json(scim_ctx=context, response_parameters=parameters)
    headers = {"Location": location} if location else None
    return Response(body, status_code=status_code, media_type=MEDIA_TYPE, headers=headers)


def _parameters(model: type, attributes: str | None, excluded: str | None) -> Any:
    if not attributes and not excluded:
        return None
    return ResponseParameters[model].model_validate(  # type: ignore[valid-type]
        {"attributes": attributes, "excludedAttributes": excluded}
    )


Attributes = Annotated[str | None, Query(max_length=2000)]
FilterText = Annotated[str | None, Query(max_length=2000)]
StartIndex = Annotated[int | None, Query(alias="startIndex", ge=-(2**31), le=2**31)]
Count = Annotated[int | None, Query(ge=-(2**31), le=2**31)]


async def _body(request: Request) -> bytes:
    return await files.bounded_body(request, MAX_BODY_BYTES)


Body = Annotated[bytes, Depends(_body)]


# Discovery


CONFIG = ServiceProviderConfig(
    documentation_uri=None,
    patch=Patch(supported=True),
    bulk=Bulk(supported=False, max_operations=0, max_payload_size=0),
    filter=Filter(supported=True, max_results=service.MAX_RESULTS),
    change_password=ChangePassword(supported=False),
    sort=Sort(supported=False),
    etag=ETag(supported=False),
    authentication_schemes=[
        AuthenticationScheme(
            type=AuthenticationScheme.Type.oauthbearertoken,
            name="API token",
            description="An API token of the scim scope (spot create-api-token NAME --scope scim)",
            primary=True,
        )
    ],
)


@router.get("/ServiceProviderConfig")
async def service_provider_config(_token: Token) -> Response:
    return _answer(CONFIG)


@router.get("/ResourceTypes")
async def resource_types(_token: Token) -> Response:
    types = resources.RESOURCE_TYPES
    return _answer(
        ListResponse[ResourceType](
            total_results=len(types), start_index=1, items_per_page=len(types), resources=types
        )
    )


@router.get("/ResourceTypes/{name}")
async def resource_type(_token: Token, name: str) -> Response:
    found = next((t for t in resources.RESOURCE_TYPES if t.id == name), None)
    if found is None:
        return _error(404, f"no resource type {name}")
    return _answer(found)


@router.get("/Schemas")
async def schemas(_token: Token) -> Response:
    found = resources.SCHEMAS
    return _answer(
        ListResponse[Schema](
            total_results=len(found), start_index=1, items_per_page=len(found), resources=found
        )
    )


@router.get("/Schemas/{schema_id}")
async def schema(_token: Token, schema_id: str) -> Response:
    found = next((s for s in resources.SCHEMAS if s.id == schema_id), None)
    if found is None:
        return _error(404, f"no schema {schema_id}")
    return _answer(found)


# People


def _list(model: type, total: int, start: int, items: list[Any], parameters: Any) -> Response:
    listed = ListResponse[model](  # type: ignore[valid-type]
        total_results=total, start_index=start, items_per_page=len(items), resources=items
    )  # type: ignore[valid-type]
    return _answer(listed, parameters=parameters)


@router.get("/Users")
async def list_users(
    db: DB,
    _token: Token,
    filter: FilterText = None,
    start_index: StartIndex = None,
    count: Count = None,
    attributes: Attributes = None,
    excluded_attributes: Annotated[str | None, Query(alias="excludedAttributes", max_length=2000)] = None,
) -> Response:
    start, size = service.page(start_index, count)
    total, found = service.list_users(db, filter=filter, start=start, count=size)
    parameters = _parameters(_User, attributes, excluded_attributes)
    return _list(_User, total, start, [resources.user_resource(user) for user in found], parameters)


@router.get("/Users/{user_id}")
async def get_user(
    db: DB,
    _token: Token,
    user_id: str,
    attributes: Attributes = None,
    excluded_attributes: Annotated[str | None, Query(alias="excludedAttributes", max_length=2000)] = None,
) -> Response:
    user = service.get_user(db, user_id)
    return _answer(
        resources.user_resource(user), parameters=_parameters(_User, attributes, excluded_attributes)
    )


@router.post("/Users")
async def create_user(db: DB, token: Token, body: Body) -> Response:
    resource = service.parse(_UserIn, body, Context.RESOURCE_CREATION_REQUEST)
    user = service.save_user(db, user=None, resource=resource, token=token)
    return _answer(resources.user_resource(user), 201, resources.user_location(user.id))


@router.put("/Users/{user_id}")
async def replace_user(db: DB, token: Token, user_id: str, body: Body) -> Response:
    user = service.get_user(db, user_id)
    resource = service.parse(_UserIn, body, Context.RESOURCE_REPLACEMENT_REQUEST)
    return _answer(resources.user_resource(service.save_user(db, user=user, resource=resource, token=token)))


@router.patch("/Users/{user_id}")
async def patch_user(db: DB, token: Token, user_id: str, body: Body) -> Response:
    user = service.get_user(db, user_id)
    patch = service.parse_patch(_UserIn, body)
    return _answer(resources.user_resource(service.patch_user(db, user=user, patch=patch, token=token)))


@router.delete("/Users/{user_id}")
async def delete_user(db: DB, token: Token, user_id: str) -> Response:
    """A person is deactivated, never deleted: they stay named wherever they appear."""
    service.deactivate_user(db, user=service.get_user(db, user_id), token=token)
    return Response(status_code=204)


@router.post("/Users/.search")
async def search_users(db: DB, _token: Token, body: Body) -> Response:
    """RFC 7644 §3.4.3: the same query as GET /Users, its parameters in a SearchRequest body."""
    search = service.parse_search(_User, body)
    start, size = service.page(search.start_index, search.count)
    total, found = service.list_users(db, filter=search.filter, start=start, count=size)
    parameters = _parameters(_User, _names(search.attributes), _names(search.excluded_attributes))
    return _list(_User, total, start, [resources.user_resource(user) for user in found], parameters)


# Groups


def _with_members(attributes: str | None, excluded: str | None) -> bool:
    named = {name.strip().lower() for name in (excluded or "").split(",")}
    return "members" not in named


@router.get("/Groups")
async def list_groups(
    db: DB,
    _token: Token,
    filter: FilterText = None,
    start_index: StartIndex = None,
    count: Count = None,
    attributes: Attributes = None,
    excluded_attributes: Annotated[str | None, Query(alias="excludedAttributes", max_length=2000)] = None,
) -> Response:
    start, size = service.page(start_index, count)
    total, found = service.list_groups(db, filter=filter, start=start, count=size)
    parameters = _parameters(_Group, attributes, excluded_attributes)
    members = _with_members(attributes, excluded_attributes)
    return _list(
        _Group, total, start, [service.group_view(db, g, with_members=members) for g in found], parameters
    )


@router.get("/Groups/{group_id}")
async def get_group(
    db: DB,
    _token: Token,
    group_id: str,
    attributes: Attributes = None,
    excluded_attributes: Annotated[str | None, Query(alias="excludedAttributes", max_length=2000)] = None,
) -> Response:
    group = service.get_group(db, group_id)
    members = _with_members(attributes, excluded_attributes)
    view = service.group_view(db, group, with_members=members)
    return _answer(view, parameters=_parameters(_Group, attributes, excluded_attributes))


@router.post("/Groups")
async def create_group(db: DB, token: Token, body: Body) -> Response:
    resource = service.parse(_Group, body, Context.RESOURCE_CREATION_REQUEST)
    group = service.save_group(db, group=None, resource=resource, token=token)
    return _answer(service.group_view(db, group), 201, resources.group_location(group.id))


@router.put("/Groups/{group_id}")
async def replace_group(db: DB, token: Token, group_id: str, body: Body) -> Response:
    group = service.get_group(db, group_id)
    resource = service.parse(_Group, body, Context.RESOURCE_REPLACEMENT_REQUEST)
    return _answer(
        service.group_view(db, service.save_group(db, group=group, resource=resource, token=token))
    )


@router.patch("/Groups/{group_id}")
async def patch_group(db: DB, token: Token, group_id: str, body: Body) -> Response:
    group = service.get_group(db, group_id)
    patch = service.parse_patch(_Group, body)
    return _answer(service.group_view(db, service.patch_group(db, group=group, patch=patch, token=token)))


@router.delete("/Groups/{group_id}")
async def delete_group(db: DB, token: Token, group_id: str) -> Response:
    service.delete_group(db, group=service.get_group(db, group_id), token=token)
    return Response(status_code=204)


@router.post("/Groups/.search")
async def search_groups(db: DB, _token: Token, body: Body) -> Response:
    search = service.parse_search(_Group, body)
    start, size = service.page(search.start_index, search.count)
    total, found = service.list_groups(db, filter=search.filter, start=start, count=size)
    attributes, excluded = _names(search.attributes), _names(search.excluded_attributes)
    members = _with_members(attributes, excluded)
    views = [service.group_view(db, g, with_members=members) for g in found]
    return _list(_Group, total, start, views, _parameters(_Group, attributes, excluded))


@router.post("/.search")
async def search_everything(_token: Token) -> Response:
    """Spot searches one resource type at a time: /Users/.search, /Groups/.search."""
    return _error(501, "search /Users/.search or /Groups/.search")


def _names(paths: list[Any] | None) -> str | None:
    return ",".join(str(path) for path in paths) if paths else None


# Anything else under the SCIM prefix: 405 on a known address, 404 elsewhere, as SCIM errors.
_ADDRESSES = [route for route in router.routes]


def _elsewhere(request: Request, rest: str) -> Response:
    for route in _ADDRESSES:
        match, _ = route.matches(request.scope)  # type: ignore[attr-defined]
        if match.name != "NONE":
            return _error(405, f"{request.method} is not allowed on /{rest}")
    return _error(404, f"nothing at /{rest}")


@router.get("/{rest:path}")
async def read_elsewhere(request: Request, _token: Token, rest: str) -> Response:
    return _elsewhere(request, rest)


@router.api_route("/{rest:path}", methods=["POST", "PUT", "PATCH", "DELETE"])
async def write_elsewhere(request: Request, _token: Token, rest: str) -> Response:
    return _elsewhere(request, rest)
