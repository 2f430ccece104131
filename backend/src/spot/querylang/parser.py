"""Filter and sort texts to trees, checked against an entity type's fields (grammar: see __init__)."""

import re
from datetime import date

from spot.querylang import errors as e
from spot.querylang.fields import LIST_TYPES, EntityType, Field, FieldType
from spot.querylang.lexer import Char, Lexer
from spot.querylang.tree import And, Criterion, Node, Or, SortKey, Value

MAX_DEPTH = 32
# Integer keys are 32-bit on PostgreSQL: a bigger id can match nothing and must not reach the database.
MAX_ID = 2**31 - 1
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DIGITS = re.compile(r"[0-9]+")


def parse_filter(text: str, entity: EntityType) -> Node | None:
    """The tree of a filter text; None when the text is blank (no filtering)."""
    return _FilterParser(text, entity).parse()


def parse_sort(text: str, entity: EntityType) -> tuple[SortKey, ...]:
    """Sort keys of a text such as "name,-created_date"; empty when the text is blank."""
    if not text.strip(" \t\r\n"):
        return ()
    keys = []
    start = 0
    for item in text.split(","):
        keys.append(_sort_key(item, start, entity))
        start += len(item) + 1
    return tuple(keys)


def _sort_key(item: str, start: int, entity: EntityType) -> SortKey:
    lead = len(item) - len(item.lstrip(" \t\r\n"))
    word = item.strip(" \t\r\n")
    position = start + lead
    descending = word.startswith("-")
    if descending:
        word, position = word[1:], position + 1
    if not word:
        raise e.QueryError(e.EMPTY_TOKEN, position, "sort")
    match = _IDENTIFIER.match(word)
    matched = match.end() if match else 0
    if matched < len(word):
        raise e.QueryError(e.UNEXPECTED_CHARACTER, position + matched, "sort")
    field = entity.field(word)
    if field is None or not field.sortable:
        raise e.QueryError(e.INVALID_FIELD, position, "sort")
    return SortKey(word, descending)


