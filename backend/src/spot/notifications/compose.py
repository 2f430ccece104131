"""A message's words in the person's language (core/texts, group `mail`): a greeting, its paragraphs,
the link to where the action is done (SPOT_PUBLIC_URL), and a signature, in plain text and in HTML
where every text is escaped."""

from html import escape

from spot.config import get_settings
from spot.core import i18n
from spot.notifications.outbox import Content


def link(path: str) -> str:
    """An address of the client (`/training/path/view/3`) as people reach Spot."""
    return f"{get_settings().public_url.rstrip('/')}/spotv2{path}"


def compose(
    language: i18n.Language, *, name: str, subject: str, paragraphs: list[str], path: str | None
) -> Content:
    words = i18n.group(language, "mail")
    greeting = words["greeting"].format(name=name or "")
    signature = words["signature"].format(customer=get_settings().customer_name or "").rstrip(", ")
    target = link(path) if path else None
    text = [greeting, "", *paragraphs]
    html = [f"<p>{escape(greeting)}</p>", *(f"<p>{escape(p)}</p>" for p in paragraphs)]
    if target:
        text += ["", f"{words['open']} : {target}" if language == "fr" else f"{words['open']}: {target}"]
        html.append(f'<p><a href="{escape(target, quote=True)}">{escape(words["open"])}</a></p>')
    text += ["", "-- ", signature]
    html.append(f"<p>-- <br>{escape(signature)}</p>")
    body = "\n".join(html)
    return Content(
        subject=subject,
        text="\n".join(text) + "\n",
        html=f'<!DOCTYPE html><html lang="{language}"><body>{body}</body></html>',
    )
