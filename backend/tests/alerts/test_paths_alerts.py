"""The bell's training-path kinds (GET /account/alerts): trainingPathToAccept and trainingPathToSign for
the learner, trainingModuleToStart and trainingModuleToGrade for the referents of the module,
trainingModuleToSign for the learner, trainingPathToClose for the creator of a finished path; each with
the path's title (and the module's name) and the path
as its target, dated by the status change that made it awaited. Most paths are written in the tables,
each step the status its action leaves; the last test takes the steps through the path's calls."""

from datetime import UTC, date, datetime, timedelta

from sqlalchemy import update
from sqlalchemy.orm import Session

from spot.alerts.service import LIMIT
from spot.core.time import today
from spot.training.modules.models import TrainingModule
from spot.training.paths.models import (
    TrainingPath,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisiblePerson,
)
from spot.users.models import User
from support import API
from training.paths_support import GRADE, ROLES, SIGN, Cast, act, get, make_module, make_path

URL = f"{API}/account/alerts"
T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)

Bell = list[tuple[str, int, dict[str, str]]]


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def path_alerts(client, headers) -> Bell:
    response = client.get(URL, headers=headers)
    assert response.status_code == 200, response.text
    return [
        (alert["kind"], alert["target"]["id"], alert["args"])
        for alert in response.json()["alerts"]
        if alert["target"]["type"] == "trainingPath"
    ]


def module(db: Session, name: str) -> int:
    row = TrainingModule(name=name, created_at=at(-1000))
    db.add(row)
    db.commit()
    return row.id


class Path:
    """A path written in the tables: its learner, creator and modules with their referents."""

    def __init__(
        self,
        db: Session,
        *,
        title: str,
        learner: User,
        creator: User,
        modules: list[tuple[int, list[User]]],
        stop_date: date | None = None,
        visible_to: tuple[User, ...] = (),
    ) -> None:
        self.db = db
        start = today() - timedelta(days=10)
        row = TrainingPath(
            title=title,
            learner_id=learner.id,
            creator_id=creator.id,
            created_at=at(0),
            status_changed_at=at(0),
            start_date=start,
            stop_date=stop_date or today() + timedelta(days=30),
        )
        db.add(row)
        db.flush()
        self.id = row.id
        self.modules: list[int] = []
        for position, (module_id, referents) in enumerate(modules):
            assigned = TrainingPathModule(
                path_id=row.id,
                position=position,
                module_id=module_id,
                start_date=row.start_date,
                stop_date=row.stop_date,
                status_changed_at=at(0),
            )
            db.add(assigned)
            db.flush()
            self.modules.append(assigned.id)
            db.add_all(
                TrainingPathReferent(path_module_id=assigned.id, user_id=r.id, path_id=row.id)
                for r in referents
            )
        db.add_all(TrainingPathVisiblePerson(path_id=row.id, user_id=u.id) for u in visible_to)
        db.commit()

    def status(self, status: str, when: datetime) -> None:
        self.db.execute(
            update(TrainingPath)
            .where(TrainingPath.id == self.id)
            .values(status=status, status_changed_at=when)
            .execution_options(synchronize_session=False)
        )
        self.db.commit()

    def module_status(self, index: int, status: str, when: datetime) -> None:
        self.db.execute(
            update(TrainingPathModule)
            .where(TrainingPathModule.id == self.modules[index])
            .values(status=status, status_changed_at=when)
            .execution_options(synchronize_session=False)
        )
        self.db.commit()


class People:
    ROLES = ("learner", "creator", "first", "second", "viewer", "other")

    def __init__(self, make_user, login) -> None:
        self.users = {role: make_user(login=role) for role in self.ROLES}
        self.headers = {role: login(user) for role, user in self.users.items()}

    def __getitem__(self, role: str) -> User:
        return self.users[role]

    def bells(self, client) -> dict[str, Bell]:
        return {role: path_alerts(client, headers) for role, headers in self.headers.items()}


