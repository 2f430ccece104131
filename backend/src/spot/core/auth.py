from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader
from sqlalchemy.orm import Session

from spot.account import service as account_service
from spot.account.models import SessionToken
from spot.core.errors import ApiError
from spot.core.principal import Principal
from spot.db import request_db, request_session

DB = Annotated[Session, Depends(request_db)]
_token_header = APIKeyHeader(name="x-access-token", auto_error=False)
Token = Annotated[str | None, Depends(_token_header)]


def _token(token: str | None) -> str:
    if not token:
        raise ApiError(401, "notAuthenticated")
    return token


# Both read through the request's session itself rather than through the DB dependency: FastAPI
# solves each level of dependencies again at every request (the cost is in docs/performance.md, "How
# requests run"). Coroutines, like every dependency (README,
# "How requests run").
async def current_session(request: Request, x_access_token: Token = None) -> SessionToken:
    """The session named by the x-access-token header; 401 when absent, unknown, revoked or expired."""
    session = account_service.session_for(request_session(request), token=_token(x_access_token))
    if session is None:
        raise ApiError(401, "sessionExpired")
    return session


CurrentSession = Annotated[SessionToken, Depends(current_session)]


async def current_principal(request: Request, x_access_token: Token = None) -> Principal:
    """Who holds the session (account.service.principal_for); 401 as above."""
    principal = account_service.principal_for(request_session(request), token=_token(x_access_token))
    if principal is None:
        raise ApiError(401, "sessionExpired")
    return principal


CurrentUser = Annotated[Principal, Depends(current_principal)]


def require(*permissions: str):
    """The one way to declare a fixed permission (a spec perm_* name) on a route:
    `dependencies=[require(Permission.X)]`; users whose groups do not hold it get 403. Given several,
    holding any one of them is enough."""

    async def check(user: CurrentUser) -> Principal:
        if not any(permission in user.permission_names for permission in permissions):
            raise ApiError(403, "Insufficient rights to access this information")
        return user

    return Depends(check)
