"""A path from creation to the learner's signature, through the API (the happy path)."""

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from training.paths_support import Cast, get, make_module, make_path, move_to


def test_a_path_goes_from_creation_to_archived(client: TestClient, db: Session, make_user, login) -> None:
    cast = Cast.of(make_user, login)
    path_id = make_path(client, cast, [make_module(db), make_module(db, "Deux")])
    path = get(client, cast, path_id)
    assert path["status"] == "notAccepted"
    path = move_to(client, cast, path_id, "archived")
    assert [m["status"] for m in path["assignedModules"]] == ["archived", "archived"]
