"""Saved filters: per user and entity type, replaced as a whole, checked against the spec's rules."""

import pytest
from fastapi.testclient import TestClient

from querylang.querylang_widgets import WIDGET
from spot.querylang import errors as e
from spot.querylang import fields as registry
from support import API, assert_error, field_codes

FILTERS = f"{API}/account/filters"


def saved(name: str, filter: str = "login contains a", sorting: str = "", is_default: bool = False) -> dict:  # noqa: A002
    return {"name": name, "filter": filter, "sorting": sorting, "isDefault": is_default}


@pytest.fixture
def widgets_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second entity type, for as long as the test runs."""
    monkeypatch.setitem(registry._registry, WIDGET.name, WIDGET)


@pytest.fixture
def alice(make_user, login):  # noqa: ANN001, ANN201
    return login(make_user("alice"))


def test_a_new_user_has_no_saved_filters(client: TestClient, alice) -> None:  # noqa: ANN001
    response = client.get(FILTERS, headers=alice)
    assert response.status_code == 200
    assert response.json() == {}


def test_saving_replaces_the_filters_of_one_entity_type(
    client: TestClient, alice, widgets_registered
) -> None:  # noqa: ANN001
    mine = [saved("Mine", "login startsWith al", "-login", True), saved("Théo's", "group oneOf 1,2")]
    assert (
        client.post(FILTERS, json={"entityType": "user", "filters": mine}, headers=alice).status_code == 204
    )
    widget_filters = [saved("Open", "status oneOf open", "-created")]
    response = client.post(
        FILTERS, json={"entityType": "ql_widget", "filters": widget_filters}, headers=alice
    )
    assert response.status_code == 204
    assert client.get(FILTERS, headers=alice).json() == {"user": mine, "ql_widget": widget_filters}

    again = [saved("Only", "last_name equals \\0")]
    assert (
        client.post(FILTERS, json={"entityType": "user", "filters": again}, headers=alice).status_code == 204
    )
    assert client.get(FILTERS, headers=alice).json() == {"user": again, "ql_widget": widget_filters}

    assert client.post(FILTERS, json={"entityType": "user", "filters": []}, headers=alice).status_code == 204
    assert client.get(FILTERS, headers=alice).json() == {"ql_widget": widget_filters}


def test_each_user_sees_only_their_own(client: TestClient, make_user, login, alice) -> None:  # noqa: ANN001
    bob = login(make_user("bob"))
    client.post(FILTERS, json={"entityType": "user", "filters": [saved("Alice's")]}, headers=alice)
    assert client.get(FILTERS, headers=bob).json() == {}
    client.post(FILTERS, json={"entityType": "user", "filters": [saved("Bob's")]}, headers=bob)
    assert client.get(FILTERS, headers=alice).json() == {"user": [saved("Alice's")]}
    assert client.get(FILTERS, headers=bob).json() == {"user": [saved("Bob's")]}


def test_a_name_with_a_lone_surrogate_is_refused(client: TestClient, alice) -> None:  # noqa: ANN001
    body = b'{"entityType": "user", "filters": [{"name": "Mi\\ud800ne", "filter": "login contains a"}]}'
    response = client.post(FILTERS, content=body, headers={**alice, "content-type": "application/json"})
    assert_error(response, 422)
    assert field_codes(response) == {("filters.0.name", "invalidCharacter")}


@pytest.mark.parametrize(
    ("filters", "field", "code"),
    [
        ([saved("")], "filters.0.name", "emptyFieldError"),
        ([saved("   ")], "filters.0.name", "emptyFieldError"),
        ([saved(" Mine")], "filters.0.name", "beginEndWhitespaceError"),
        ([saved("Mine\n")], "filters.0.name", "beginEndWhitespaceError"),
        ([saved("Mi\x00ne")], "filters.0.name", "invalidCharacter"),
    ],
)
def test_names_follow_the_general_text_rule(client: TestClient, alice, filters, field, code) -> None:  # noqa: ANN001
    response = client.post(FILTERS, json={"entityType": "user", "filters": filters}, headers=alice)
    assert_error(response, 422)
    assert (field, code) in field_codes(response)


@pytest.mark.parametrize(
    ("filters", "message", "errors"),
    [
        (
            [saved("A", "")],
            "atLeastOneCriterion",
            [{"field": "filters.0.filter", "code": "atLeastOneCriterion"}],
        ),
        (
            [saved("A"), saved("B", " \t")],
            "atLeastOneCriterion",
            [{"field": "filters.1.filter", "code": "atLeastOneCriterion"}],
        ),
        (
            [saved("A", "login contains")],
            e.EMPTY_TOKEN,
            [{"field": "filters.0.filter", "code": e.EMPTY_TOKEN, "position": 14}],
        ),
        (
            [saved("A", "status oneOf open")],
            e.INVALID_FIELD,
            [{"field": "filters.0.filter", "code": e.INVALID_FIELD, "position": 0}],
        ),
        (
            [saved("A", sorting="login,group")],
            e.INVALID_FIELD,
            [{"field": "filters.0.sorting", "code": e.INVALID_FIELD, "position": 6}],
        ),
        (
            [saved("A", is_default=True), saved("B"), saved("C", is_default=True)],
            "onlyOneDefaultFilter",
            [{"field": "filters.2.isDefault", "code": "onlyOneDefaultFilter"}],
        ),
        (
            [saved("Équipe"), saved("equipe")],
            "filterNameAlreadyUsed",
            [{"field": "filters.1.name", "code": "filterNameAlreadyUsed"}],
        ),
        (
            [saved("A", "login contains a &"), saved("a", is_default=True), saved("B", "", "-", True)],
            e.MISSING_TERM,
            [
                {"field": "filters.0.filter", "code": e.MISSING_TERM, "position": 17},
                {"field": "filters.1.name", "code": "filterNameAlreadyUsed"},
                {"field": "filters.2.filter", "code": "atLeastOneCriterion"},
                {"field": "filters.2.sorting", "code": e.EMPTY_TOKEN, "position": 1},
                {"field": "filters.2.isDefault", "code": "onlyOneDefaultFilter"},
            ],
        ),
    ],
)
def test_rules_answer_400_on_the_fields_that_break_them(
    client: TestClient,
    alice,
    filters,
    message,  # noqa: ANN001
    errors,
) -> None:
    client.post(FILTERS, json={"entityType": "user", "filters": [saved("Kept")]}, headers=alice)
    response = client.post(FILTERS, json={"entityType": "user", "filters": filters}, headers=alice)
    assert assert_error(response, 400, message)["errors"] == errors
    assert client.get(FILTERS, headers=alice).json() == {"user": [saved("Kept")]}


def test_the_same_name_may_serve_two_entity_types(client: TestClient, alice, widgets_registered) -> None:  # noqa: ANN001
    client.post(
        FILTERS, json={"entityType": "user", "filters": [saved("Mine", is_default=True)]}, headers=alice
    )
    response = client.post(
        FILTERS,
        json={"entityType": "ql_widget", "filters": [saved("Mine", "tag oneOf 1", is_default=True)]},
        headers=alice,
    )
    assert response.status_code == 204


def test_unknown_entity_types_are_refused(client: TestClient, alice) -> None:  # noqa: ANN001
    response = client.post(FILTERS, json={"entityType": "nothing", "filters": [saved("A")]}, headers=alice)
    body = assert_error(response, 400, "unknownEntityType")
    assert body["errors"] == [{"field": "entityType", "code": "invalidValue"}]


def test_signed_out_callers_get_401(client: TestClient) -> None:
    assert_error(client.get(FILTERS), 401)
    assert_error(client.post(FILTERS, json={"entityType": "user", "filters": []}), 401)


def test_a_deleted_user_takes_their_filters_along(client: TestClient, make_user, login, db) -> None:  # noqa: ANN001
    from sqlalchemy import func, select

    from spot.filters.models import SavedFilter

    carol = make_user("carol")
    client.post(
        FILTERS, json={"entityType": "user", "filters": [saved("A"), saved("B")]}, headers=login(carol)
    )
    assert db.scalar(select(func.count()).select_from(SavedFilter)) == 2
    db.delete(carol)
    db.commit()
    assert db.scalar(select(func.count()).select_from(SavedFilter)) == 0


def test_a_save_from_a_stale_list_is_refused_and_loses_nothing(client: TestClient, alice) -> None:  # noqa: ANN001
    """Two windows read the list; the first saves; the second, whose list no longer is the saved one
    (If-Match: the ETag it read), is refused instead of erasing the first one's filter."""
    read = client.get(FILTERS, headers=alice)
    tag = read.headers["etag"]
    first = [saved("From the first window")]
    answer = client.post(
        FILTERS, json={"entityType": "user", "filters": first}, headers={**alice, "If-Match": tag}
    )
    assert answer.status_code == 204
    new_tag = answer.headers["etag"]
    assert new_tag != tag
    assert client.get(FILTERS, headers=alice).headers["etag"] == new_tag

    second = [saved("From the second window")]
    stale = client.post(
        FILTERS, json={"entityType": "user", "filters": second}, headers={**alice, "If-Match": tag}
    )
    assert_error(stale, 409, "staleVersion")
    assert client.get(FILTERS, headers=alice).json() == {"user": first}

    retried = client.post(
        FILTERS,
        json={"entityType": "user", "filters": [*first, *second]},
        headers={**alice, "If-Match": new_tag},
    )
    assert retried.status_code == 204
    assert client.get(FILTERS, headers=alice).json() == {"user": [*first, *second]}


