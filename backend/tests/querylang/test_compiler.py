"""Every operator of every field type, run in the database (SQLite or PostgreSQL)."""

from collections.abc import Iterator
from datetime import date

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, insert, or_, select, text
from sqlalchemy import Enum as SqlEnum
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from querylang.querylang_widgets import (
    Widget,
    ids_of,
    rolled_back_session,
    utc,
    widget,
    widget_tables,
    widget_tag,
)
from spot import db as database
from spot.config import get_settings
from spot.querylang import EntityType, Field, FieldType, QueryError, in_query, run_query
from spot.querylang.text import FOLD_FROM, LIGATURES, fold

WIDGETS = [
    Widget(
        1,
        "Élève Œuvre",
        None,
        True,
        utc("2026-03-10T23:30:00"),
        date(2026, 3, 10),
        "open",
        1,
        "A-1",
        {1, 2},
        {10},
    ),
    Widget(
        2,
        "eleve oeuvre",
        "100% pur_jus",
        False,
        utc("2026-03-10T22:30:00"),
        None,
        "closed",
        None,
        None,
        set(),
        {10, 11},
    ),
    Widget(3, "Pompe à eau", "", None, None, date(2026, 3, 12), None, 2, "b,2", {2}, set()),
    Widget(
        4, "ZEBRE", "x_y", True, utc("2026-03-12T12:00:00"), date(2026, 3, 11), "draft", 1, None, {3}, {12}
    ),
]
ALL = {1, 2, 3, 4}


@pytest.fixture(scope="module")
def tables(app) -> Iterator[None]:
    with widget_tables():
        yield


@pytest.fixture
def session(tables) -> Iterator[Session]:
    with rolled_back_session(WIDGETS) as session:
        yield session


@pytest.mark.parametrize(
    ("filter", "expected"),
    [
        # string: case and accents ignored on both sides, LIKE wildcards taken literally, NULL reads as ""
        ("name contains eleve", {1, 2}),
        ("name contains ŒUV", {1, 2}),
        ("name contains ÈV", {1, 2}),
        ("name contains è", ALL),
        ("name startsWith pompe", {3}),
        ("name endsWith EAU", {3}),
        ("name equals élève œuvre", {1, 2}),
        ("name different élève œuvre", {3, 4}),
        ("note contains %", {2}),
        ("note contains _", {2, 4}),
        ("note startsWith 100%", {2}),
        ("note endsWith _y", {4}),
        ("note equals \\0", {1, 3}),
        ("note different \\0", {2, 4}),
        ("note contains \\0", ALL),
        # boolean: NULL reads as false
        ("active equals true", {1, 4}),
        ("active equals false", {2, 3}),
        ("has_note equals true", {2, 3, 4}),
        ("has_note equals false", {1}),
        # time stamps: calendar days of Europe/Paris (widget 1 is 03-11 00:30 there, widget 2 03-10 23:30)
        ("created sameDay 2026-03-11", {1}),
        ("created sameDay 2026-03-10", {2}),
        ("created before 2026-03-11", {2}),
        ("created beforeOrSameDay 2026-03-11", {1, 2}),
        ("created after 2026-03-11", {4}),
        ("created afterOrSameDay 2026-03-11", {1, 4}),
        ("created afterOrSameDay 0001-01-01", {1, 2, 4}),
        ("created before 0001-01-01", set()),
        ("created beforeOrSameDay 9999-12-31", {1, 2, 4}),
        ("created after 9999-12-31", set()),
        ("created sameDay 9999-12-31", set()),
        # calendar dates
        ("due sameDay 2026-03-11", {4}),
        ("due before 2026-03-11", {1}),
        ("due beforeOrSameDay 2026-03-11", {1, 4}),
        ("due after 2026-03-11", {3}),
        ("due afterOrSameDay 2026-03-11", {3, 4}),
        # enum and ids: noneOf is the negation of oneOf, missing values included
        ("status oneOf open,draft", {1, 4}),
        ("status noneOf open", {2, 3, 4}),
        ("owner oneOf 1", {1, 4}),
        ("owner noneOf 1", {2, 3}),
        ("code oneOf b\\,2", {3}),
        ("code noneOf A-1", {2, 3, 4}),
        ("tag oneOf 2", {1, 3}),
        ("tag oneOf 2,3", {1, 3, 4}),
        ("tag noneOf 2", {2, 4}),
        ("location oneOf 10", {1, 2}),
        ("location oneOf 11,12", {2, 4}),
        ("location noneOf 10,12", {3}),
        # structure
        ("name contains eleve & (active equals true | owner noneOf 1)", {1, 2}),
        ("name contains eleve & active equals true & owner oneOf 1", {1}),
        ("(status oneOf open & tag oneOf 1) | (status oneOf draft & location oneOf 12)", {1, 4}),
        ("", ALL),
    ],
)
def test_filters(session: Session, filter: str, expected: set[int]) -> None:
    ids, total = ids_of(session, filter)
    assert set(ids) == expected
    assert total == len(expected)


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("", [1, 2, 3, 4]),
        ("name", [1, 2, 3, 4]),
        ("-name", [4, 3, 1, 2]),
        ("created", [2, 1, 4, 3]),
        ("-created", [4, 1, 2, 3]),
        ("due", [1, 4, 3, 2]),
        ("-due", [3, 4, 1, 2]),
        ("status", [3, 2, 4, 1]),
        ("-active,name", [1, 4, 2, 3]),
        ("note,-name", [3, 1, 2, 4]),
        ("rank", [2, 4, 1, 3]),
    ],
)
def test_sorts_end_with_the_primary_key(session: Session, sort: str, expected: list[int]) -> None:
    assert ids_of(session, "", sort) == (expected, 4)


