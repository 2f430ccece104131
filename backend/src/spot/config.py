from functools import cached_property, lru_cache
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class IdentityProvider(BaseModel):
    """An OpenID Connect provider offered on the login page."""

    name: str
    issuer: str
    client_id: str
    client_secret: str = ""
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    icon_url: str = ""
    scope: str = "openid profile email"
    # The claim naming the Spot user, matched against the user's login or external id.
    user_claim: str = "preferred_username"
    user_field: Literal["login", "external_id"] = "login"
    # Where the person's claims are read beside the ID token (profile claims, which many providers give
    # only there); unset: the ID token alone.
    userinfo_endpoint: str = ""
    # Where signing out of Spot also ends the provider's session (RP-initiated logout); unset: the next
    # sign-in through this provider asks the person to sign in again (prompt=login).
    end_session_endpoint: str = ""
    # A claim listing the person's group names, and the Spot groups it decides: at each sign-in the
    # person is put in the managed groups the claim names and taken out of the others; other groups
    # are left alone.
    groups_claim: str = ""
    managed_groups: list[str] = []
    # An unknown person signing in is created from the claims (login or external id from user_claim,
    # names and e-mail from the standard claims) instead of being refused.
    create_users: bool = False


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SPOT_", extra="ignore")

    database_url: str = "sqlite:///./var/spot.db"
    data_dir: Path = Path("./var/data")
    # Where stored files go (docs/operations.md): a folder (unset: SPOT_DATA_DIR/files) or an
    # S3-compatible object store, s3://bucket/prefix, at SPOT_S3_ENDPOINT_URL (unset: AWS's) in
    # SPOT_S3_REGION, with the credentials boto3 finds (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, ...).
    file_store: str = ""
    s3_endpoint_url: str = ""
    s3_region: str = ""
    timezone: str = "Europe/Paris"
    customer_name: str = ""
    secret_key: str = "change-me"
    # Where the built single-page client lives; served under /spotv2/.
    frontend_dist: Path = Path(__file__).resolve().parents[3] / "frontend" / "dist"
    # A session lasts this long without renewal; the client renews hourly.
    session_hours: int = 12
    # Login throttling, per (login, client address), per client address and per login from every address:
    # so many failures are free, then each further one makes the key wait, first this long, twice as long
    # each time, up to the bound. A key forgets its failures once it has not failed for the window.
    login_window_minutes: int = 15
    login_free_failures_per_login: int = 5
    login_free_failures_per_address: int = 30
    login_free_failures_per_account: int = 10
    login_backoff_first_seconds: int = 30
    login_backoff_max_seconds: int = 900
    # JSON list of IdentityProvider objects.
    identity_providers: list[IdentityProvider] = []
    # The mail server messages go through (docs/notifications.md): smtp://host:port,
    # smtp+starttls://user:password@host:587, smtps://user:password@host:465. Unset, they wait in the
    # outbox, which administrators read. One that cannot be read stops Spot at start.
    smtp_url: str = ""
    mail_from: str = "Spot <spot@localhost>"
    # The address browsers reach Spot at, for identity providers' redirections (e.g. https://spot.example.com).
    public_url: str = "http://127.0.0.1:8000"
    # The address e-learning content is served from (docs/learning-platform.md, "Security choices"): an
    # origin of its own, never Spot's, where units run with their frames and scripts together but reach
    # neither Spot's session nor its storage. Unset: derived from SPOT_PUBLIC_URL where a second name of
    # the same machine exists (127.0.0.1 and localhost swap); elsewhere none, and content runs in an
    # opaque sandbox. The value of SPOT_PUBLIC_URL itself turns it off.
    content_url: str = ""
    # The largest e-learning course package accepted (bytes; docs/learning-platform.md): received
    # streamed to disk, whatever its size the server's memory stays flat. Its uncompressed content may
    # be up to 4 times as large, each entry up to twice.
    course_max_bytes: int = 500_000_000
    # Base address of the legacy (V1) application; unset hides the legacy links.
    legacy_base_url: str = ""
    # When the daily scan runs in `spot serve` (expiry reminders, the bell's dated alerts, digests), a
    # time of day HH:MM in SPOT_TIMEZONE (docs/notifications.md). One that cannot be read stops Spot at
    # start.
    daily_scan_at: str = "06:00"

    # Who may read GET /metrics (docs/operations.md): addresses or networks, comma-separated.
    metrics_allow: str = "127.0.0.1/32,::1/128"
    # "json": one JSON object a log line, with the id of the request it was written for, and a line a
    # request (docs/operations.md); "text": plain lines.
    log_format: Literal["text", "json"] = "text"
    # How long a job's result (a zip of PDFs, an export) is kept after it finished, in hours
    # (docs/operations.md, "Jobs").
    job_result_hours: int = 24
    # How often a running job's heartbeat beats, in seconds; a job whose heartbeat stopped for three
    # beats was left by a process that died, and is queued again or failed.
    job_heartbeat_seconds: float = 10.0

    @field_validator("smtp_url")
    @classmethod
    def _smtp_url_is_readable(cls, value: str) -> str:
        if value:
            from spot.notifications.mail import SmtpServer

            SmtpServer.parse(value)
        return value

    @field_validator("file_store")
    @classmethod
    def _file_store_is_readable(cls, value: str) -> str:
        if "://" in value:
            from spot.core.object_store import parse

            parse(value)  # ValueError: Spot does not start
        return value

    @field_validator("daily_scan_at")
    @classmethod
    def _daily_scan_at_is_a_time_of_day(cls, value: str) -> str:
        hours, _, minutes = value.strip().partition(":")
        readable = hours.isdigit() and minutes.isdigit() and len(hours) <= 2 and len(minutes) == 2
        if not readable or int(hours) > 23 or int(minutes) > 59:
            raise ValueError(f"SPOT_DAILY_SCAN_AT must be a time of day HH:MM (e.g. 06:00), not {value!r}")
        return f"{int(hours):02d}:{minutes}"

    @field_validator("metrics_allow")
    @classmethod
    def _metrics_allow_is_readable(cls, value: str) -> str:
        for entry in value.split(","):
            if entry.strip():
                ip_network(entry.strip(), strict=False)  # ValueError: Spot does not start
        return value

    @cached_property
    def metrics_networks(self) -> tuple[IPv4Network | IPv6Network, ...]:
        return tuple(ip_network(e.strip(), strict=False) for e in self.metrics_allow.split(",") if e.strip())


@lru_cache
def get_settings() -> Settings:
    return Settings()