def test_the_version_changes_with_any_filter_of_the_user_only(
    client: TestClient, make_user, login, alice, widgets_registered
) -> None:  # noqa: ANN001
    bob = login(make_user("bob"))
    tags = [client.get(FILTERS, headers=alice).headers["etag"]]
    for body in (
        {"entityType": "user", "filters": [saved("A")]},
        {"entityType": "user", "filters": [saved("A", sorting="login")]},
        {"entityType": "user", "filters": [saved("A", sorting="login", is_default=True)]},
        {"entityType": "ql_widget", "filters": [saved("W", "status oneOf open")]},
    ):
        assert client.post(FILTERS, json=body, headers=alice).status_code == 204
        tags.append(client.get(FILTERS, headers=alice).headers["etag"])
    assert len(set(tags)) == len(tags)
    assert (
        client.post(FILTERS, json={"entityType": "user", "filters": [saved("B")]}, headers=bob).status_code
        == 204
    )
    assert client.get(FILTERS, headers=alice).headers["etag"] == tags[-1]


def test_a_save_without_if_match_replaces_as_before(client: TestClient, alice) -> None:  # noqa: ANN001
    assert (
        client.post(FILTERS, json={"entityType": "user", "filters": [saved("A")]}, headers=alice).status_code
        == 204
    )
    assert (
        client.post(FILTERS, json={"entityType": "user", "filters": [saved("B")]}, headers=alice).status_code
        == 204
    )
    assert client.get(FILTERS, headers=alice).json() == {"user": [saved("B")]}
    any_version = {**alice, "If-Match": "*"}
    assert (
        client.post(FILTERS, json={"entityType": "user", "filters": []}, headers=any_version).status_code
        == 204
    )
