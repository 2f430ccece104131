"""Mediations under test: the people of every role and a mediation between them, made through the API."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from mediations.people import ROLES, Cast, tomorrow
from spot.mediations.models import Mediation
from support import API


@pytest.fixture
def cast(make_user, login) -> Cast:
    people = Cast()
    for role in ROLES:
        user = make_user(login=role)
        people.users[role] = user
        people.headers[role] = login(user)
    return people


@pytest.fixture
def save_body(cast: Cast) -> Callable[..., dict[str, Any]]:
    def body(**changes: Any) -> dict[str, Any]:
        return {
            "title": "Réunion",
            "description": "Ligne 1\nLigne 2",
            "schedulingDate": tomorrow(),
            "mediator": cast.id("mediator"),
            "participants": [cast.id("participant")],
            "visibleByGroups": [cast.group("groupMember")],
            "visibleByPersons": [cast.id("visiblePerson")],
        } | changes

    return body


@pytest.fixture
def new_mediation(client: TestClient, cast: Cast, save_body) -> Callable[..., dict[str, Any]]:
    """A mediation made by the creator; its JSON."""

    def make(**changes: Any) -> dict[str, Any]:
        response = client.post(f"{API}/mediation", json=save_body(**changes), headers=cast.headers["creator"])
        assert response.status_code == 200, response.text
        return response.json()

    return make


@pytest.fixture
def force(db: Session) -> Callable[..., None]:
    """Put a mediation straight into a state (status, a report...), as earlier steps would have."""

    def apply(mediation_id: int, **values: Any) -> None:
        db.execute(update(Mediation).where(Mediation.id == mediation_id).values(**values))
        db.commit()

    return apply
