"""The general text rule (spec 1 §5) and strict ids, on every route that takes them: bad input answers
422 with the field and the message key, never a 500."""

import contextlib
import json
import re
from collections.abc import Iterator
from typing import Annotated, Any, get_args, get_origin

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError
from starlette.routing import Route

from mapping.maps import load
from spot.core.schemas import Id, MultilineText, OptionalText, Text
from spot.permissions.names import ALL_PERMISSIONS
from support import API, assert_error, field_codes

LONE_SURROGATE = "\ud800"


def codes(adapter: TypeAdapter, value: object) -> list[str]:
    try:
        adapter.validate_python(value)
    except ValidationError as exc:
        return [e["type"] for e in exc.errors()]
    return []


@pytest.mark.parametrize(
    ("value", "text", "optional", "multiline"),
    [
        ("Atelier", [], [], []),
        ("", ["emptyFieldError"], [], []),
        ("   ", ["emptyFieldError"], ["beginEndWhitespaceError"], ["beginEndWhitespaceError"]),
        (" Atelier", ["beginEndWhitespaceError"], ["beginEndWhitespaceError"], ["beginEndWhitespaceError"]),
        ("Atelier\n", ["beginEndWhitespaceError"], ["beginEndWhitespaceError"], ["beginEndWhitespaceError"]),
        ("A\x00B", ["invalidCharacter"], ["invalidCharacter"], ["invalidCharacter"]),
        ("A\x1bB", ["invalidCharacter"], ["invalidCharacter"], ["invalidCharacter"]),
        ("A\x7fB", ["invalidCharacter"], ["invalidCharacter"], ["invalidCharacter"]),
        ("A\x85B", ["invalidCharacter"], ["invalidCharacter"], ["invalidCharacter"]),
        ("A\rB", ["invalidCharacter"], ["invalidCharacter"], ["invalidCharacter"]),
        (f"A{LONE_SURROGATE}B", ["invalidCharacter"], ["invalidCharacter"], ["invalidCharacter"]),
        ("A\udfffB", ["invalidCharacter"], ["invalidCharacter"], ["invalidCharacter"]),
        ("ligne 1\nligne 2\tsuite", ["invalidCharacter"], ["invalidCharacter"], []),
        ("Émile 😀 Ωmega", [], [], []),
    ],
)
def test_the_text_types(value, text, optional, multiline):
    assert codes(TypeAdapter(Text), value) == text
    assert codes(TypeAdapter(OptionalText), value) == optional
    assert codes(TypeAdapter(MultilineText), value) == multiline


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        (5, True),
        ("5", True),
        ("007", True),
        (2**31 - 1, True),
        ("+5", False),
        ("5 ", False),
        (" 5", False),
        ("5\n", False),
        ("-5", False),
        ("5.0", False),
        (5.0, False),
        (True, False),
        ("٣", False),
        ("5_000", False),
        ("", False),
        (2**31, False),
        (-1, False),
        ("9" * 5000, False),
    ],
)
def test_ids_are_plain_decimal_digits(value, valid):
    assert (codes(TypeAdapter(Id), value) == []) is valid


@pytest.fixture
def manager(make_user, login):
    make_user("keeper", ["perm_SetPermissions"])
    return login(make_user("manager", ALL_PERMISSIONS))


def send(client, method, path, body, headers):
    """JSON written by hand: the standard encoder escapes a lone surrogate as \\ud800, as a browser does."""
    return client.request(
        method,
        f"{API}{path}",
        content=json.dumps(body),
        headers={**headers, "content-type": "application/json"},
    )


BAD_TEXTS = [
    (LONE_SURROGATE, "invalidCharacter"),
    ("Jean\x01", "invalidCharacter"),
    ("Je\x00an", "invalidCharacter"),
    ("Je\nan", "invalidCharacter"),
    (" Jean", "beginEndWhitespaceError"),
    ("Jean ", "beginEndWhitespaceError"),
]


@pytest.mark.parametrize(("value", "code"), [*BAD_TEXTS, ("   ", "beginEndWhitespaceError")])
@pytest.mark.parametrize("field", ["firstName", "lastName", "externalId"])
def test_user_names_and_external_id_follow_the_text_rule(client, make_user, manager, field, value, code):
    body = {"login": "nouveau", "password": "long-enough-1", field: value}
    created = send(client, "PUT", "/user/create", body, manager)
    assert_error(created, 422, "atLeastOneErrorLeft")
    assert field_codes(created) == {(field, code)}
    target = make_user("cible")
    edited = send(client, "POST", f"/user/byId/{target.id}", {"login": "cible", field: value}, manager)
    assert_error(edited, 422, "atLeastOneErrorLeft")
    assert field_codes(edited) == {(field, code)}


@pytest.mark.parametrize(("value", "code"), [*BAD_TEXTS, ("", "emptyFieldError"), ("  ", "emptyFieldError")])
def test_logins_and_group_names_follow_the_text_rule(client, manager, value, code):
    created = send(client, "PUT", "/user/create", {"login": value, "password": "long-enough-1"}, manager)
    assert field_codes(created) == {("login", code)}
    group = send(client, "PUT", "/user/group", {"name": value}, manager)
    assert_error(group, 422)
    assert field_codes(group) == {("name", code)}


