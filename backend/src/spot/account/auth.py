"""The session row behind a request (`CurrentSession`), for the routes that act on the session itself:
renewing it, re-authenticating, signing out, signing a record (core.signatures), changing a password.
Most routes need only who is asking, `core.auth.CurrentUser`."""

from typing import Annotated

from fastapi import Depends, Request

from spot.account import service
from spot.account.models import SessionToken
from spot.core.auth import Token, token
from spot.core.errors import ApiError
from spot.db import request_session


async def current_session(request: Request, x_access_token: Token = None) -> SessionToken:
    """The session named by the x-access-token header; 401 when absent, unknown, revoked or expired."""
    session = service.session_for(request_session(request), token=token(x_access_token))
    if session is None:
        raise ApiError(401, "sessionExpired")
    return session


CurrentSession = Annotated[SessionToken, Depends(current_session)]
