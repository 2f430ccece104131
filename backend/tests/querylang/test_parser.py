"""The language itself: every error message with its position, every operator of every type,
escapes, and the canonical text the printer writes."""

from datetime import date

import pytest

from querylang.querylang_widgets import WIDGET
from spot.querylang import (
    And,
    Criterion,
    Or,
    QueryError,
    SortKey,
    parse_filter,
    parse_sort,
    print_filter,
    print_sort,
)
from spot.querylang import errors as e


def parse(text: str):
    return parse_filter(text, WIDGET)


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("name contains abc\\", e.UNTERMINATED_ESCAPE, 17),
        ("name contains a\\bc", e.NOT_SPECIAL, 15),
        ("name contains a\\-", e.NOT_SPECIAL, 15),
        ("na-me contains a", e.UNEXPECTED_CHARACTER, 2),
        ("name contains a (b)", e.UNEXPECTED_CHARACTER, 16),
        ("name contains (b)", e.UNEXPECTED_CHARACTER, 14),
        ("& name contains a", e.UNEXPECTED_CHARACTER, 0),
        (") name contains a", e.UNEXPECTED_CHARACTER, 0),
        ("(name contains a) name contains b", e.UNEXPECTED_CHARACTER, 18),
        ("n\\&ame contains a", e.UNEXPECTED_CHARACTER, 1),
        ("name contains a\x00b", e.UNEXPECTED_CHARACTER, 15),
        ("name contains ab\ud800", e.UNEXPECTED_CHARACTER, 16),
        ("name cont\u00e9ins a", e.UNEXPECTED_CHARACTER, 9),
        ("(name contains a", e.NO_MATCHING_PARENTHESIS, 0),
        ("name contains a & (note contains b", e.NO_MATCHING_PARENTHESIS, 18),
        ("name contains a)", e.NO_MATCHING_PARENTHESIS, 15),
        ("((name contains a)", e.NO_MATCHING_PARENTHESIS, 0),
        ("name", e.EMPTY_TOKEN, 4),
        ("name contains", e.EMPTY_TOKEN, 13),
        ("name contains   & note contains a", e.EMPTY_TOKEN, 16),
        ("(name contains )", e.EMPTY_TOKEN, 15),
        ("tag oneOf 1,,2", e.EMPTY_TOKEN, 12),
        ("tag oneOf 1, ,2", e.EMPTY_TOKEN, 13),
        ("tag oneOf ,1", e.EMPTY_TOKEN, 10),
        ("tag oneOf 1,", e.EMPTY_TOKEN, 12),
        ("colour contains a", e.INVALID_FIELD, 0),
        ("name contains a | rank contains b", e.INVALID_FIELD, 18),
        ("Name contains a", e.INVALID_FIELD, 0),
        ("name before 2026-01-01", e.INVALID_OPERATOR, 5),
        ("name Contains a", e.INVALID_OPERATOR, 5),
        ("created contains 2026", e.INVALID_OPERATOR, 8),
        ("active contains true", e.INVALID_OPERATOR, 7),
        ("status equals open", e.INVALID_OPERATOR, 7),
        ("tag equals 1", e.INVALID_OPERATOR, 4),
        ("location contains 1", e.INVALID_OPERATOR, 9),
        ("name contains a &", e.MISSING_TERM, 16),
        ("name contains a | ", e.MISSING_TERM, 16),
        ("name contains a & & note contains b", e.MISSING_TERM, 16),
        ("(name contains a & )", e.MISSING_TERM, 17),
        ("()", e.EMPTY_PARENTHESIS, 0),
        ("name contains a & (  )", e.EMPTY_PARENTHESIS, 18),
        ("created after 2026-1-01", e.INVALID_DATE, 14),
        ("created after 2026-02-30", e.INVALID_DATE, 14),
        ("due sameDay 01/02/2026", e.INVALID_DATE, 12),
        ("due sameDay \\0", e.INVALID_DATE, 12),
        ("name contains a & note contains b | active equals true", e.MIXED_OPERATORS, 34),
        ("(a contains b", e.INVALID_FIELD, 1),
        ("status oneOf open,pending", e.INVALID_VALUE, 18),
        ("status oneOf Open", e.INVALID_VALUE, 13),
        ("active equals yes", e.INVALID_VALUE, 14),
        ("active equals TRUE", e.INVALID_VALUE, 14),
        ("owner oneOf 1,x", e.INVALID_VALUE, 14),
        ("owner oneOf -1", e.INVALID_VALUE, 12),
        ("owner oneOf 99999999999999999999", e.INVALID_VALUE, 12),
        ("owner oneOf 1,2147483648", e.INVALID_VALUE, 14),
        ("location noneOf 1.5", e.INVALID_VALUE, 16),
        ("code oneOf \\0", e.INVALID_VALUE, 11),
        ("(" * 33 + "name contains a" + ")" * 33, e.TOO_DEEP, 32),
    ],
)
def test_each_error_has_its_message_and_position(text: str, message: str, position: int) -> None:
    with pytest.raises(QueryError) as caught:
        parse(text)
    assert (caught.value.message, caught.value.position) == (message, position)
    assert caught.value.status == 400
    assert caught.value.errors[0].model_dump() == {"field": "filter", "code": message, "position": position}


