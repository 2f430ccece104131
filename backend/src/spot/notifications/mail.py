"""The mail server Spot sends through (SPOT_SMTP_URL) and one message's sending, with the standard
library: `smtp://host:port`, `smtp+starttls://user:password@host:587`, `smtps://user:password@host:465`.
Headers are built by `email.message.EmailMessage`, which refuses a line break in any of them."""

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from urllib.parse import unquote, urlsplit

SCHEMES = {"smtp": (False, False), "smtp+starttls": (False, True), "smtps": (True, False)}
DEFAULT_PORTS = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}
# How long a connection or an answer of the mail server may take.
TIMEOUT_S = 30


class SmtpUrlError(ValueError):
    """SPOT_SMTP_URL cannot be read: said at start, not at the first message."""


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    implicit_tls: bool
    starttls: bool
    user: str
    password: str

    @classmethod
    def parse(cls, url: str) -> "SmtpServer":
        parts = urlsplit(url)
        if parts.scheme not in SCHEMES:
            raise SmtpUrlError(f"SPOT_SMTP_URL: the scheme must be one of {', '.join(SCHEMES)}")
        try:
            port = parts.port or DEFAULT_PORTS[parts.scheme]
        except ValueError as exc:
            raise SmtpUrlError("SPOT_SMTP_URL: the port is not a number from 1 to 65535") from exc
        if not parts.hostname:
            raise SmtpUrlError("SPOT_SMTP_URL: no host")
        implicit_tls, starttls = SCHEMES[parts.scheme]
        return cls(
            host=parts.hostname,
            port=port,
            implicit_tls=implicit_tls,
            starttls=starttls,
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
        )


@dataclass(frozen=True)
class Outgoing:
    """One message as it leaves: from, to, subject, plain text and HTML, and an invitation."""

    sender: str
    to: str
    to_name: str
    subject: str
    text: str
    html: str
    calendar: str | None = None
    calendar_method: str | None = None


def one_line(text: str) -> str:
    """A header's text on one line: a name or a title typed with line breaks cannot add a header."""
    return " ".join(text.split())


def build(message: Outgoing) -> EmailMessage:
    email = EmailMessage()
    email["From"] = message.sender
    email["To"] = formataddr((one_line(message.to_name), message.to))
    email["Subject"] = one_line(message.subject)
    email["Message-ID"] = make_msgid(domain=message.sender.rpartition("@")[2].strip("> ") or None)
    email.set_content(message.text)
    email.add_alternative(message.html, subtype="html")
    if message.calendar:
        # Mail programs show an invitation from a text/calendar part carrying its method (RFC 6047).
        email.add_attachment(
            message.calendar.encode(),
            maintype="text",
            subtype="calendar",
            filename="invitation.ics",
            params={"method": message.calendar_method or "REQUEST"},
        )
    return email


class Refused(Exception):
    """The mail server refused this message for good (a 5xx answer): it will not go, others will."""


class Connection:
    """One connection to the mail server for a round of messages (relays such as Microsoft 365 limit
    how many a sender opens), opened at the first message. A refusal leaves it usable (the server
    resets the transaction); any other failure closes it, and the next message opens another."""

    def __init__(self, server: SmtpServer) -> None:
        self.server = server
        self.client: smtplib.SMTP | None = None

    def _open(self) -> smtplib.SMTP:
        server, context = self.server, ssl.create_default_context()
        client: smtplib.SMTP
        if server.implicit_tls:
            client = smtplib.SMTP_SSL(server.host, server.port, timeout=TIMEOUT_S, context=context)
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT_S)
        try:
            if server.starttls:
                client.starttls(context=context)
            if server.user:
                client.login(server.user, server.password)
        except Exception:
            client.close()
            raise
        return client

    def send(self, message: Outgoing) -> None:
        """Hands the message to the mail server. Refused for a permanent refusal; any other exception
        (a connection refused or cut, a 4xx answer) means: try again later."""
        email = build(message)
        if self.client is None:
            self.client = self._open()
        try:
            self.client.send_message(email)
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _text in exc.recipients.values()]
            if all(500 <= code < 600 for code in codes):
                raise Refused(_reason(exc.recipients)) from exc
            self.close()
            raise
        except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
            if 500 <= exc.smtp_code < 600:
                raise Refused(f"{exc.smtp_code} {_text(exc.smtp_error)}") from exc
            self.close()
            raise
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            try:
                client.quit()
            except Exception:  # the line is already cut: nothing to say goodbye to
                client.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else value


def _reason(recipients: dict[str, tuple[int, bytes]]) -> str:
    return "; ".join(f"{code} {_text(text)}" for code, text in recipients.values())
