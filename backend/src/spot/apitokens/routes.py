"""API tokens (docs/people.md, "SCIM"): listed, created and revoked by those who manage users."""

from typing import Annotated

from fastapi import Path

from spot.apitokens import service
from spot.apitokens.schemas import ApiTokenCreate, ApiTokenCreated, ApiTokenOut
from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.permissions.names import Permission

router = api_router(prefix="/apiToken", tags=["api tokens"])
MANAGE = [require(Permission.UserManagement)]


@router.get("/list", dependencies=MANAGE)
async def list_tokens(db: DB) -> list[ApiTokenOut]:
    """Every token, live ones first, newest first; never their values."""
    return [service.view(token) for token in service.list_all(db)]


@router.post("/create", dependencies=MANAGE, status_code=201)
async def create_token(db: DB, user: CurrentUser, data: ApiTokenCreate) -> ApiTokenCreated:
    """A new token of the scope; its value is in this answer only."""
    token, value = service.create(db, name=data.name, scope=data.scope, by=user)
    return ApiTokenCreated(token=value, record=service.view(token))


TokenId = Annotated[Id, Path(alias="tokenId")]


@router.post("/byId/{tokenId}/revoke", dependencies=MANAGE)
async def revoke_token(db: DB, user: CurrentUser, token_id: TokenId) -> ApiTokenOut:
    """The token is refused from now on (409 apiTokenRevoked when it already is)."""
    return service.view(service.revoke(db, token_id=token_id, by=user))