def test_the_bell_shows_each_step_of_a_path_to_the_right_person(client, db, make_user, login):
    people = People(make_user, login)
    lockout, ladder = module(db, "Consignation"), module(db, "Travail en hauteur")
    path = Path(
        db,
        title="Parcours maintenance",
        learner=people["learner"],
        creator=people["creator"],
        modules=[(lockout, [people["first"]]), (ladder, [people["first"], people["second"]])],
        visible_to=(people["viewer"],),
    )
    pid, title = path.id, {"title": "Parcours maintenance"}
    lockout_args, ladder_args = title | {"module": "Consignation"}, title | {"module": "Travail en hauteur"}
    nobody: dict[str, Bell] = {role: [] for role in People.ROLES}
    assert people.bells(client) == nobody | {"learner": [("trainingPathToAccept", pid, title)]}

    path.status("accepted", at(10))
    assert people.bells(client) == nobody

    path.status("started", at(20))
    assert people.bells(client) == nobody | {
        "first": [("trainingModuleToStart", pid, lockout_args), ("trainingModuleToStart", pid, ladder_args)],
        "second": [("trainingModuleToStart", pid, ladder_args)],
    }

    path.module_status(0, "started", at(30))
    path.module_status(1, "started", at(31))
    assert people.bells(client) == nobody

    path.module_status(1, "finished", at(40))
    assert people.bells(client) == nobody | {
        "first": [("trainingModuleToGrade", pid, ladder_args)],
        "second": [("trainingModuleToGrade", pid, ladder_args)],
    }

    path.module_status(1, "validated", at(50))
    path.module_status(0, "finished", at(51))
    assert people.bells(client) == nobody | {
        "learner": [("trainingModuleToSign", pid, ladder_args)],
        "first": [("trainingModuleToGrade", pid, lockout_args)],
    }

    path.module_status(0, "validated", at(60))
    path.module_status(1, "archived", at(61))
    assert people.bells(client) == nobody | {"learner": [("trainingModuleToSign", pid, lockout_args)]}

    path.module_status(0, "archived", at(70))
    path.status("finished", at(70))
    assert people.bells(client) == nobody | {"creator": [("trainingPathToClose", pid, title)]}

    path.status("validated", at(80))
    assert people.bells(client) == nobody | {"learner": [("trainingPathToSign", pid, title)]}

    path.status("archived", at(90))
    assert people.bells(client) == nobody


def test_each_alert_is_dated_by_the_status_change_that_made_it_awaited(client, db, make_user, login):
    people = People(make_user, login)
    first = module(db, "Premier")
    older = Path(db, title="Ancien", learner=people["learner"], creator=people["creator"], modules=[])
    newer = Path(
        db, title="Récent", learner=people["learner"], creator=people["creator"], modules=[(first, [])]
    )
    older.status("notAccepted", at(5))
    newer.status("started", at(7))
    newer.module_status(0, "validated", at(9))
    response = client.get(URL, headers=people.headers["learner"]).json()
    assert [(a["kind"], a["target"]["id"], a["date"]) for a in response["alerts"]] == [
        ("trainingModuleToSign", newer.id, iso(at(9))),
        ("trainingPathToAccept", older.id, iso(at(5))),
    ]
    assert response["count"] == 2


def test_a_path_past_its_stop_date_is_no_longer_to_accept(client, db, make_user, login):
    people = People(make_user, login)
    Path(
        db,
        title="Trop tard",
        learner=people["learner"],
        creator=people["creator"],
        modules=[],
        stop_date=today() - timedelta(days=1),
    )
    last_day = Path(
        db,
        title="Dernier jour",
        learner=people["learner"],
        creator=people["creator"],
        modules=[],
        stop_date=today(),
    )
    assert path_alerts(client, people.headers["learner"]) == [
        ("trainingPathToAccept", last_day.id, {"title": "Dernier jour"})
    ]


def test_a_canceled_path_awaits_nothing(client, db, make_user, login):
    people = People(make_user, login)
    graded, waiting = module(db, "Noté"), module(db, "En attente")
    path = Path(
        db,
        title="Annulé",
        learner=people["learner"],
        creator=people["creator"],
        modules=[(graded, [people["first"]]), (waiting, [people["first"]])],
    )
    path.module_status(0, "validated", at(5))
    path.status("canceled", at(10))
    assert people.bells(client) == {role: [] for role in People.ROLES}


def test_modules_are_awaited_only_while_the_path_is_started(client, db, make_user, login):
    """A referent starts and grades modules of a started path only: before it starts, or once it is
    finished, a module not started or finished is not theirs to act on."""
    people = People(make_user, login)
    first, second = module(db, "Premier"), module(db, "Second")
    path = Path(
        db,
        title="Parcours",
        learner=people["learner"],
        creator=people["creator"],
        modules=[(first, [people["first"]]), (second, [people["first"]])],
    )
    path.module_status(1, "finished", at(5))
    for status in ("accepted", "finished", "validated"):
        path.status(status, at(10))
        assert path_alerts(client, people.headers["first"]) == []


def test_a_referent_sees_only_the_modules_they_follow(client, db, make_user, login):
    people = People(make_user, login)
    first, second = module(db, "Premier"), module(db, "Second")
    path = Path(
        db,
        title="Parcours",
        learner=people["learner"],
        creator=people["creator"],
        modules=[(first, [people["first"]]), (second, [people["second"]])],
    )
    path.status("started", at(10))
    path.module_status(0, "finished", at(12))
    assert people.bells(client)["first"] == [
        ("trainingModuleToGrade", path.id, {"title": "Parcours", "module": "Premier"})
    ]
    assert people.bells(client)["second"] == [
        ("trainingModuleToStart", path.id, {"title": "Parcours", "module": "Second"})
    ]


