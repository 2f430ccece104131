"""Saved filters: per user and entity type, replaced as a whole, checked against the spec's rules."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from querylang.querylang_widgets import WIDGET
from spot.querylang import errors as e
from spot.querylang import fields as registry
from support import API, assert_error, field_codes

FILTERS = f"{API}/account/filters"


def current_version(client: TestClient, headers: dict, entity_type: str = "user") -> int:
    return client.get(FILTERS, headers=headers).json().get(entity_type, {}).get("version", 0)


def body(
    client: TestClient, headers: dict, entity_type: str, filters: list, version: int | None = None
) -> dict:
    """A save from the current list (its version read first) unless `version` says otherwise."""
    if version is None:
        version = current_version(client, headers, entity_type)
    return {"entityType": entity_type, "filters": filters, "version": version}


def listed(client: TestClient, headers: dict) -> dict:
    """The saved filters by entity type, without their versions."""
    return {kind: of_type["filters"] for kind, of_type in client.get(FILTERS, headers=headers).json().items()}


def saved(name: str, filter: str = "login contains a", sorting: str = "", is_default: bool = False) -> dict:
    return {"name": name, "filter": filter, "sorting": sorting, "isDefault": is_default}


@pytest.fixture
def widgets_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second entity type, for as long as the test runs."""
    monkeypatch.setitem(registry._registry, WIDGET.name, WIDGET)


@pytest.fixture
def alice(make_user, login):
    return login(make_user("alice"))


def test_a_new_user_has_no_saved_filters(client: TestClient, alice) -> None:
    response = client.get(FILTERS, headers=alice)
    assert response.status_code == 200
    assert response.json() == {}


def test_saving_replaces_the_filters_of_one_entity_type(
    client: TestClient, alice, widgets_registered
) -> None:
    mine = [saved("Mine", "login startsWith al", "-login", True), saved("Théo's", "group oneOf 1,2")]
    assert client.post(FILTERS, json=body(client, alice, "user", mine), headers=alice).status_code == 204
    widget_filters = [saved("Open", "status oneOf open", "-created")]
    response = client.post(FILTERS, json=body(client, alice, "ql_widget", widget_filters), headers=alice)
    assert response.status_code == 204
    assert listed(client, alice) == {"user": mine, "ql_widget": widget_filters}

    again = [saved("Only", "last_name equals \\0")]
    assert client.post(FILTERS, json=body(client, alice, "user", again), headers=alice).status_code == 204
    assert listed(client, alice) == {"user": again, "ql_widget": widget_filters}

    assert client.post(FILTERS, json=body(client, alice, "user", []), headers=alice).status_code == 204
    assert listed(client, alice) == {"user": [], "ql_widget": widget_filters}


def test_each_user_sees_only_their_own(client: TestClient, make_user, login, alice) -> None:
    bob = login(make_user("bob"))
    client.post(FILTERS, json=body(client, alice, "user", [saved("Alice's")]), headers=alice)
    assert listed(client, bob) == {}
    client.post(FILTERS, json=body(client, bob, "user", [saved("Bob's")]), headers=bob)
    assert listed(client, alice) == {"user": [saved("Alice's")]}
    assert listed(client, bob) == {"user": [saved("Bob's")]}


def test_a_name_with_a_lone_surrogate_is_refused(client: TestClient, alice) -> None:
    body = b'{"entityType": "user", "version": 0, "filters": [{"name": "Mi\\ud800ne", "filter": "a"}]}'
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
def test_names_follow_the_general_text_rule(client: TestClient, alice, filters, field, code) -> None:
    response = client.post(FILTERS, json=body(client, alice, "user", filters), headers=alice)
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
    message,
    errors,
) -> None:
    client.post(FILTERS, json=body(client, alice, "user", [saved("Kept")]), headers=alice)
    response = client.post(FILTERS, json=body(client, alice, "user", filters), headers=alice)
    assert assert_error(response, 400, message)["errors"] == errors
    assert listed(client, alice) == {"user": [saved("Kept")]}


def test_the_same_name_may_serve_two_entity_types(client: TestClient, alice, widgets_registered) -> None:
    client.post(FILTERS, json=body(client, alice, "user", [saved("Mine", is_default=True)]), headers=alice)
    response = client.post(
        FILTERS,
        json=body(client, alice, "ql_widget", [saved("Mine", "tag oneOf 1", is_default=True)]),
        headers=alice,
    )
    assert response.status_code == 204


def test_unknown_entity_types_are_refused(client: TestClient, alice) -> None:
    response = client.post(FILTERS, json=body(client, alice, "nothing", [saved("A")]), headers=alice)
    answer = assert_error(response, 400, "unknownEntityType")
    assert answer["errors"] == [{"field": "entityType", "code": "invalidValue"}]


def test_signed_out_callers_get_401(client: TestClient) -> None:
    assert_error(client.get(FILTERS), 401)
    assert_error(client.post(FILTERS, json={"entityType": "user", "filters": [], "version": 0}), 401)


