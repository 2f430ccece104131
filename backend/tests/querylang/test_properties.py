"""Property tests: printing then parsing gives the same tree; no text raises anything but a
QueryError; and the SQL of any tree selects, orders and pages exactly what the plain-Python
meaning of that tree does (on whichever database the suite runs)."""

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from querylang.querylang_widgets import (
    STATUSES,
    WIDGET,
    Widget,
    holds,
    ids_of,
    ordered,
    rolled_back_session,
    widget_tables,
)
from querylang.strategies import ANY_TEXT, sort_keys, trees
from spot.querylang import QueryError, parse_filter, parse_sort
from spot.querylang.parser import MAX_ID
from spot.querylang.printer import print_filter, print_sort

sorts = sort_keys(WIDGET)

ANY_TREE = trees(WIDGET, ANY_TEXT, st.dates(), st.integers(0, MAX_ID), ANY_TEXT.filter(bool))


@settings(max_examples=400, deadline=None)
@given(tree=ANY_TREE, keys=sorts)
def test_printing_then_parsing_gives_the_same_tree(tree, keys) -> None:
    assert parse_filter(print_filter(tree), WIDGET) == tree
    assert parse_sort(print_sort(keys), WIDGET) == keys


WORDS = [
    "name",
    "note",
    "active",
    "created",
    "due",
    "status",
    "owner",
    "code",
    "tag",
    "location",
    "rank",
    "contains",
    "startsWith",
    "equals",
    "different",
    "sameDay",
    "after",
    "oneOf",
    "noneOf",
    "true",
    "false",
    "2026-03-01",
    "2026-02-30",
    "open",
    "on_hold",
    "1,2",
    "7",
    "x",
    "é",
    "(",
    ")",
    "&",
    "|",
    ",",
    "-",
    "\\",
    "\\0",
    "\\&",
    "\\ ",
    "\\a",
    " ",
    "  ",
    "\t",
]
NEAR_VALID = st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join) | st.lists(
    st.sampled_from(WORDS), max_size=14
).map("".join)


@settings(max_examples=600, deadline=None)
@given(text=st.text(max_size=40) | NEAR_VALID)
def test_any_text_parses_or_raises_a_query_error(text: str) -> None:
    for parse in (parse_filter, parse_sort):
        try:
            result = parse(text, WIDGET)
        except QueryError as error:
            assert 0 <= error.position <= len(text)
            assert error.errors[0].position == error.position
            continue
        if parse is parse_filter:
            assert parse_filter(print_filter(result), WIDGET) == result


# ----- SQL against Python -------------------------------------------------------------------------

PARIS = ZoneInfo("Europe/Paris")
FIRST_DAY = date(2026, 3, 27)  # Paris moves to summer time on 2026-03-29
DAYS = [FIRST_DAY + timedelta(days=n) for n in range(5)]
MIDNIGHTS = [datetime.combine(d, time(), PARIS).astimezone(UTC) for d in DAYS]
EDGES = [m + timedelta(microseconds=delta) for m in MIDNIGHTS for delta in (-1, 0, 1)]
instants = st.one_of(
    st.sampled_from(EDGES),
    st.integers(0, 5 * 24 * 60).map(lambda minutes: MIDNIGHTS[0] + timedelta(minutes=minutes)),
)
small_text = st.text(st.sampled_from("aAeéÉœŒ%_/\\ ,"), max_size=3)
small_ids = st.integers(0, 4)
small_codes = st.sampled_from(["a", "b", "c,d", "É"])
days = st.one_of(st.sampled_from(DAYS), st.sampled_from([date.min, date.max, DAYS[0] - timedelta(days=1)]))


@st.composite
def widget_lists(draw: st.DrawFn) -> list[Widget]:
    count = draw(st.integers(0, 10))
    return [
        Widget(
            id=index + 1,
            name=draw(small_text),
            note=draw(st.none() | small_text),
            active=draw(st.none() | st.booleans()),
            created_at=draw(st.none() | instants),
            due=draw(st.none() | st.sampled_from(DAYS)),
            status=draw(st.none() | st.sampled_from(STATUSES)),
            owner_id=draw(st.none() | small_ids),
            code=draw(st.none() | small_codes),
            tags=draw(st.sets(small_ids, max_size=3)),
            places=draw(st.sets(small_ids, max_size=3)),
        )
        for index in range(count)
    ]


@pytest.fixture(scope="module")
def tables(app) -> Iterator[None]:
    with widget_tables():
        yield


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    widgets=widget_lists(),
    tree=st.none() | trees(WIDGET, small_text, days, small_ids, small_codes),
    keys=sorts,
    page=st.integers(1, 4),
    page_size=st.integers(1, 4),
)
def test_sql_selects_orders_and_pages_like_python(tables, widgets, tree, keys, page, page_size) -> None:
    matching = ordered([w for w in widgets if tree is None or holds(tree, w)], keys)
    expected = [w.id for w in matching][(page - 1) * page_size : page * page_size]
    with rolled_back_session(widgets) as session:
        assert ids_of(session, tree, keys, page, page_size) == (expected, len(matching))
