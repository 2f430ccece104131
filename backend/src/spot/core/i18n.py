"""Texts the server writes itself for people to read (PDFs, sheet names and headers of exported files),
in the language the client asks for. Messages of the API are keys, translated by the client; only files
the server builds carry words. French is the default and the fallback (spec 2 §1).

The words are in one catalogue per language, `texts/<language>.json` beside this module: nested objects
whose dotted paths are the keys (`pdf.path_statuses.started`), with `{name}` placeholders filled by
`text`. Both catalogues have the same keys and the same placeholders per key (a test checks)."""

import dataclasses
import json
from functools import cache
from importlib import resources
from typing import Any, Literal, TypeVar, get_origin, get_type_hints

Language = Literal["fr", "en"]
DEFAULT: Language = "fr"
LANGUAGES: tuple[Language, ...] = ("fr", "en")
T = TypeVar("T")


def language(accept_language: str | None) -> Language:
    """The first language of an Accept-Language header that Spot speaks, by preference (q) then
    order ("en-GB,en;q=0.9,fr;q=0.8" is en); French when none is, or when the header is absent."""
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, parameters = part.strip().partition(";")
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        primary = tag.strip().split("-")[0].lower()
        if quality > 0:
            ranked.append((-quality, position, primary))
    for _quality, _position, primary in sorted(ranked):
        for known in LANGUAGES:
            if primary == known:
                return known
    return DEFAULT


class MissingText(LookupError):
    """A key that a catalogue does not have: a bug of the code or of the catalogue."""


@cache
def catalogue(language: Language) -> dict[str, str]:
    """Every text of the language, by dotted key."""
    source = resources.files(__package__ or "spot.core").joinpath("texts", f"{language}.json")
    flat: dict[str, str] = {}

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, dict):
            for name, child in node.items():
                walk(f"{prefix}.{name}" if prefix else name, child)
        else:
            flat[prefix] = node

    walk("", json.loads(source.read_text(encoding="utf-8")))
    return flat


def text(language: Language, key: str, **params: object) -> str:
    """The text of `key` in the language, its placeholders filled with `params` when some are given
    (without, the text as written, placeholders included, for a caller that fills them later)."""
    try:
        template = catalogue(language)[key]
    except KeyError:
        raise MissingText(f"No server text {key!r} in the {language!r} catalogue") from None
    return template.format(**params) if params else template


def group(language: Language, prefix: str) -> dict[str, str]:
    """The texts under `prefix` by the rest of their key, in the catalogue's order: the words of an
    enumeration (`group("fr", "pdf.path_statuses")["started"]` is "Démarré")."""
    start = prefix + "."
    found = {key[len(start) :]: value for key, value in catalogue(language).items() if key.startswith(start)}
    if not found:
        raise MissingText(f"No server texts under {prefix!r} in the {language!r} catalogue")
    return found


def fill(kind: type[T], language: Language, prefix: str) -> T:
    """A dataclass of words read from the catalogue: each `str` field is the text `<prefix>.<field>`,
    each `dict` field the group `<prefix>.<field>`."""
    hints = get_type_hints(kind)
    values: dict[str, object] = {}
    for field in dataclasses.fields(kind):  # type: ignore[arg-type]
        key = f"{prefix}.{field.name}"
        is_group = get_origin(hints[field.name]) is dict
        values[field.name] = group(language, key) if is_group else text(language, key)
    return kind(**values)
