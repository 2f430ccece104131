from typing import Annotated

from fastapi import Depends
from fastapi.security import APIKeyHeader
from sqlalchemy.orm import Session

from spot.account import service as account_service
from spot.account.models import SessionToken
from spot.core.errors import ApiError
from spot.db import request_db
from spot.users.models import User

DB = Annotated[Session, Depends(request_db)]
_token_header = APIKeyHeader(name="x-access-token", auto_error=False)


async def current_session(
    db: DB, x_access_token: Annotated[str | None, Depends(_token_header)] = None
) -> SessionToken:
    """The session named by the x-access-token header; 401 when absent, unknown, revoked or expired."""
    if not x_access_token:
        raise ApiError(401, "notAuthenticated")
    session = account_service.session_for(db, token=x_access_token)
    if session is None:
        raise ApiError(401, "sessionExpired")
    return session


CurrentSession = Annotated[SessionToken, Depends(current_session)]


# The two dependencies below only read what current_session loaded: declared async, they run on the
# event loop instead of costing each request a round trip through the thread pool.
async def current_user(session: CurrentSession) -> User:
    return session.user


CurrentUser = Annotated[User, Depends(current_user)]


def require(permission: str):  # noqa: ANN201
    """A dependency refusing (403) users whose groups do not hold the permission."""

    async def check(user: CurrentUser) -> User:
        if permission not in user.permission_names:
            raise ApiError(403, "Insufficient rights to access this information")
        return user

    return Depends(check)
