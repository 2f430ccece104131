"""Security headers on every response, API and client alike: a content security policy, no framing by
other sites (clickjacking), and no content-type sniffing (an upload served as an image stays one).

A pure ASGI middleware: it adds three headers to the response start message and nothing else, so it
costs a few list operations per request (BaseHTTPMiddleware would run each request in a task of its own)."""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spot.core.routing import API_PREFIX

# The built client: its scripts and styles come from /spotv2/assets; MUI (emotion) writes its styles in
# <style> elements at run time, hence 'unsafe-inline' for styles only; pictures of subjects and plans are
# served by the API, previews may be data: or blob: URLs. The resource carousel frames a pdf read by
# the API (a blob: URL) and YouTube's privacy-enhanced player. Nothing may frame it.
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


def _headers(policy: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", policy.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
    ]


_CLIENT_HEADERS = _headers(CLIENT_POLICY)
_DOCS_HEADERS = _headers(DOCS_POLICY)
_NAMES = {name for name, _ in _CLIENT_HEADERS}


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = _DOCS_HEADERS if scope["path"] == DOCS_PATH else _CLIENT_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # Replaced where a route set one already (an upload's nosniff): never sent twice.
                headers = [h for h in message.get("headers", ()) if h[0].lower() not in _NAMES]
                message = {**message, "headers": [*headers, *added]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
