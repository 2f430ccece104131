"""Reads filter text character by character: structure characters, whitespace and escaped runs."""

from dataclasses import dataclass

from spot.querylang.errors import NOT_SPECIAL, UNEXPECTED_CHARACTER, UNTERMINATED_ESCAPE, QueryError

WHITESPACE = frozenset(" \t\r\n")
STRUCTURE = frozenset("&|()")
# What may follow a backslash: the characters that mean something, and 0 for "empty value".
ESCAPABLE = frozenset("\\,") | STRUCTURE | WHITESPACE
EMPTY_MARK = "0"


@dataclass(frozen=True)
class Char:
    """One character of a text run; `\\0` is kept as an escaped empty string so that a value
    made of it alone is present (and empty)."""

    char: str
    position: int
    escaped: bool = False

    @property
    def is_space(self) -> bool:
        return not self.escaped and self.char in WHITESPACE


def _forbidden(char: str) -> bool:
    # NUL cannot be stored by PostgreSQL and lone surrogates cannot be encoded: refused early.
    return char == "\x00" or "\ud800" <= char <= "\udfff"


class Lexer:
    def __init__(self, text: str, source: str = "filter") -> None:
        self.text = text
        self.source = source
        self.pos = 0

    def error(self, message: str, position: int) -> QueryError:
        return QueryError(message, position, self.source)

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def peek(self) -> str:
        """The next character, or "" at the end."""
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def advance(self) -> None:
        self.pos += 1

    def skip_whitespace(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in WHITESPACE:
            self.pos += 1

    def read_run(self) -> list[Char]:
        """Characters up to the next unescaped &, |, ( or ) or the end, escapes decoded."""
        run: list[Char] = []
        text = self.text
        while self.pos < len(text) and text[self.pos] not in STRUCTURE:
            char, start = text[self.pos], self.pos
            if char == "\\":
                if start + 1 >= len(text):
                    raise self.error(UNTERMINATED_ESCAPE, start)
                escaped = text[start + 1]
                if escaped == EMPTY_MARK:
                    run.append(Char("", start, escaped=True))
                elif escaped in ESCAPABLE:
                    run.append(Char(escaped, start, escaped=True))
                else:
                    raise self.error(NOT_SPECIAL, start)
                self.pos += 2
                continue
            if _forbidden(char):
                raise self.error(UNEXPECTED_CHARACTER, start)
            run.append(Char(char, start))
            self.pos += 1
        return run
