"""Trees back to text that parses to the same tree (values escaped where the grammar needs it)."""

from datetime import date

from spot.querylang.lexer import STRUCTURE, WHITESPACE
from spot.querylang.tree import And, Criterion, Node, SortKey, Value


def print_filter(node: Node | None) -> str:
    if node is None:
        return ""
    if isinstance(node, Criterion):
        return f"{node.field} {node.operator} {print_value(node.value)}"
    joiner = " & " if isinstance(node, And) else " | "
    return joiner.join(
        print_filter(c) if isinstance(c, Criterion) else f"({print_filter(c)})" for c in node.children
    )


def print_sort(keys: tuple[SortKey, ...] | list[SortKey]) -> str:
    return ",".join(("-" if key.descending else "") + key.field for key in keys)


def print_value(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return ",".join(str(v) if isinstance(v, int) else escape(v, in_list=True) for v in value)
    return escape(value)


def escape(text: str, in_list: bool = False) -> str:
    r"""Backslash before structure characters, backslashes, commas of list items, and the first and
    last characters when they are whitespace (which would otherwise be trimmed); \0 for ""."""
    if not text:
        return "\\0"
    special = STRUCTURE | {"\\", ","} if in_list else STRUCTURE | {"\\"}
    last = len(text) - 1
    return "".join(
        "\\" + char if char in special or (char in WHITESPACE and index in (0, last)) else char
        for index, char in enumerate(text)
    )
