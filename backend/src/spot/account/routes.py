import logging
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import Query, Request, Response
from fastapi.responses import RedirectResponse

from spot.account import oidc, service
from spot.account.auth import CurrentSession
from spot.account.schemas import (
    Credentials,
    IdentityProviderOut,
    LoginResult,
    LogoutOut,
    Reauthentication,
    SessionCan,
    TokenOut,
    WhoAmI,
)
from spot.config import get_settings
from spot.core.auth import DB, CurrentUser
from spot.core.errors import ApiError, ErrorBody, FieldError, ensure
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.lms import policy as lms_policy
from spot.qualifications import policy as qualifications_policy
from spot.reports.policy import may_download_audit_packs, may_report
from spot.users import policy as users_policy
from spot.users import service as users_service
from spot.users.routes import UserId
from spot.users.schemas import LanguageChoice, PasswordChange, UserWithPermissions

router = api_router(prefix="/account", tags=["account"])
# A password change ends the user's other sessions, which this area keeps: its route is here.
passwords_router = api_router(prefix="/user", tags=["users"])

APP_ROOT = "/spotv2/"
log = logging.getLogger("spot.security")


def _safe_redirect(url: str | None) -> str:
    """Only same-site paths are followed after login, never another host. Browsers drop tabs and
    line breaks from an address before reading it ("/\t/evil.example" is "//evil.example"): a path
    with any control character or space is refused too."""
    if not url or not url.startswith("/") or url.startswith("//") or "\\" in url:
        return APP_ROOT
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in url):
        return APP_ROOT
    return url


THROTTLED: dict[int | str, dict[str, Any]] = {
    429: {"model": ErrorBody, "description": "Too many failed attempts (Retry-After says how long)"}
}


@router.post("/login", responses=THROTTLED)
async def login(db: DB, request: Request, credentials: Credentials) -> LoginResult:
    address = request.client.host if request.client else "unknown"
    signed_in = await service.login(
        db, username=credentials.username, password=credentials.password, address=address
    )
    return LoginResult(
        token=signed_in.token,
        redirect_url=_safe_redirect(credentials.return_url),
        failed_attempts=signed_in.failed_attempts,
    )


@router.post("/renewToken")
async def renew_token(db: DB, session: CurrentSession, request: Request) -> TokenOut:
    return TokenOut(token=service.renew(db, session=session, token=request.headers["x-access-token"]))


@router.post("/reauthenticate", status_code=204, responses=THROTTLED)
async def reauthenticate(
    db: DB, session: CurrentSession, request: Request, body: Reauthentication
) -> Response:
    """The password again, before a signature (core.signatures): the session counts as authenticated
    now. 400 loginError on `password` when wrong; 400 reauthenticationByProviderNeeded for a user
    without a password (signed in through an identity provider), who signs in there again."""
    address = request.client.host if request.client else "unknown"
    await service.reauthenticate(db, session=session, password=body.password, address=address)
    return Response(status_code=204)


