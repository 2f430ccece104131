"""Who is asking: the route dependencies `CurrentUser` (the signed-in `Principal`) and `require(...)`
(a fixed permission). Sessions are the account area's: it registers, when it loads, how a token's
principal is read (`register_principal_reader`), so that core imports no area; its own dependency for
the session row itself is `account.auth.CurrentSession`."""

from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader
from sqlalchemy.orm import Session

from spot.core.errors import ApiError
from spot.core.principal import Principal
from spot.db import request_db, request_session

DB = Annotated[Session, Depends(request_db)]
_token_header = APIKeyHeader(name="x-access-token", auto_error=False)
Token = Annotated[str | None, Depends(_token_header)]

# `reader(db, token)`: who holds the token's live session, or None when it is unknown, revoked or expired.
PrincipalReader = Callable[[Session, str], Principal | None]
_readers: list[PrincipalReader] = []


def register_principal_reader(reader: PrincipalReader) -> None:
    """The account area's reader of a token's principal (account.service.principal_for); one only."""
    _readers[:] = [reader]


def token(x_access_token: str | None) -> str:
    """The header's token; 401 notAuthenticated when there is none."""
    if not x_access_token:
        raise ApiError(401, "notAuthenticated")
    return x_access_token


# Reads through the request's session itself rather than through the DB dependency: FastAPI solves
# each level of dependencies again at every request (the cost is in docs/performance.md, "How requests
# run"). A coroutine, like every dependency (README, "How requests run").
async def current_principal(request: Request, x_access_token: Token = None) -> Principal:
    """Who holds the session named by the x-access-token header; 401 when absent, unknown, revoked or
    expired."""
    if not _readers:
        raise RuntimeError("no principal reader registered: spot.account.service registers it as it loads")
    principal = _readers[0](request_session(request), token(x_access_token))
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
