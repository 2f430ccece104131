"""What training path tests build on (plain helpers, shared by every paths test file): modules written
in the database, the people of every role of a path, a path made through the API, and a path moved to a
given status through the API (each step by a role allowed to take it).

    cast = Cast.of(make_user, login)              # learner, creator, admin, referent, reader, stranger
    module_id = make_module(db)                   # one url element
    path_id = make_path(client, cast, [module_id])
    path = move_to(client, cast, path_id, "finished")
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from spot.core.time import today, utcnow
from spot.training.modules.models import TrainingModule, TrainingModuleItem
from spot.training.paths.models import TrainingPath, TrainingPathModule
from spot.users.models import User
from support import API

PATHS = f"{API}/training/path"
MANAGE = "perm_TrainingManagement"
ADMIN = "perm_TrainingPathAdmin"

# The roles of a path under test: its learner, its creator (perm_TrainingManagement), an administrator
# (perm_TrainingPathAdmin), the referent of its modules, a person it is visible to, and someone else.
ROLES = ("learner", "creator", "admin", "referent", "reader", "stranger")
_PERMISSIONS = {"creator": [MANAGE], "admin": [ADMIN]}


@dataclass
class Cast:
    """Users in every role of a path and their session headers."""

    users: dict[str, User] = field(default_factory=dict)
    headers: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, make_user: Callable[..., User], login: Callable[[User], dict[str, str]]) -> "Cast":
        cast = cls()
        for role in ROLES:
            cast.add(role, make_user, login, _PERMISSIONS.get(role, []))
        return cast

    def add(
        self,
        role: str,
        make_user: Callable[..., User],
        login: Callable[[User], dict[str, str]],
        permissions: Sequence[str] = (),
    ) -> User:
        user = make_user(login=role, permissions=list(permissions), first_name=role.title(), last_name="Test")
        self.users[role] = user
        self.headers[role] = login(user)
        return user

    def id(self, role: str) -> int:
        return self.users[role].id

    def group(self, role: str) -> int:
        return self.users[role].groups[0].id


def iso(day: date) -> str:
    return day.isoformat()


def days(n: int) -> str:
    """Today + n days, as the form sends it."""
    return iso(today() + timedelta(days=n))


def make_module(
    db: Session,
    name: str = "Consignation",
    *,
    items: int = 1,
    periodicity: int = 0,
    pass_threshold: int = 7,
    estimated_duration: int = 60,
    enabled: bool = True,
) -> int:
    """A training module with `items` url elements, written in the database."""
    module = TrainingModule(
        name=name,
        module_type="training",
        goals="Savoir consigner",
        estimated_duration=estimated_duration,
        periodicity=periodicity,
        pass_threshold=pass_threshold,
        enabled=enabled,
        created_at=utcnow(),
        version=1,
    )
    db.add(module)
    db.flush()
    for position in range(items):
        db.add(
            TrainingModuleItem(
                module_id=module.id,
                position=position,
                kind="url",
                url=f"https://www.inrs.fr/{position}",
                label=f"Lien {position}",
            )
        )
    db.commit()
    return module.id


def assigned(module_id: int | None, referents: Sequence[int], **dates: str) -> dict[str, Any]:
    return {"moduleId": module_id, "referents": list(referents), **dates}


def path_body(
    cast: Cast, module_ids: Sequence[int], *, learners: Sequence[str] = ("learner",), **overrides: Any
) -> dict[str, Any]:
    """The form of a path for the cast's learner(s), each module followed by the cast's referent, visible
    to the cast's reader; dates today to today + 30."""
    body = {
        "learnerIds": [cast.id(role) for role in learners],
        "title": "Parcours consignation",
        "reference": None,
        "startDate": days(0),
        "stopDate": days(30),
        "passThreshold": 7,
        "visibleByPersons": [cast.id("reader")],
        "visibleByGroups": [],
        "assignedModules": [assigned(m, [cast.id("referent")]) for m in module_ids],
    }
    return body | overrides


def create(
    client: TestClient, cast: Cast, body: dict[str, Any], role: str = "creator"
) -> list[dict[str, Any]]:
    response = client.post(PATHS, json=body, headers=cast.headers[role])
    assert response.status_code == 200, response.text
    return response.json()


def make_path(client: TestClient, cast: Cast, module_ids: Sequence[int], **overrides: Any) -> int:
    """A path made by the cast's creator through the API (path_body); its id."""
    return create(client, cast, path_body(cast, module_ids, **overrides))[0]["id"]


def get(client: TestClient, cast: Cast, path_id: int, role: str = "creator") -> dict[str, Any]:
    response = client.get(f"{PATHS}/{path_id}", headers=cast.headers[role])
    assert response.status_code == 200, response.text
    return response.json()


def act(
    client: TestClient, cast: Cast, role: str, path_id: int, action: str, body: dict[str, Any] | None = None
) -> dict[str, Any]:
    """POST /training/path/{id}/{action} (action may be '{moduleIndex}/grade'...) as `role`; the PathOut."""
    response = client.post(f"{PATHS}/{path_id}/{action}", json=body, headers=cast.headers[role])
    assert response.status_code == 200, response.text
    return response.json()


GRADE = {"grade": 8, "comment": "Bien"}
SIGN = {"comment": "Merci", "satisfaction": 4}

# The statuses in the order move_to reaches them.
_ORDER = ("notAccepted", "accepted", "started", "finished", "validated", "archived")


def move_to(
    client: TestClient, cast: Cast, path_id: int, status: str, *, sign_modules: bool = True
) -> dict[str, Any]:
    """Drive the path through the API to `status` (from notAccepted): the learner accepts, the creator
    starts, the referent starts and grades every module (the path is then finished), the learner signs
    every module (unless `sign_modules` is false: not possible on the way to archived), the creator
    closes, the learner signs. `canceled`: accepted, then canceled by the creator. The PathOut."""
    path = get(client, cast, path_id)
    if status == "canceled":
        path = move_to(client, cast, path_id, "accepted")
        return act(client, cast, "creator", path_id, "cancel")
    target = _ORDER.index(status)
    if target >= 1 and path["status"] == "notAccepted":
        path = act(client, cast, "learner", path_id, "accept")
    if target >= 2 and path["status"] == "accepted":
        path = act(client, cast, "creator", path_id, "start")
    if target >= 3 and path["status"] == "started":
        for module in path["assignedModules"]:
            index = module["index"]
            if module["status"] == "notStarted":
                act(client, cast, "referent", path_id, f"{index}/startNow")
            if module["status"] != "disabled":
                act(client, cast, "referent", path_id, f"{index}/grade", GRADE)
                if sign_modules:
                    act(client, cast, "learner", path_id, f"{index}/sign", SIGN)
        path = get(client, cast, path_id)
    if target >= 4 and path["status"] == "finished":
        path = act(client, cast, "creator", path_id, "validate", {"comment": "Parcours clos"})
    if target >= 5 and path["status"] == "validated":
        path = act(client, cast, "learner", path_id, "sign", SIGN)
    assert path["status"] == status, path["status"]
    return path


def force(db: Session, path_id: int, **values: Any) -> None:
    """Put a path straight into a state (a past stop date...), as time would have."""
    db.execute(update(TrainingPath).where(TrainingPath.id == path_id).values(**values))
    db.commit()


def force_module(db: Session, path_id: int, index: int, **values: Any) -> None:
    db.execute(
        update(TrainingPathModule)
        .where(TrainingPathModule.path_id == path_id, TrainingPathModule.position == index)
        .values(**values)
    )
    db.commit()