@router.post("/logout")
async def logout(db: DB, session: CurrentSession, request: Request, response: Response) -> LogoutOut:
    """Ends the session. One opened through an identity provider answers where the browser ends the
    provider's session too (`endSessionUrl`, back to the login page), and the next sign-in through a
    provider on this browser asks the person to sign in there again: on a shared workstation, the next
    person cannot step into the previous one's account."""
    service.logout(db, session=session)
    if session.identity_provider is None:
        return LogoutOut(end_session_url=None)
    response.set_cookie(
        oidc.PROMPT_COOKIE,
        "login",
        path=OIDC_PATH,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return LogoutOut(end_session_url=oidc.end_session_url(session.identity_provider, session.id_token))


@router.post("/language", status_code=204)
async def save_language(db: DB, user: CurrentUser, body: LanguageChoice) -> Response:
    """The language the user switched to: everything the server writes for them follows it."""
    users_service.set_language(db, user=users_service.get(db, user_id=user.id), language=body.language)
    return Response(status_code=204)


@router.get("/whoAmI")
async def who_am_i(db: DB, user: CurrentUser) -> WhoAmI:
    """The signed-in user, their permissions, and what the server's policies let them do (`can`)."""
    base = UserWithPermissions.model_validate(users_service.get(db, user_id=user.id))
    can = SessionCan(
        report_on_paths=may_report(user),
        import_courses=lms_policy.can_manage_courses(user),
        download_audit_packs=may_download_audit_packs(user),
        create_qualifications=qualifications_policy.can_create(user),
        edit_requalification=qualifications_policy.can_edit_requalification(user),
        see_qualification_dashboards=qualifications_policy.can_see_dashboards(user),
    )
    return WhoAmI(**base.model_dump(), can=can)


@router.get("/identity-providers")
async def identity_providers(
    redirect_url: Annotated[str | None, Query(alias="redirectUrl", max_length=2000)] = None,
) -> list[IdentityProviderOut]:
    if not redirect_url:
        raise ApiError(
            400,
            "The parameter 'redirectUrl' must be defined",
            [FieldError(field="redirectUrl", code="emptyFieldError")],
        )
    query = urlencode({"redirectUrl": _safe_redirect(redirect_url)})
    return [
        IdentityProviderOut(
            name=provider.name, login_url=f"{OIDC_PATH}/{index}/start?{query}", icon_url=provider.icon_url
        )
        for index, provider in enumerate(get_settings().identity_providers)
    ]


OIDC_PATH = "/backend/api/v2/account/oidc"
REDIRECT: dict[int | str, dict[str, Any]] = {
    303: {"description": "Sends the browser on"},
    307: {"description": "Sends the browser on"},
}


@router.get("/oidc/{index}/start", response_class=RedirectResponse, responses=REDIRECT)
async def oidc_start(
    request: Request,
    index: Id,
    redirect_url: Annotated[str | None, Query(alias="redirectUrl", max_length=2000)] = None,
) -> RedirectResponse:
    """Sends the browser to the provider; the nonce cookie (nonce and PKCE verifier) ties the answer to
    this browser. After a sign-out on this browser, the provider is asked to prompt for the person."""
    prompt_again = request.cookies.get(oidc.PROMPT_COOKIE) == "login"
    target, cookie = oidc.authorization_redirect(
        index, _safe_redirect(redirect_url), prompt_again=prompt_again
    )
    response = RedirectResponse(target, status_code=307)
    response.delete_cookie(oidc.PROMPT_COOKIE, path=OIDC_PATH)
    response.set_cookie(
        oidc.NONCE_COOKIE,
        cookie,
        max_age=oidc.STATE_TTL_SECONDS,
        path=OIDC_PATH,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


@router.get("/oidc/{index}/callback", response_class=RedirectResponse, responses=REDIRECT)
async def oidc_callback(
    db: DB,
    request: Request,
    index: Id,
    code: Annotated[str, Query(max_length=4000)] = "",
    state: Annotated[str, Query(max_length=4000)] = "",
    error: Annotated[str, Query(max_length=200)] = "",
) -> RedirectResponse:
    """Back from the provider: on to the client with the session token in the fragment (never sent
    to a server nor in a Referer), or to Login with the reason it failed (ssoError: the person
    cancelled, the provider refused or could not be reached, the person is unknown or deactivated...)."""
    try:
        if error:
            log.warning("oidc provider %s sent back an error: %r", index, error)
            raise oidc.provider_error(error)
        token, return_url = await oidc.sign_in(
            db, index=index, code=code, state=state, cookie=request.cookies.get(oidc.NONCE_COOKIE)
        )
        target = f"{APP_ROOT}login?{urlencode({'returnUrl': return_url})}#{urlencode({'ssoToken': token})}"
    except ApiError as exc:
        target = f"{APP_ROOT}login?{urlencode({'ssoError': exc.message})}"
    response = RedirectResponse(target, status_code=303)
    response.delete_cookie(oidc.NONCE_COOKIE, path=OIDC_PATH)
    return response


@passwords_router.post("/changePassword/{userId}", status_code=204)
async def change_password(
    db: DB, user: CurrentUser, session: CurrentSession, user_id: UserId, data: PasswordChange
) -> Response:
    """The user's other sessions end: whoever knew the old password is signed out."""
    ensure(users_policy.can_change_password(user, user_id))
    await users_service.change_password(
        db, user=users_service.get(db, user_id=user_id), password=data.password
    )
    service.revoke_sessions(db, user_id=user_id, keep=session.id)
    return Response(status_code=204)