class _FilterParser:
    def __init__(self, text: str, entity: EntityType) -> None:
        self.lexer = Lexer(text)
        self.entity = entity

    def error(self, message: str, position: int) -> e.QueryError:
        return self.lexer.error(message, position)

    def parse(self) -> Node | None:
        lexer = self.lexer
        lexer.skip_whitespace()
        if lexer.at_end():
            return None
        node = self._sequence(depth=0)
        if not lexer.at_end():  # _sequence stops only at the end or at a ")"
            raise self.error(e.NO_MATCHING_PARENTHESIS, lexer.pos)
        return node

    def _sequence(self, depth: int) -> Node:
        """Primaries joined by one kind of operator, up to the end or a ")"."""
        lexer = self.lexer
        children = [self._primary(depth)]
        joiner = ""
        while True:
            lexer.skip_whitespace()
            char = lexer.peek()
            if char in ("", ")"):
                break
            if char not in "&|":
                raise self.error(e.UNEXPECTED_CHARACTER, lexer.pos)
            if joiner and char != joiner:
                raise self.error(e.MIXED_OPERATORS, lexer.pos)
            joiner, operator_position = char, lexer.pos
            lexer.advance()
            lexer.skip_whitespace()
            if lexer.peek() in ("", ")", "&", "|"):
                raise self.error(e.MISSING_TERM, operator_position)
            children.append(self._primary(depth))
        if len(children) == 1:
            return children[0]
        return And(tuple(children)) if joiner == "&" else Or(tuple(children))

    def _primary(self, depth: int) -> Node:
        lexer = self.lexer
        lexer.skip_whitespace()
        char, start = lexer.peek(), lexer.pos
        if char == "(":
            if depth >= MAX_DEPTH:
                raise self.error(e.TOO_DEEP, start)
            lexer.advance()
            lexer.skip_whitespace()
            if lexer.peek() == ")":
                raise self.error(e.EMPTY_PARENTHESIS, start)
            if lexer.at_end():
                raise self.error(e.NO_MATCHING_PARENTHESIS, start)
            node = self._sequence(depth + 1)
            if lexer.peek() != ")":
                raise self.error(e.NO_MATCHING_PARENTHESIS, start)
            lexer.advance()
            return node
        if char in (")", "&", "|"):
            raise self.error(e.UNEXPECTED_CHARACTER, start)
        return self._criterion()

    def _criterion(self) -> Criterion:
        run = self.lexer.read_run()
        end = self.lexer.pos
        name, rest = self._word(run)
        field = self.entity.field(name[1])
        if field is None or not field.filterable:
            raise self.error(e.INVALID_FIELD, name[0])
        if not rest:
            raise self._missing(end)
        operator, rest = self._word(rest)
        if operator[1] not in field.operators:
            raise self.error(e.INVALID_OPERATOR, operator[0])
        while rest and rest[-1].is_space:
            rest.pop()
        if not rest:
            raise self._missing(end)
        return Criterion(field.name, operator[1], self._value(field, rest))

    def _missing(self, end: int) -> e.QueryError:
        """A criterion cut short: by an opening parenthesis (misplaced), or by the end of its text."""
        if self.lexer.peek() == "(":
            return self.error(e.UNEXPECTED_CHARACTER, end)
        return self.error(e.EMPTY_TOKEN, end)

    def _word(self, run: list[Char]) -> tuple[tuple[int, str], list[Char]]:
        """An identifier at the start of the run, and the run after it and its trailing spaces."""
        length = 0
        while length < len(run) and not run[length].is_space:
            length += 1
        for index, char in enumerate(run[:length]):
            allowed = char.char.isascii() and (
                char.char.isalpha() or char.char == "_" or (index > 0 and char.char.isdigit())
            )
            if char.escaped or not allowed:
                raise self.error(e.UNEXPECTED_CHARACTER, char.position)
        word = "".join(c.char for c in run[:length])
        rest = run[length:]
        while rest and rest[0].is_space:
            rest = rest[1:]
        return (run[0].position, word), list(rest)

    def _value(self, field: Field, run: list[Char]) -> Value:
        if field.type in LIST_TYPES:
            return tuple(self._member(field, item, position) for item, position in self._items(run))
        text = "".join(c.char for c in run)
        position = run[0].position
        if field.type == FieldType.STRING:
            return text
        if field.type == FieldType.BOOLEAN:
            if text not in ("true", "false"):
                raise self.error(e.INVALID_VALUE, position)
            return text == "true"
        return self._date(text, position)

    def _items(self, run: list[Char]) -> list[tuple[str, int]]:
        """The comma-separated items of a list value, each trimmed, with its position."""
        items: list[tuple[str, int]] = []
        current: list[Char] = []
        for char in [*run, None]:
            if char is not None and (char.escaped or char.char != ","):
                current.append(char)
                continue
            while current and current[0].is_space:
                current.pop(0)
            while current and current[-1].is_space:
                current.pop()
            if not current:
                position = char.position if char is not None else run[-1].position + 1
                raise self.error(e.EMPTY_TOKEN, position)
            items.append(("".join(c.char for c in current), current[0].position))
            current = []
        return items

    def _member(self, field: Field, text: str, position: int) -> int | str:
        if field.type == FieldType.ENUM:
            if text not in field.values:
                raise self.error(e.INVALID_VALUE, position)
            return text
        if field.type == FieldType.ID and field.id_type is str:
            if not text:
                raise self.error(e.INVALID_VALUE, position)
            return text
        if not _DIGITS.fullmatch(text) or int(text) > MAX_ID:
            raise self.error(e.INVALID_VALUE, position)
        return int(text)

    def _date(self, text: str, position: int) -> date:
        if _DATE.fullmatch(text):
            try:
                return date.fromisoformat(text)
            except ValueError:
                pass
        raise self.error(e.INVALID_DATE, position)