@pytest.mark.parametrize("value", [LONE_SURROGATE, "perm_EditPdv\x00", " perm_EditPdv", ""])
def test_permission_names_follow_the_text_rule(client, db, manager, value):
    group_id = send(client, "PUT", "/user/group", {"name": "Opérateurs"}, manager).json()["id"]
    response = send(client, "PUT", f"/permission/group/{group_id}", ["perm_EditPdv", value], manager)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert [e["field"] for e in response.json()["errors"]] == ["1"]


def test_a_password_may_not_hold_a_lone_surrogate(client, make_user, manager):
    response = send(
        client, "PUT", "/user/create", {"login": "x", "password": "long-enough" + LONE_SURROGATE}, manager
    )
    assert field_codes(response) == {("password", "invalidCharacter")}
    target = make_user("cible")
    change = send(
        client, "POST", f"/user/changePassword/{target.id}", {"password": LONE_SURROGATE * 8}, manager
    )
    assert field_codes(change) == {("password", "invalidCharacter")}


@pytest.mark.parametrize(("value", "code"), [*BAD_TEXTS, ("Ré\x1bglage", "invalidCharacter")])
def test_subject_names_follow_the_text_rule(client, db, manager, value, code):
    m = load(db)
    body = {
        "name": value,
        "cartographyId": m.cartography("C1"),
        "functionId": m.function("F1"),
        "activityId": m.activity("A12"),
    }
    created = send(client, "POST", "/subject", body, manager)
    assert_error(created, 422)
    assert field_codes(created) == {("name", code)}


@pytest.mark.parametrize(
    ("comment", "code"),
    [
        ("Validé\x00", "invalidCharacter"),
        ("Validé\x1b[31m", "invalidCharacter"),
        (f"Validé{LONE_SURROGATE}", "invalidCharacter"),
        (" Validé", "beginEndWhitespaceError"),
        ("Validé\n", "beginEndWhitespaceError"),
    ],
)
def test_the_standardize_comment_follows_the_text_rule(client, db, manager, comment, code):
    m = load(db)
    response = send(client, "POST", f"/subject/{m.subject('S1')}/standardize", {"comment": comment}, manager)
    assert_error(response, 422)
    assert field_codes(response) == {("comment", code)}


def test_the_standardize_comment_keeps_line_breaks_and_tabs(client, db, manager):
    m = load(db)
    comment = "Validé en revue :\n\t- consignation\n\t- outillage"
    response = send(client, "POST", f"/subject/{m.subject('S1')}/standardize", {"comment": comment}, manager)
    assert response.status_code == 200, response.text
    assert response.json()["standardizedComment"] == comment


@pytest.mark.parametrize(
    "path",
    [
        "/user/search?name=a%00b",
        "/user/byLogin?login=a%01b",
        "/user/searchGroup?name=%1b",
        "/mapping/items/search?name=a%00",
    ],
)
def test_search_terms_refuse_control_characters(client, manager, path):
    response = client.get(f"{API}{path}", headers=manager)
    assert_error(response, 422)
    assert [e["code"] for e in response.json()["errors"]] == ["invalidCharacter"]


# --- ids ------------------------------------------------------------------------------------------


# An id parameter, or another whole number read as ids are (a mind-map node's code, a provider's index,
# a training module's and element's index), with or without a convertor (`{trainingPathId:id}`).
_ID_PARAMETER = re.compile(
    r"\{(?!externalId)(\w+Id|index|moduleIndex|resultIndex)(:\w+)?\}|(?<=/nodes/)\{code\}"
)


def _id_routes(app) -> list[tuple[str, str]]:
    """Every (method, path) of the API with an id path parameter."""
    found = []
    for route in app.routes:
        if not isinstance(route, Route) or not route.path.startswith(API):
            continue
        if not _ID_PARAMETER.search(route.path):
            continue
        for method in sorted(route.methods or ()):
            if method != "HEAD":
                found.append((method, route.path))
    return found


def _fill(path: str, bad: str) -> str:
    path = (
        path.replace("{itemType}", "subject").replace("{parentType}", "subject").replace("{fileKind}", "pdf")
    )
    return _ID_PARAMETER.sub(bad, path.removeprefix(API))


def test_every_id_path_parameter_is_listed(app):
    routes = _id_routes(app)
    assert len(routes) >= 25
    assert ("GET", f"{API}/training/path/{{trainingPathId:id}}") in routes
    assert ("POST", f"{API}/subject/{{subjectId}}/mindmap/nodes/{{code}}/move") in routes
    assert ("GET", f"{API}/account/oidc/{{index}}/start") in routes
    assert all(
        not re.search(r"\{[^}]*\}", _fill(path, "1")) for _, path in routes if "/references/" not in path
    )


# Python reads no integer of more than 4,300 digits from text (int_max_str_digits).
HUGE = "9" * 4301