def test_every_spec_message_is_produced_by_some_text() -> None:
    spec = {
        e.UNTERMINATED_ESCAPE,
        e.NOT_SPECIAL,
        e.UNEXPECTED_CHARACTER,
        e.NO_MATCHING_PARENTHESIS,
        e.EMPTY_TOKEN,
        e.INVALID_FIELD,
        e.INVALID_OPERATOR,
        e.MISSING_TERM,
        e.EMPTY_PARENTHESIS,
        e.INVALID_DATE,
    }
    assert spec == {
        "Unterminated escape sequence",
        "Escaped char is not a special char",
        "Unexpected character",
        "Matching parenthesis not found",
        "The token must not be empty",
        "Field is not valid for this query",
        "This operator is not valid for this field type",
        "An operator must be followed by a term",
        "Parenthesis does not contain a query",
        "Invalid date. Must be formatted as YYYY-MM-DD",
    }


def test_nesting_up_to_the_limit_is_accepted() -> None:
    assert parse("(" * 32 + "name contains a" + ")" * 32) == Criterion("name", "contains", "a")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("name contains pompe", "pompe"),
        ("name startsWith Pom", "Pom"),
        ("name endsWith pe", "pe"),
        ("name equals pompe à eau", "pompe à eau"),
        ("name different  pompe   à eau  ", "pompe   à eau"),
        ("note equals \\0", ""),
        ("created sameDay 2026-01-31", date(2026, 1, 31)),
        ("created before 2026-01-31", date(2026, 1, 31)),
        ("due beforeOrSameDay 2026-01-31", date(2026, 1, 31)),
        ("due after 2026-01-31", date(2026, 1, 31)),
        ("due afterOrSameDay 0001-01-01", date(1, 1, 1)),
        ("active equals true", True),
        ("active equals false", False),
        ("status oneOf open", ("open",)),
        ("status noneOf open, on_hold ,closed", ("open", "on_hold", "closed")),
        ("owner oneOf 1,22,0333,2147483647", (1, 22, 333, 2147483647)),
        ("owner noneOf 7", (7,)),
        ("code oneOf A-1,b\\,2", ("A-1", "b,2")),
        ("tag oneOf 3", (3,)),
        ("location oneOf 12,14", (12, 14)),
        ("location noneOf 12", (12,)),
    ],
)
def test_every_operator_of_every_type(text: str, value: object) -> None:
    field, operator, _ = text.split(" ", 2)
    assert parse(text) == Criterion(field, operator, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("name contains a\\&b\\|c\\(d\\)e\\\\f", "a&b|c(d)e\\f"),
        ("name contains \\ lead", " lead"),
        ("name contains trail\\ ", "trail "),
        ("name contains \\  two", "  two"),
        ("name contains a,b", "a,b"),
        ("name contains a\\,b", "a,b"),
        ("name contains ab\\0c", "abc"),
        ("name contains a\tb", "a\tb"),
        ("name contains 100%_x", "100%_x"),
    ],
)
def test_escapes(text: str, value: str) -> None:
    assert parse(text) == Criterion("name", "contains", value)


def test_blank_filters_mean_no_filter() -> None:
    assert parse("") is None
    assert parse("  \t\n") is None


def test_structure() -> None:
    a, b, c = (Criterion("name", "contains", x) for x in "abc")
    assert parse("name contains a&name contains b") == And((a, b))
    assert parse("name contains a | name contains b | name contains c") == Or((a, b, c))
    assert parse("(name contains a & name contains b) | name contains c") == Or((And((a, b)), c))
    assert parse("name contains a & (name contains b | name contains c)") == And((a, Or((b, c))))
    assert parse("((name contains a))") == a
    assert parse("(name contains a & name contains b) & name contains c") == And((And((a, b)), c))


def test_the_spec_example_reads_and_prints_back() -> None:
    text = "name contains pompe & (active equals true | created after 2026-01-01)"
    tree = parse(text)
    assert tree == And(
        (
            Criterion("name", "contains", "pompe"),
            Or((Criterion("active", "equals", True), Criterion("created", "after", date(2026, 1, 1)))),
        )
    )
    assert print_filter(tree) == text


def test_the_printer_escapes_what_the_grammar_needs() -> None:
    tree = And(
        (
            Criterion("name", "equals", " a&b|(c)\\d, e "),
            Criterion("note", "equals", ""),
            Criterion("code", "oneOf", ("x,y", "z")),
        )
    )
    text = print_filter(tree)
    assert text == "name equals \\ a\\&b\\|\\(c\\)\\\\d, e\\  & note equals \\0 & code oneOf x\\,y,z"
    assert parse(text) == tree
    assert print_filter(None) == ""


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("", ()),
        ("  ", ()),
        ("name", (SortKey("name"),)),
        ("-created, name ,-rank", (SortKey("created", True), SortKey("name"), SortKey("rank", True))),
        ("status,active,due,note", (SortKey("status"), SortKey("active"), SortKey("due"), SortKey("note"))),
    ],
)
def test_sorts(text: str, keys: tuple[SortKey, ...]) -> None:
    assert parse_sort(text, WIDGET) == keys
    assert parse_sort(print_sort(keys), WIDGET) == keys


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("owner", e.INVALID_FIELD, 0),
        ("-tag", e.INVALID_FIELD, 1),
        ("name,location", e.INVALID_FIELD, 5),
        ("has_note", e.INVALID_FIELD, 0),
        ("colour", e.INVALID_FIELD, 0),
        ("name,", e.EMPTY_TOKEN, 5),
        ("name, ,note", e.EMPTY_TOKEN, 6),
        ("-", e.EMPTY_TOKEN, 1),
        ("na me", e.UNEXPECTED_CHARACTER, 2),
        ("+name", e.UNEXPECTED_CHARACTER, 0),
        ("name\\", e.UNEXPECTED_CHARACTER, 4),
    ],
)
def test_sort_errors(text: str, message: str, position: int) -> None:
    with pytest.raises(QueryError) as caught:
        parse_sort(text, WIDGET)
    assert (caught.value.message, caught.value.position, caught.value.source) == (message, position, "sort")