def test_a_deleted_user_takes_their_filters_along(client: TestClient, make_user, login, db) -> None:
    from sqlalchemy import func, select

    from spot.filters.models import SavedFilter

    carol = make_user("carol")
    client.post(
        FILTERS,
        json={"entityType": "user", "filters": [saved("A"), saved("B")], "version": 0},
        headers=login(carol),
    )
    assert db.scalar(select(func.count()).select_from(SavedFilter)) == 2
    db.delete(carol)
    db.commit()
    assert db.scalar(select(func.count()).select_from(SavedFilter)) == 0


def test_the_versions_follow_the_saves_of_each_entity_type(
    client: TestClient, make_user, login, alice, widgets_registered
) -> None:
    bob = login(make_user("bob"))
    assert current_version(client, alice) == 0
    for expected, filters in enumerate(([saved("A")], [saved("A", sorting="login")], []), start=1):
        assert (
            client.post(FILTERS, json=body(client, alice, "user", filters), headers=alice).status_code == 204
        )
        assert current_version(client, alice) == expected
    widget = [saved("W", "status oneOf open")]
    assert (
        client.post(FILTERS, json=body(client, alice, "ql_widget", widget), headers=alice).status_code == 204
    )
    assert client.get(FILTERS, headers=alice).json() == {
        "user": {"version": 3, "filters": []},
        "ql_widget": {"version": 1, "filters": widget},
    }
    assert client.post(FILTERS, json=body(client, bob, "user", [saved("B")]), headers=bob).status_code == 204
    assert current_version(client, alice) == 3
    assert current_version(client, bob) == 1


def test_a_save_from_a_stale_list_is_refused_and_loses_nothing(client: TestClient, alice) -> None:
    """Two windows read the list; the first saves; the second, whose list no longer is the saved one
    (the version it read), is refused instead of erasing the first one's filter."""
    first, second = [saved("From the first window")], [saved("From the second window")]
    assert client.post(FILTERS, json=body(client, alice, "user", first, 0), headers=alice).status_code == 204
    assert_error(
        client.post(FILTERS, json=body(client, alice, "user", second, 0), headers=alice), 409, "staleVersion"
    )
    assert listed(client, alice) == {"user": first}
    assert_error(
        client.post(FILTERS, json=body(client, alice, "user", second, 2), headers=alice), 409, "staleVersion"
    )
    both = [*first, *second]
    assert client.post(FILTERS, json=body(client, alice, "user", both, 1), headers=alice).status_code == 204
    assert listed(client, alice) == {"user": both}
    assert_error(
        client.post(FILTERS, json=body(client, alice, "user", [], 1), headers=alice), 409, "staleVersion"
    )


@pytest.mark.parametrize("version", [-1, 1.5, 2**31, "one"])
def test_a_version_is_a_whole_number(client: TestClient, alice, version) -> None:
    data = {"entityType": "user", "filters": [saved("A")], "version": version}
    response = client.post(FILTERS, json=data, headers=alice)
    assert_error(response, 422)
    assert {field for field, _code in field_codes(response)} == {"version"}


def test_a_save_without_version_applies_as_the_spec_sends_it(client: TestClient, alice) -> None:
    """The spec's body is entityType and filters: such a save replaces whatever was saved, first or
    after others, and moves the version so that a client holding the old one is refused."""
    first = client.post(FILTERS, json={"entityType": "user", "filters": [saved("A")]}, headers=alice)
    assert first.status_code == 204
    assert listed(client, alice) == {"user": [saved("A")]} and current_version(client, alice) == 1
    again = client.post(FILTERS, json={"entityType": "user", "filters": [saved("B")]}, headers=alice)
    assert again.status_code == 204
    assert listed(client, alice) == {"user": [saved("B")]} and current_version(client, alice) == 2
    assert_error(
        client.post(FILTERS, json=body(client, alice, "user", [], 1), headers=alice), 409, "staleVersion"
    )


@pytest.mark.parametrize("version", [0, 1])
def test_of_two_saves_from_the_same_version_one_wins(client: TestClient, alice, version) -> None:
    """Sent at the same moment, from their own threads: one is saved, the other refused, every round."""
    if version:
        client.post(FILTERS, json=body(client, alice, "user", [saved("Start")]), headers=alice)
    both_saved = 0
    for round_ in range(15):
        start = current_version(client, alice)
        barrier = threading.Barrier(2)

        def save(window: int, start: int = start, round_: int = round_, barrier=barrier) -> int:
            filters = [saved(f"Round {round_}, window {window}")]
            barrier.wait()
            return client.post(
                FILTERS, json=body(client, alice, "user", filters, start), headers=alice
            ).status_code

        with ThreadPoolExecutor(2) as pool:
            statuses = sorted(pool.map(save, range(2)))
        assert statuses in ([204, 409], [204, 204])
        both_saved += statuses == [204, 204]
        (kept,) = listed(client, alice)["user"]
        assert kept["name"].startswith(f"Round {round_},")
        assert current_version(client, alice) == start + 1
    assert both_saved == 0
