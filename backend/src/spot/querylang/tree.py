"""The syntax tree of a filter and of a sort. Values are already typed by the field they apply to."""

from dataclasses import dataclass
from datetime import date

# string → str, boolean → bool, date → date, enum → tuple[str, ...],
# id → tuple[int, ...] (or tuple[str, ...] for fields keyed by a code), location → tuple[int, ...]
Value = str | bool | date | tuple[int | str, ...]


@dataclass(frozen=True)
class Criterion:
    field: str
    operator: str
    value: Value


@dataclass(frozen=True)
class And:
    """All children hold; there are always at least two."""

    children: tuple["Node", ...]


@dataclass(frozen=True)
class Or:
    """At least one child holds; there are always at least two."""

    children: tuple["Node", ...]


Node = Criterion | And | Or


@dataclass(frozen=True)
class SortKey:
    field: str
    descending: bool = False