def test_an_id_too_long_to_read_is_bad_input_signed_in_or_not(app, client, db, manager):
    load(db)
    faults = []
    for method, path in _id_routes(app):
        for headers in ({}, manager):
            response = client.request(method, f"{API}{_fill(path, HUGE)}", headers=headers, json={})
            body = response.json()
            if response.status_code not in (401, 422) or not body.get("message"):
                faults.append((method, path, bool(headers), response.status_code))
            elif headers:
                assert_error(response, 422, "atLeastOneErrorLeft")
    assert faults == []


def test_a_training_path_address_with_a_huge_id_answers_without_signing_in(client):
    response = client.get(f"{API}/training/path/{HUGE}")
    assert_error(response, 401)


@pytest.mark.parametrize("bad", ["+1", "1%20", "1%0A", "%201", "1.0", "-1", "1e0", "0x1", "99999999999"])
def test_id_path_parameters_take_plain_digits_only(app, client, db, manager, bad):
    load(db)
    refused = []
    for method, path in _id_routes(app):
        response = client.request(method, f"{API}{_fill(path, bad)}", headers=manager, json={})
        if response.status_code != 422:
            refused.append((method, path, response.status_code))
        else:
            assert_error(response, 422, "atLeastOneErrorLeft")
    assert refused == []


@pytest.mark.parametrize("bad", ["+1", "1 ", "1\n", 1.0, True, -1, "x"])
def test_body_ids_take_plain_digits_only(client, db, make_user, manager, bad):
    m = load(db)
    target = make_user("cible")
    calls = [
        ("POST", "/user/getUserNames", [target.id, bad], "1"),
        ("POST", "/user/byIds", [bad], "0"),
        ("POST", "/user/byGroups", [bad], "0"),
        ("POST", "/user/getGroupNames", [bad], "0"),
        ("POST", "/user/getUserGroups", [bad], "0"),
        ("POST", f"/user/byId/{target.id}/groups", {"groupIds": [bad]}, "groupIds.0"),
        ("PUT", "/user/create", {"login": "n", "password": "long-enough", "groupIds": [bad]}, "groupIds.0"),
        ("POST", "/mapping/items/names", [bad], "0"),
        ("POST", "/cartography/getCartographySiteNames", [bad], "0"),
        (
            "POST",
            "/subject",
            {
                "name": "Sujet",
                "cartographyId": bad,
                "functionId": m.function("F1"),
                "activityId": m.activity("A12"),
            },
            "cartographyId",
        ),
        (
            "POST",
            f"/permission/allowedItemsForGroup/{target.groups[0].id}",
            {"restricted": True, "items": [{"itemType": "cartography", "itemId": bad}]},
            "items.0.itemId",
        ),
    ]
    for method, path, body, field in calls:
        response = send(client, method, path, body, manager)
        assert response.status_code == 422, (path, response.text)
        assert field in {e["field"] for e in response.json()["errors"]}, (path, response.text)


# --- numbers ----------------------------------------------------------------------------------------


def _numbers(annotation: Any, metadata: list[Any], where: str, seen: set[type]) -> Iterator[tuple[str, Any]]:
    """Every number field a request body may carry, with the type to validate it against."""
    if get_origin(annotation) is Annotated:
        inner, *more = get_args(annotation)
        yield from _numbers(inner, [*more, *metadata], where, seen)
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation not in seen:
            seen.add(annotation)
            for name, field in annotation.model_fields.items():
                yield from _numbers(field.annotation, field.metadata, f"{annotation.__name__}.{name}", seen)
    elif annotation in (int, float):
        yield where, Annotated[annotation, *metadata] if metadata else annotation
    else:
        for argument in get_args(annotation):
            yield from _numbers(argument, metadata, where, seen)


def test_no_number_of_a_request_body_takes_a_boolean(app):
    """Lax validation would read `true` as 1: a number is a JSON number (StrictInt, StrictFloat; ids
    are strict through Id)."""
    lax = set()
    for route in app.routes:
        for body in getattr(getattr(route, "dependant", None), "body_params", []):
            for where, number in _numbers(
                body.field_info.annotation, body.field_info.metadata, body.name, set()
            ):
                with contextlib.suppress(ValidationError):
                    TypeAdapter(number).validate_python(True)
                    lax.add(where)
    assert lax == set()


def test_a_boolean_is_not_a_number(client, db, manager):
    """Operations that took `true` as 1."""
    m = load(db)
    subject = client.post(
        f"{API}/subject",
        json={
            "name": "Sujet",
            "cartographyId": m.cartography("C1"),
            "functionId": m.function("F1"),
            "activityId": m.activity("A12"),
        },
        headers=manager,
    ).json()["id"]
    calls = [
        (f"/subject/{subject}/rate", {"frequency": True, "gravity": 1, "detectability": 1}, "frequency"),
        ("/subject/query", {"page": True}, "page"),
        ("/history/contributions", {"fromYear": 2026, "count": True}, "count"),
        (f"/subject/{subject}/mindmap/nodes", {"parentCode": 0, "name": "N", "version": True}, "version"),
    ]
    for path, body, field in calls:
        response = send(client, "POST", path, body, manager)
        assert_error(response, 422, "atLeastOneErrorLeft")
        assert (field, "int_type") in field_codes(response), (path, response.text)
