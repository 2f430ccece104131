"""A message's words in the person's language (core/texts, group `mail`): a greeting, its paragraphs (and
a list of items, each a subject and its link: the digest), the link to where the action is done
(SPOT_PUBLIC_URL), a signature and the link to the person's notification preferences, in plain text and
in HTML where every text is escaped."""

import functools
from collections.abc import Mapping
from html import escape
from types import MappingProxyType

from spot.config import get_settings
from spot.core import i18n
from spot.notifications.outbox import Content

# The client's page where a person chooses the messages they receive (the account menu).
PREFERENCES_PATH = "/account/notifications"


@functools.cache
def mail_words(language: i18n.Language) -> Mapping[str, str]:
    """The words of messages in `language` (the `mail` group), read once: a scan composes thousands."""
    return MappingProxyType(i18n.group(language, "mail"))


def link(path: str) -> str:
    """An address of the client (`/training/path/view/3`) as people reach Spot."""
    return f"{get_settings().public_url.rstrip('/')}/spotv2{path}"


def _labelled(language: i18n.Language, label: str, target: str) -> str:
    return f"{label} : {target}" if language == "fr" else f"{label}: {target}"


def compose(
    language: i18n.Language,
    *,
    name: str,
    subject: str,
    paragraphs: list[str],
    path: str | None,
    items: list[tuple[str, str | None]] | None = None,
) -> Content:
    """`items`: (subject, full link or None) listed after the paragraphs."""
    words = mail_words(language)
    greeting = words["greeting"].format(name=name or "")
    signature = words["signature"].format(customer=get_settings().customer_name or "").rstrip(", ")
    target = link(path) if path else None
    preferences = link(PREFERENCES_PATH)
    text = [greeting, "", *paragraphs]
    html = [f"<p>{escape(greeting)}</p>", *(f"<p>{escape(p)}</p>" for p in paragraphs)]
    if items:
        text.append("")
        lines = []
        for title, address in items:
            text.append(f"- {title}")
            if address:
                text.append(f"  {address}")
                lines.append(f'<li><a href="{escape(address, quote=True)}">{escape(title)}</a></li>')
            else:
                lines.append(f"<li>{escape(title)}</li>")
        html.append(f"<ul>{''.join(lines)}</ul>")
    if target:
        text += ["", _labelled(language, words["open"], target)]
        html.append(f'<p><a href="{escape(target, quote=True)}">{escape(words["open"])}</a></p>')
    text += ["", "-- ", signature, _labelled(language, words["preferences"], preferences)]
    html.append(
        f"<p>-- <br>{escape(signature)}<br>"
        f'<a href="{escape(preferences, quote=True)}">{escape(words["preferences"])}</a></p>'
    )
    body = "\n".join(html)
    return Content(
        subject=subject,
        text="\n".join(text) + "\n",
        html=f'<!DOCTYPE html><html lang="{language}"><body>{body}</body></html>',
        link=target,
    )