def test_pages_and_totals(session: Session) -> None:
    assert ids_of(session, "", "-name", page=1, page_size=3) == ([4, 3, 1], 4)
    assert ids_of(session, "", "-name", page=2, page_size=3) == ([2], 4)
    assert ids_of(session, "", "-name", page=3, page_size=3) == ([], 4)
    assert ids_of(session, "name contains e", "name", page=2, page_size=1) == ([2], 4)
    assert ids_of(session, "status oneOf open", page=1, page_size=2) == ([1], 1)
    assert ids_of(session, "status oneOf open", page=2, page_size=2) == ([], 1)


def test_bad_texts_raise_query_errors_naming_their_source(session: Session) -> None:
    with pytest.raises(QueryError) as caught:
        ids_of(session, "name contains a", "-tag")
    assert (caught.value.source, caught.value.position) == ("sort", 1)
    with pytest.raises(QueryError) as caught:
        ids_of(session, "name oneOf a")
    assert (caught.value.source, caught.value.position) == ("filter", 5)


def test_out_of_range_pages_are_a_programming_error(session: Session) -> None:
    for page, size in ((0, 50), (1, 0), (1, 201)):
        with pytest.raises(ValueError):
            ids_of(session, "", "", page=page, page_size=size)


def test_days_follow_the_organisation_time_zone(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPOT_TIMEZONE", "America/New_York")
    get_settings.cache_clear()
    try:
        assert set(ids_of(session, "created sameDay 2026-03-10")[0]) == {1, 2}
        assert set(ids_of(session, "created sameDay 2026-03-12")[0]) == {4}
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()


def test_the_sql_function_folds_exactly_like_python(session: Session) -> None:
    samples = [FOLD_FROM, "".join(LIGATURES), "Straße Ωmega ǅ ÿ ĳ ﬁ", "déjà VU, Noël & Cœur — 100 % ÆSIR"]
    folded = [session.scalar(select(text("unaccent_lower(:s)")).params(s=s)) for s in samples]
    assert folded == [fold(s) for s in samples]
    assert session.scalar(select(text("unaccent_lower(NULL)"))) is None


def test_a_database_enum_type_filters_and_sorts(app) -> None:
    """PostgreSQL enum types have no collation: sorting reads them as text."""
    metadata = MetaData()
    table = Table(
        "ql_kinded",
        metadata,
        Column("id", Integer, primary_key=True, autoincrement=False),
        Column("kind", SqlEnum("zeta", "alpha", name="ql_kind")),
    )
    kinded = EntityType(
        name="ql_kinded",
        primary_key=table.c.id,
        fields=[Field("kind", FieldType.ENUM, column=table.c.kind, values=("zeta", "alpha"), sortable=True)],
    )
    engine = database.get_engine()
    metadata.create_all(engine)
    try:
        with Session(engine) as session:
            session.execute(
                insert(table),
                [{"id": 1, "kind": "zeta"}, {"id": 2, "kind": "alpha"}, {"id": 3, "kind": None}],
            )
            query = select(table.c.id)
            assert run_query(session, kinded, query, "", "kind") == ([3, 2, 1], 3)
            assert run_query(session, kinded, query, "kind noneOf alpha", "-kind") == ([1, 3], 2)
    finally:
        metadata.drop_all(engine)


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        # startsWith is a range [prefix, prefix with its last character incremented) where it can be,
        ("ab", {1, 2}),
        # past the surrogates, which no text holds, when the last character is U+D7FF,
        ("x\ud7ff", {4, 5}),
        # and a LIKE when the last character is the last code point.
        ("y\U0010ffff", {7}),
    ],
)
def test_starts_with_at_the_edges_of_code_points(tables, prefix: str, expected: set[int]) -> None:
    names = ["ab", "abc", "ac", "x\ud7ff", "x\ud7ffz", "x\ue000", "y\U0010ffffz", "y\U0010ffff"[:1]]
    widgets = [Widget(i, name) for i, name in enumerate(names, start=1)]
    escaped = prefix.replace("\\", "\\\\")
    with rolled_back_session(widgets) as session:
        ids, _ = ids_of(session, f"name startsWith {escaped}")
    assert set(ids) == expected


def test_in_query_is_a_plain_condition_and_an_index_condition_on_postgresql() -> None:
    tagged = select(widget_tag.c.widget_id).where(widget_tag.c.tag_id == 3)
    condition = or_(in_query(widget.c.id, tagged), widget.c.owner_id == 1)
    # Not "... = 1" on SQLite, which would keep it from using indexes for each side of the OR.
    assert str(condition.compile(dialect=sqlite.dialect())).startswith("ql_widget.id IN (SELECT ")
    assert " = 1" not in str(condition.compile(dialect=sqlite.dialect())).replace("owner_id = ", "")
    assert str(condition.compile(dialect=postgresql.dialect())).startswith("ql_widget.id = ANY(ARRAY(SELECT ")
