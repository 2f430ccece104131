"""Security headers on every response, API and client alike: a content security policy, no framing by
other sites (clickjacking), and no content-type sniffing (an upload served as an image stays one).

A pure ASGI middleware: it adds three headers to the response start message and nothing else, so it
costs a few list operations per request (BaseHTTPMiddleware would run each request in a task of its own)."""

from functools import lru_cache
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spot.config import get_settings
from spot.core.errors import error_response
from spot.core.routing import API_PREFIX

# The built client: its scripts and styles come from /spotv2/assets; MUI (emotion) writes its styles in
# <style> elements at run time, hence 'unsafe-inline' for styles only; pictures of subjects and plans are
# served by the API, previews may be data: or blob: URLs. The resource carousel frames a pdf read by
# the API (a blob: URL) and YouTube's privacy-enhanced player; the SCORM player frames the content origin
# (added where there is one: _client_headers). Nothing may frame it.
CLIENT_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "frame-src 'self' blob: https://www.youtube-nocookie.com",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
    ]
)
# The OpenAPI explorer (FastAPI's Swagger UI page) loads its script and style from a CDN and starts
# with an inline script.
DOCS_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "img-src 'self' data: https://fastapi.tiangolo.com",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
    ]
)
DOCS_PATH = f"{API_PREFIX}/docs"
# A launched e-learning unit's files (lms/routes.play). On Spot's own origin, sandboxed without
# allow-same-origin, so the course's scripts run in an origin of their own and cannot read Spot's storage nor
# call the API with the user's session; authoring tools write inline scripts and styles, which the sandbox
# makes harmless. No frame-ancestors: a sandboxed page's origin is opaque, which no source matches, and
# units frame their own pages (framing by another site needs the launch's secret key). Its xAPI calls go to
# the runtime below.
LMS_PLAY_PREFIX = f"{API_PREFIX}/lms/play/"
_CONTENT_DIRECTIVES = [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
]
LMS_CONTENT_POLICY = "; ".join(["sandbox allow-scripts allow-forms", *_CONTENT_DIRECTIVES])
# The same files on the content origin (SPOT_CONTENT_URL): an origin that is not Spot's, so the sandbox may
# keep it (allow-same-origin): a unit's frames reach one another and the SCORM API in the frame above them
# (the golf examples call parent.API, parent.RecordTest), and still reach neither Spot's session nor its
# storage, which live on Spot's origin. Modal dialogs are allowed (a SCO asks "resume where you left
# off?"), pop-ups too (a unit opens a document), within the sandbox. Only Spot's pages and the content
# itself frame it.
SCORM_SANDBOX = "allow-scripts allow-forms allow-same-origin allow-popups allow-modals"


def content_policy(public_origin: str) -> str:
    return "; ".join(
        [f"sandbox {SCORM_SANDBOX}", *_CONTENT_DIRECTIVES, f"frame-ancestors 'self' {public_origin}"]
    )


# The cmi5 runtime (fetch and xAPI), called by that sandboxed content, whose origin is opaque: any origin,
# no credentials (the launch's token travels in the Authorization header), the xAPI headers.
# The SCORM runtime (lms/scorm: the CMI and commits of a launch, by its key) likewise.
LMS_RUNTIME_PREFIXES = (f"{API_PREFIX}/lms/xapi/", f"{API_PREFIX}/lms/fetch/", f"{API_PREFIX}/lms/scorm/")
# What the content origin serves: the units' files, their runtimes, and the SCORM runtime's scripts (the
# client's build, lms-runtime). Never Spot's pages nor the rest of its API: a session opened there would
# live beside the content.
CONTENT_HOST_PREFIXES = (LMS_PLAY_PREFIX, *LMS_RUNTIME_PREFIXES, "/spotv2/lms-runtime/")
CORS_HEADERS = [
    (b"access-control-allow-origin", b"*"),
    (b"access-control-expose-headers", b"X-Experience-API-Version, Content-Type"),
]
PREFLIGHT_HEADERS = [
    *CORS_HEADERS,
    (b"access-control-allow-methods", b"GET, PUT, POST, DELETE, OPTIONS"),
    (
        b"access-control-allow-headers",
        b"Authorization, Content-Type, X-Experience-API-Version, If-Match, If-None-Match",
    ),
    (b"access-control-max-age", b"600"),
]


