"""SCIM filters (RFC 7644 §3.4.2.2) as SQL: the syntax tree scim2-models parses, walked into a
SQLAlchemy condition over Spot's tables. The attributes a filter may name are the ones identity
providers look people and groups up by; any other answers 400 invalidFilter."""

from dataclasses import dataclass
from typing import Any

from scim2_models import InvalidFilterException, ScimFilter
from scim2_models.path import FilterVisitor
from scim2_models.path.expressions import (
    AttrPath,
    CompareOperator,
    Comparison,
    LogicalExpr,
    LogicalOperator,
    Not,
    Present,
    ValuePath,
)
from sqlalchemy import ColumnElement, and_, false, func, not_, or_, select, true
from sqlalchemy.orm import InstrumentedAttribute

from spot.users.models import Group, User, user_group


@dataclass(frozen=True)
class _Text:
    column: InstrumentedAttribute[Any]
    case_exact: bool


@dataclass(frozen=True)
class _Flag:
    column: InstrumentedAttribute[Any]


@dataclass(frozen=True)
class _Id:
    column: InstrumentedAttribute[Any]


@dataclass(frozen=True)
class _Member:
    """A group's members, by the person's id."""


Attribute = _Text | _Flag | _Id | _Member

USER_ATTRIBUTES: dict[tuple[str, str | None], Attribute] = {
    ("id", None): _Id(User.id),
    ("username", None): _Text(User.login, case_exact=False),
    ("externalid", None): _Text(User.external_id, case_exact=True),
    ("emails", None): _Text(User.email, case_exact=False),
    ("emails", "value"): _Text(User.email, case_exact=False),
    ("name", "givenname"): _Text(User.first_name, case_exact=False),
    ("name", "familyname"): _Text(User.last_name, case_exact=False),
    ("active", None): _Flag(User.active),
}
GROUP_ATTRIBUTES: dict[tuple[str, str | None], Attribute] = {
    ("id", None): _Id(Group.id),
    ("displayname", None): _Text(Group.name, case_exact=False),
    ("externalid", None): _Text(Group.external_id, case_exact=True),
    ("members", None): _Member(),
    ("members", "value"): _Member(),
}


def _invalid(detail: str) -> InvalidFilterException:
    return InvalidFilterException(detail=detail)


class _Sql(FilterVisitor[ColumnElement[bool]]):
    def __init__(self, attributes: dict[tuple[str, str | None], Attribute], schema: str) -> None:
        self.attributes = attributes
        self.schema = schema.lower()

    def _attribute(self, path: AttrPath, sub_attr: str | None = None) -> Attribute:
        if path.uri and path.uri.lower() != self.schema:
            raise _invalid(f"unknown schema {path.uri}")
        key = (path.attr.lower(), (sub_attr or path.sub_attr or "").lower() or None)
        attribute = self.attributes.get(key)
        if attribute is None:
            raise _invalid(f"a filter cannot name {path.attr}{'.' + key[1] if key[1] else ''}")
        return attribute

    def visit_comparison(self, node: Comparison) -> ColumnElement[bool]:
        return _compare(self._attribute(node.attr_path), node.op, node.value)

    def visit_present(self, node: Present) -> ColumnElement[bool]:
        attribute = self._attribute(node.attr_path)
        if isinstance(attribute, _Text):
            return and_(attribute.column.is_not(None), attribute.column != "")
        if isinstance(attribute, _Member):
            return select(user_group.c.user_id).where(user_group.c.group_id == Group.id).exists()
        return true()

    def visit_not(self, node: Not) -> ColumnElement[bool]:
        return not_(self.visit(node.expr))

    def visit_logical_expr(self, node: LogicalExpr) -> ColumnElement[bool]:
        terms = [self.visit(term) for term in node.terms]
        return and_(*terms) if node.op == LogicalOperator.and_ else or_(*terms)

    def visit_value_path(self, node: ValuePath) -> ColumnElement[bool]:
        # emails[value eq "x"], members[value eq "7"]: each attribute holds one kind of value here.
        inner = node.val_filter
        if not isinstance(inner, Comparison) or inner.attr_path.attr.lower() != "value":
            raise _invalid("a value filter may only compare the value")
        attribute = self._attribute(node.attr_path, sub_attr="value")
        return _compare(attribute, inner.op, inner.value)


_TEXT_OPERATORS = {CompareOperator.co, CompareOperator.sw, CompareOperator.ew}


def _compare(attribute: Attribute, op: CompareOperator, value: Any) -> ColumnElement[bool]:
    if op not in (CompareOperator.eq, CompareOperator.ne, *_TEXT_OPERATORS):
        raise _invalid(f"the operator {op} is not supported")
    if isinstance(attribute, _Flag):
        if not isinstance(value, bool) or op in _TEXT_OPERATORS:
            raise _invalid("a boolean is compared with eq or ne to true or false")
        condition = attribute.column == value
    elif not isinstance(value, str):
        raise _invalid("this attribute is compared to a string")
    elif isinstance(attribute, _Text):
        condition = _compare_text(attribute, op, value)
    else:
        if op in _TEXT_OPERATORS:
            raise _invalid("an id is compared with eq or ne")
        if not (value.isascii() and value.isdigit() and len(value) <= 10):
            condition = false()
        elif isinstance(attribute, _Id):
            condition = attribute.column == int(value)
        else:
            condition = (
                select(user_group.c.user_id)
                .where(user_group.c.group_id == Group.id, user_group.c.user_id == int(value))
                .exists()
            )
    return not_(condition) if op == CompareOperator.ne else condition


def _compare_text(attribute: _Text, op: CompareOperator, value: str) -> ColumnElement[bool]:
    column: ColumnElement[Any] = attribute.column.expression
    if not attribute.case_exact:
        column, value = func.lower(column), value.lower()
    if op == CompareOperator.co:
        return column.contains(value, autoescape=True)
    if op == CompareOperator.sw:
        return column.startswith(value, autoescape=True)
    if op == CompareOperator.ew:
        return column.endswith(value, autoescape=True)
    return column == value


def condition(
    text: str, attributes: dict[tuple[str, str | None], Attribute], schema: str
) -> ColumnElement[bool]:
    """The filter as a WHERE condition; 400 invalidFilter when it cannot be read or names what Spot
    does not filter on."""
    try:
        parsed: ScimFilter[Any] = ScimFilter(text)
    except InvalidFilterException:
        raise
    except Exception as exc:
        raise _invalid(f"the filter cannot be read: {exc}") from exc
    return _Sql(attributes, schema).visit(parsed.ast)
