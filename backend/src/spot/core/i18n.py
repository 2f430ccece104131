"""Texts the server writes itself for people to read (sheet names and headers of exported files), in
the language the client asks for. Messages of the API are keys, translated by the client; only files
the server builds carry words. French is the default and the fallback (spec 2 §1)."""

from typing import Literal, TypeVar

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


def texts(catalogue: dict[Language, T], accept_language: str | None) -> T:
    """The catalogue's entry in the language of the header."""
    return catalogue[language(accept_language)]