def test_at_most_the_limit_with_the_exact_count(client, db, make_user, login):
    people = People(make_user, login)
    extra = LIMIT + 5
    modules = [(module(db, f"Module {n}"), [people["first"]]) for n in range(3)]
    for n in range(extra):
        path = Path(db, title=f"P{n}", learner=people["learner"], creator=people["creator"], modules=modules)
        path.status("started", at(n))
    learner = client.get(URL, headers=people.headers["learner"]).json()
    assert learner["count"] == 0
    referent = client.get(URL, headers=people.headers["first"]).json()
    assert referent["count"] == extra * 3
    assert len(referent["alerts"]) == LIMIT
    # Newest first: the last path's three modules, in their order.
    assert [(a["args"]["title"], a["args"]["module"]) for a in referent["alerts"][:4]] == [
        (f"P{extra - 1}", "Module 0"),
        (f"P{extra - 1}", "Module 1"),
        (f"P{extra - 1}", "Module 2"),
        (f"P{extra - 2}", "Module 0"),
    ]


def test_each_action_through_the_api_moves_the_alert_to_the_next_person(client, db, make_user, login):
    """The same steps taken through the path's calls: each alert goes once its action is done."""
    cast = Cast.of(make_user, login)
    first, second = make_module(db, "Consignation"), make_module(db, "Hauteur")
    pid = make_path(client, cast, [first, second])
    title = {"title": "Parcours consignation"}
    lockout, height = title | {"module": "Consignation"}, title | {"module": "Hauteur"}

    def bells() -> dict[str, Bell]:
        return {role: found for role in ROLES if (found := path_alerts(client, cast.headers[role]))}

    assert bells() == {"learner": [("trainingPathToAccept", pid, title)]}
    act(client, cast, "learner", pid, "accept")
    assert bells() == {}
    act(client, cast, "creator", pid, "start")
    assert bells() == {
        "referent": [("trainingModuleToStart", pid, lockout), ("trainingModuleToStart", pid, height)]
    }
    act(client, cast, "referent", pid, "0/startNow")
    assert bells() == {"referent": [("trainingModuleToStart", pid, height)]}
    # The learner opens the module's only element: it is finished, to grade.
    assert act(client, cast, "learner", pid, "0/0/url")["assignedModules"][0]["status"] == "finished"
    assert sorted(bells()["referent"]) == [
        ("trainingModuleToGrade", pid, lockout),
        ("trainingModuleToStart", pid, height),
    ]
    act(client, cast, "referent", pid, "0/grade", GRADE)
    assert bells() == {
        "learner": [("trainingModuleToSign", pid, lockout)],
        "referent": [("trainingModuleToStart", pid, height)],
    }
    act(client, cast, "learner", pid, "0/sign", SIGN)
    act(client, cast, "referent", pid, "1/startNow")
    act(client, cast, "referent", pid, "1/grade", GRADE)
    # Every module graded: the path is finished, for its creator to close.
    assert get(client, cast, pid)["status"] == "finished"
    assert bells() == {
        "learner": [("trainingModuleToSign", pid, height)],
        "creator": [("trainingPathToClose", pid, title)],
    }
    act(client, cast, "learner", pid, "1/sign", SIGN)
    assert bells() == {"creator": [("trainingPathToClose", pid, title)]}
    act(client, cast, "creator", pid, "validate", {"comment": "Parcours clos"})
    assert bells() == {"learner": [("trainingPathToSign", pid, title)]}
    act(client, cast, "learner", pid, "sign", SIGN)
    assert bells() == {}


def test_a_finished_path_spot_opened_is_for_the_path_administrators_to_close(client, db, make_user, login):
    """A path Spot opened (a requalification) has no creator: the administrators, who may close any
    path, find it in their bell beside the paths they created; nobody else does."""
    people = People(make_user, login)
    admin = make_user(login="pathAdmin", permissions=["perm_TrainingPathAdmin"])
    admin_headers = login(admin)
    learner, creator = people["learner"], people["creator"]
    opened = Path(db, title="Requalification", learner=learner, creator=creator, modules=[])
    own = Path(db, title="Mien", learner=learner, creator=admin, modules=[])
    other = Path(db, title="D'un autre", learner=learner, creator=creator, modules=[])
    db.execute(
        update(TrainingPath)
        .where(TrainingPath.id == opened.id)
        .values(creator_id=None, opened_by_spot=True)
        .execution_options(synchronize_session=False)
    )
    db.commit()
    opened.status("finished", at(10))
    own.status("finished", at(20))
    other.status("finished", at(30))
    assert path_alerts(client, admin_headers) == [
        ("trainingPathToClose", own.id, {"title": "Mien"}),
        ("trainingPathToClose", opened.id, {"title": "Requalification"}),
    ]
    assert path_alerts(client, people.headers["creator"]) == [
        ("trainingPathToClose", other.id, {"title": "D'un autre"})
    ]
    for role in ("learner", "first", "viewer"):
        assert path_alerts(client, people.headers[role]) == []