def _headers(policy: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", policy.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
    ]


_CLIENT_HEADERS = _headers(CLIENT_POLICY)
_DOCS_HEADERS = _headers(DOCS_POLICY)
_NAMES = {name for name, _ in _CLIENT_HEADERS}
# A sandboxed page's own requests for the package's files (a script reading its questions, a checker reading
# its style sheet) come from its opaque origin: readable by any origin, since the launch's secret key in the
# address is what guards them, never a cookie.
_LMS_CONTENT_HEADERS = [
    (b"content-security-policy", LMS_CONTENT_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"access-control-allow-origin", b"*"),
]
_RUNTIME_HEADERS = [*_CLIENT_HEADERS, *CORS_HEADERS]


def _origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower() or "http"
    return scheme, (parts.hostname or "").lower(), parts.port or (443 if scheme == "https" else 80)


def _text(origin: tuple[str, str, int]) -> str:
    scheme, host, port = origin
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" + ("" if port == default else f":{port}")


# Another name of the same machine, where Spot is reached by one: the content origin of `make run` and the
# journeys, with no setting.
_OTHER_NAME = {"127.0.0.1": "localhost", "localhost": "127.0.0.1"}


@lru_cache(maxsize=4)
def _content_origin(public_url: str, content_url: str) -> str | None:
    public = _origin(public_url)
    if content_url.strip():
        content = _origin(content_url)
    elif public[1] in _OTHER_NAME:
        content = (public[0], _OTHER_NAME[public[1]], public[2])
    else:
        return None
    return None if content == public else _text(content)


def content_origin() -> str | None:
    """The origin content is served from (SPOT_CONTENT_URL, or derived from SPOT_PUBLIC_URL), `None`
    where there is none: content then stays in the opaque sandbox of Spot's own origin."""
    settings = get_settings()
    return _content_origin(settings.public_url, settings.content_url)


def public_origin() -> str:
    return _text(_origin(get_settings().public_url))


def _is_content_host(scope: Scope) -> bool:
    origin = content_origin()
    if origin is None:
        return False
    host = next((value for name, value in scope["headers"] if name == b"host"), b"").decode("latin-1")
    scheme = origin.split(":", 1)[0]
    return _origin(f"{scheme}://{host}") == _origin(origin)


@lru_cache(maxsize=4)
def _content_host_headers(public: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", content_policy(public).encode()),
        (b"x-content-type-options", b"nosniff"),
    ]


@lru_cache(maxsize=4)
def _client_headers(content: str | None) -> list[tuple[bytes, bytes]]:
    if content is None:
        return _CLIENT_HEADERS
    return _headers(CLIENT_POLICY.replace("frame-src 'self' blob:", f"frame-src 'self' {content} blob:"))


def _added(scope: Scope, content_host: bool) -> list[tuple[bytes, bytes]]:
    path: str = scope["path"]
    if content_host and path.startswith(LMS_PLAY_PREFIX):
        return _content_host_headers(public_origin())
    if path == DOCS_PATH:
        return _DOCS_HEADERS
    if path.startswith(LMS_PLAY_PREFIX):
        return _LMS_CONTENT_HEADERS
    if path.startswith(LMS_RUNTIME_PREFIXES):
        return _RUNTIME_HEADERS
    return _client_headers(content_origin())


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] == "OPTIONS" and scope["path"].startswith(LMS_RUNTIME_PREFIXES):
            # A CORS preflight of the cmi5 runtime, answered here: no route answers OPTIONS.
            await send(
                {
                    "type": "http.response.start",
                    "status": 204,
                    "headers": [*_CLIENT_HEADERS, *PREFLIGHT_HEADERS],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return
        content_host = _is_content_host(scope)
        if content_host and not scope["path"].startswith(CONTENT_HOST_PREFIXES):
            refusal = error_response(
                404,
                "Only e-learning content is served at this address",
                headers={name.decode(): value.decode() for name, value in _CLIENT_HEADERS},
            )
            await refusal(scope, receive, send)
            return
        added = _added(scope, content_host)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # Replaced where a route set one already (an upload's nosniff): never sent twice.
                headers = [h for h in message.get("headers", ()) if h[0].lower() not in _NAMES]
                message = {**message, "headers": [*headers, *added]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
