r"""The list query language: every list of Spot is filtered, sorted and paged with it, in SQL.

Filter text
-----------
    filter     := blank | sequence
    sequence   := primary ( "&" primary )*  |  primary ( "|" primary )*
    primary    := "(" sequence ")" | criterion
    criterion  := field operator value          (field and operator end at whitespace)

- `&` is "and", `|` is "or"; one level never mixes them: `a & b | c` is an error, write
  `(a & b) | c`. Parentheses around a single criterion are allowed and leave no trace in the tree.
- field and operator are ASCII identifiers (`created_date`, `startsWith`); the value is
  everything after the operator up to the next unescaped `&`, `|`, `(` or `)`, with the
  whitespace around it trimmed. Spaces inside a value are kept: `name contains pompe à eau`.
- A backslash escapes `\ & | ( ) ,` and whitespace (`\ ` keeps a leading or trailing space);
  `\0` is the empty value (`external_id equals \0`). Any other escape is an error.
- Operators and values by field type:
    string    contains, startsWith, endsWith, equals, different — ignoring case and accents
              (see text.py); a missing value (NULL) reads as "".
    date      sameDay, before, beforeOrSameDay, after, afterOrSameDay + YYYY-MM-DD, a calendar day
              of the organisation's time zone (SPOT_TIMEZONE); a missing date matches none.
    boolean   equals + true or false (a missing value reads as false).
    enum      oneOf, noneOf + comma list of the enum's values: `status oneOf started,paused`.
    id        oneOf, noneOf + comma list of ids, integers up to 2^31-1: `group oneOf 3,7`
              (or of codes, for a field declared with id_type=str).
    location  oneOf, noneOf + comma list of hierarchy item ids; an entity matches when one of its
              context items is in the list: `location oneOf 12,14`.
  noneOf is exactly the negation of oneOf (an entity with no value is in "noneOf anything").

Example: `name contains pompe & (followed equals true | created_date after 2026-01-01)`.

Sort text: a comma list of sortable fields, `-` for descending: `-updated_date,name`. Id and
location fields are never sortable. Text sorts by its folded form, missing dates come last either
way, and the primary key always ends the order, so pages are stable.

`print_filter` / `print_sort` write the canonical text of a tree, which parses back to it.

Errors are QueryError (an ApiError answering 400) with one of the messages of errors.py and the
offset, in Unicode code points from 0, where the problem is; the body reads
`{"message": "...", "errors": [{"field": "filter", "code": "<message>", "position": 12}]}`.

Registering an entity type (from the area that owns it, e.g. `spot/subjects/query.py`, imported
by that area's routes so it is registered whenever the app is built)::

    from spot.querylang import EntityType, Field, FieldType, SortKey, register

    SUBJECT = register(EntityType(
        name="subject",                       # as in /querylang/subject/... and saved filters
        primary_key=Subject.id,
        fields=[
            Field("name", FieldType.STRING, column=Subject.name, sortable=True),
            Field("created_date", FieldType.DATE, column=Subject.created_at, sortable=True),
            Field("followed", FieldType.BOOLEAN, column=Subject.followed_at.is_not(None)),
            Field("node_status", FieldType.ENUM, values=NODE_STATUSES,
                  matches=lambda statuses: exists().where(Node.subject_id == Subject.id,
                                                          Node.code == 0, Node.status.in_(statuses))),
            Field("location", FieldType.LOCATION,
                  matches=lambda ids: exists().where(SubjectContext.subject_id == Subject.id,
                                                     SubjectContext.item_id.in_(ids))),
        ],
        default_sort=[SortKey("updated_date", descending=True)],
    ))

and its list route::

    @router.post("/query")
    def query_subjects(db: DB, user: CurrentUser, data: QueryRequest) -> QueryResult[SubjectCard]:
        rows, total = run_query(db, SUBJECT, visible_subjects(user), data.filter, data.sort,
                                data.page, data.page_size)
        return QueryResult[SubjectCard](results=[...], total_items=total)

`column` is any scalar SQL expression of the listed entity; `matches` builds "has one of these
values" (never NULL: use EXISTS) for enum, id and location fields; `clause(operator, value)` builds
anything else. For large tables, index what the filters use: the column itself for dates, ids and
enums, and on PostgreSQL `((unaccent_lower(col)) COLLATE "C")` (`coalesce(col, '')` inside for a
nullable column) for text that is sorted, compared with equals or startsWith: `folded(col)` is the
exact expression the compiler writes, and that one index serves all three. On SQLite that expression
calls a Python function for every row: for big tables keep a folded copy of the text instead
(`Field.folded`, a column equal to `text.fold(col)`, "C" collation on PostgreSQL) and index it; it
then serves `contains` too, by a scan of the index alone (on SQLite, the count of a `contains`
reads an FTS5 trigram table of it instead when the field names one: `Field.trigrams`). A
`matches` that reaches ids through other tables inside an OR should use `in_query(column, select)`,
which PostgreSQL plans as an index condition. Counted lists read every matching row's index entry:
keep what a count filters on (the user's visibility included) in the index it scans, or out of the
query when it is true for everyone.
"""

from spot.querylang.compiler import compile_filter, compile_sort, folded, in_query
from spot.querylang.errors import QueryError
from spot.querylang.fields import (
    EntityType,
    Field,
    FieldType,
    entity_names,
    find_entity,
    get_entity,
    register,
)
from spot.querylang.parser import parse_filter, parse_sort
from spot.querylang.printer import print_filter, print_sort
from spot.querylang.service import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, run_query
from spot.querylang.tree import And, Criterion, Node, Or, SortKey

__all__ = [
    "DEFAULT_PAGE_SIZE",
    "MAX_PAGE_SIZE",
    "And",
    "Criterion",
    "EntityType",
    "Field",
    "FieldType",
    "Node",
    "Or",
    "QueryError",
    "SortKey",
    "compile_filter",
    "compile_sort",
    "entity_names",
    "find_entity",
    "folded",
    "in_query",
    "get_entity",
    "parse_filter",
    "parse_sort",
    "print_filter",
    "print_sort",
    "register",
    "run_query",
]
