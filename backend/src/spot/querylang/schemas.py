from datetime import date
from typing import Annotated, Generic, Literal, TypeVar, Union

from pydantic import Field, StrictInt

from spot.core.errors import FieldError
from spot.core.schemas import CamelModel
from spot.querylang.fields import EntityType, FieldType
from spot.querylang.fields import Field as QueryField
from spot.querylang.service import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE
from spot.querylang.tree import And, Criterion, Node, SortKey

MAX_FILTER_LENGTH = 4000
MAX_SORT_LENGTH = 500
MAX_PAGE = 1_000_000

FilterText = Annotated[str, Field(max_length=MAX_FILTER_LENGTH)]
SortText = Annotated[str, Field(max_length=MAX_SORT_LENGTH)]


class QueryRequest(CamelModel):
    """The body of every POST /<entity>/query."""

    filter: FilterText = ""
    sort: SortText = ""
    page: StrictInt = Field(default=1, ge=1, le=MAX_PAGE)
    page_size: StrictInt = Field(default=DEFAULT_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE)


T = TypeVar("T")


class QueryResult(CamelModel, Generic[T]):
    results: list[T]
    total_items: int


class QueryParseRequest(CamelModel):
    filter: FilterText = ""
    sort: SortText = ""


class FilterCriterionOut(CamelModel):
    """One term; `value` for string (text), date (YYYY-MM-DD) and boolean fields, `values` for the others."""

    kind: Literal["criterion"] = "criterion"
    field: str
    operator: str
    type: FieldType
    value: str | bool | None = None
    values: list[int | str] | None = None


class FilterGroupOut(CamelModel):
    kind: Literal["and", "or"]
    children: list[Annotated[Union[FilterCriterionOut, "FilterGroupOut"], Field(discriminator="kind")]]


class SortKeyOut(CamelModel):
    field: str
    descending: bool


class QueryParseResult(CamelModel):
    filter: Annotated[FilterCriterionOut | FilterGroupOut, Field(discriminator="kind")] | None
    sort: list[SortKeyOut]


class QueryCheckResult(CamelModel):
    """A text being typed, checked: its trees, or the error of the first problem (as a 400's errors).

    The editor checks as the user types; a refusal is the expected answer there, not a failed call.
    """

    filter: Annotated[FilterCriterionOut | FilterGroupOut, Field(discriminator="kind")] | None = None
    sort: list[SortKeyOut] = []
    errors: list[FieldError] = []


class QueryFieldOut(CamelModel):
    name: str
    type: FieldType
    operators: list[str]
    values: list[str]
    filterable: bool
    sortable: bool


class QueryFieldsOut(CamelModel):
    entity_type: str
    fields: list[QueryFieldOut]
    default_sort: list[SortKeyOut]


def node_out(node: Node, entity: EntityType) -> FilterCriterionOut | FilterGroupOut:
    if isinstance(node, Criterion):
        field = entity.field(node.field)
        assert field is not None
        value = node.value
        if isinstance(value, tuple):
            return FilterCriterionOut(
                field=node.field, operator=node.operator, type=field.type, values=list(value)
            )
        text = value.isoformat() if isinstance(value, date) else value
        return FilterCriterionOut(field=node.field, operator=node.operator, type=field.type, value=text)
    kind: Literal["and", "or"] = "and" if isinstance(node, And) else "or"
    return FilterGroupOut(kind=kind, children=[node_out(child, entity) for child in node.children])


def sort_out(keys: tuple[SortKey, ...]) -> list[SortKeyOut]:
    return [SortKeyOut(field=k.field, descending=k.descending) for k in keys]


def field_out(field: QueryField) -> QueryFieldOut:
    return QueryFieldOut(
        name=field.name,
        type=field.type,
        operators=list(field.operators),
        values=list(field.values),
        filterable=field.filterable,
        sortable=field.sortable,
    )
