from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader
from sqlalchemy.orm import Session

from spot.account import service as account_service
from spot.account.models import SessionToken
from spot.core.errors import ApiError
from spot.db import request_db, request_session
from spot.users.models import User

DB = Annotated[Session, Depends(request_db)]
_token_header = APIKeyHeader(name="x-access-token", auto_error=False)
Token = Annotated[str | None, Depends(_token_header)]


def _token(token: str | None) -> str:
    if not token:
        raise ApiError(401, "notAuthenticated")
    return token


# Both read through the request's session itself rather than through the DB dependency: each level
# of dependencies costs FastAPI some 10 µs a request. Coroutines, like every dependency (README,
# "How requests run").
async def current_session(request: Request, x_access_token: Token = None) -> SessionToken:
    """The session named by the x-access-token header; 401 when absent, unknown, revoked or expired."""
    session = account_service.session_for(request_session(request), token=_token(x_access_token))
    if session is None:
        raise ApiError(401, "sessionExpired")
    return session


CurrentSession = Annotated[SessionToken, Depends(current_session)]


async def current_user(request: Request, x_access_token: Token = None) -> User:
    """The user of that session (detached: see account.service.user_for); 401 as above."""
    user = account_service.user_for(request_session(request), token=_token(x_access_token))
    if user is None:
        raise ApiError(401, "sessionExpired")
    return user


CurrentUser = Annotated[User, Depends(current_user)]


def require(permission: str):  # noqa: ANN201
    """A dependency refusing (403) users whose groups do not hold the permission."""

    async def check(user: CurrentUser) -> User:
        if permission not in user.permission_names:
            raise ApiError(403, "Insufficient rights to access this information")
        return user

    return Depends(check)
