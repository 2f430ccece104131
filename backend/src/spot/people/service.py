"""Importing people and their groups from a file (docs/people.md): each row is matched on its external
id, else its login; a dry run says what each row would do; applying is all-or-nothing (a file with a
refused row changes nothing); an option deactivates the active people the file does not list."""

import logging
from collections import Counter
from dataclasses import dataclass, field

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.people import policy
from spot.people.reading import Sheet, read
from spot.people.schemas import ImportedPerson, ImportReport, RowError, RowOutcome
from spot.users import service as users
from spot.users.models import Group, User

log = logging.getLogger("spot.security")

TRUE = {"", "1", "true", "yes", "oui", "vrai", "x"}
FALSE = {"0", "false", "no", "non", "faux"}
# A cell that a spreadsheet would take for a formula (=HYPERLINK(…)): refused, never evaluated.
FORMULA_START = "="
_FIELDS = {"firstName": "first_name", "lastName": "last_name", "externalId": "external_id", "email": "email"}


@dataclass
class _Row:
    line: int
    values: dict[str, str]
    errors: list[RowError] = field(default_factory=list)
    person: ImportedPerson | None = None
    groups: list[Group] | None = None
    active: bool | None = None
    user: User | None = None


def run(
    db: Session, *, data: bytes, dry_run: bool, deactivate_missing: bool, importer: Principal | None
) -> ImportReport:
    """`importer`: who runs it (None: the server's operator, from the command line). 400 with a
    message key when the file itself cannot be read (people.reading.read)."""
    sheet = read(data)
    rows = [_Row(line, values) for line, values in sheet.rows]
    groups = {g.name: g for g in db.scalars(select(Group))}
    for row in rows:
        _check(row, sheet, groups)
    _refuse_duplicates(rows)
    everyone = list(db.scalars(select(User)))
    _match(rows, everyone)
    for row in rows:
        if (
            row.user is not None
            and row.active is False
            and not policy.may_deactivate_by_import(importer, row.user.id)
        ):
            row.errors.append(RowError(column="active", code="cannotDeactivateYourself"))
    refused = any(row.errors for row in rows)
    outcomes = [_outcome(row, sheet) for row in rows]
    matched = {row.user.id for row in rows if row.user is not None}
    missing = [
        u
        for u in everyone
        if deactivate_missing
        and u.active
        and u.id not in matched
        and policy.may_deactivate_by_import(importer, u.id)
    ]
    outcomes += [
        RowOutcome(line=None, login=u.login, name=u.display_name, outcome="deactivated", errors=[])
        for u in missing
    ]
    applied = not dry_run and not refused
    if applied:
        _apply(db, rows, sheet, missing, importer)
        for outcome, row in zip(outcomes, rows, strict=False):
            if row.user is not None:
                outcome.name = row.user.display_name
    counts = Counter(o.outcome for o in outcomes)
    if not dry_run:
        log.info("people import applied=%s %s", applied, dict(counts))
    return ImportReport(
        applied=applied,
        created=counts["created"],
        updated=counts["updated"],
        unchanged=counts["unchanged"],
        deactivated=counts["deactivated"],
        refused=counts["refused"],
        rows=outcomes,
    )


def _check(row: _Row, sheet: Sheet, groups: dict[str, Group]) -> None:
    """The row's values by the users screen's rules; groups must exist; active is yes or no."""
    for column, value in row.values.items():
        if value.strip().startswith(FORMULA_START):
            row.errors.append(RowError(column=column, code="formulaNotAllowed"))
    if row.errors:
        return
    given = {"login": row.values.get("login", "")}
    given |= {name: row.values[column].strip() for column, name in _FIELDS.items() if column in sheet.columns}
    try:
        row.person = ImportedPerson.model_validate(given)
    except ValidationError as exc:
        for error in exc.errors():
            column = next((c for c, n in _FIELDS.items() if n == error["loc"][0]), str(error["loc"][0]))
            code = "emptyFieldError" if error["type"] == "missing" else error["type"]
            row.errors.append(RowError(column=column, code=code))
    if "groups" in sheet.columns:
        names = [name.strip() for name in row.values["groups"].split("|") if name.strip()]
        unknown = [name for name in names if name not in groups]
        if unknown:
            row.errors.append(RowError(column="groups", code="unknownGroup"))
        row.groups = [groups[name] for name in dict.fromkeys(names) if name in groups]
    if "active" in sheet.columns:
        value = row.values["active"].strip().lower()
        if value in TRUE:
            row.active = True
        elif value in FALSE:
            row.active = False
        else:
            row.errors.append(RowError(column="active", code="invalidValue"))


def _refuse_duplicates(rows: list[_Row]) -> None:
    """A login, external id or e-mail address given on two rows refuses both."""
    for column, key in (("login", "login"), ("externalId", "external_id"), ("email", "email")):
        seen = Counter(getattr(row.person, key) for row in rows if row.person and getattr(row.person, key))
        for row in rows:
            value = getattr(row.person, key) if row.person else None
            if value and seen[value] > 1:
                row.errors.append(RowError(column=column, code="duplicateInFile"))


def _match(rows: list[_Row], everyone: list[User]) -> None:
    """Each row's person: by external id, else by login (one without another external id); the login
    and e-mail address it would take must not be another person's."""
    by_external = {u.external_id: u for u in everyone if u.external_id}
    by_login = {u.login: u for u in everyone}
    by_email = {u.email: u for u in everyone if u.email}
    for row in rows:
        person = row.person
        if person is None:
            continue
        user = by_external.get(person.external_id) if person.external_id else None
        if user is None:
            user = by_login.get(person.login)
            if user is not None and person.external_id and user.external_id not in (None, person.external_id):
                row.errors.append(RowError(column="login", code="loginAlreadyUsed"))
                continue
        elif by_login.get(person.login, user) is not user:
            row.errors.append(RowError(column="login", code="loginAlreadyUsed"))
            continue
        if person.email and by_email.get(person.email, user) is not user:
            row.errors.append(RowError(column="email", code="emailAlreadyUsed"))
            continue
        row.user = user


def _changes(row: _Row, sheet: Sheet) -> dict[str, object]:
    """What the row would change on its person (all of it for a new one)."""
    person, user = row.person, row.user
    assert person is not None
    wanted: dict[str, object] = {"login": person.login}
    for column, name in _FIELDS.items():
        if column in sheet.columns:
            value = getattr(person, name)
            wanted[name] = (value or None) if name in ("external_id", "email") else value
    if user is None:
        return wanted
    changes = {name: value for name, value in wanted.items() if getattr(user, name) != value}
    if row.groups is not None and {g.id for g in row.groups} != {g.id for g in user.groups}:
        changes["groups"] = row.groups
    return changes


def _outcome(row: _Row, sheet: Sheet) -> RowOutcome:
    login = row.person.login if row.person else row.values.get("login", "")
    if row.errors:
        return RowOutcome(line=row.line, login=login, name=login, outcome="refused", errors=row.errors)
    user = row.user
    if user is None:
        outcome = "created"
    elif row.active is False and user.active:
        outcome = "deactivated"
    elif _changes(row, sheet) or (row.active is True and not user.active):
        outcome = "updated"
    else:
        outcome = "unchanged"
    return RowOutcome(line=row.line, login=login, name=_printed_name(row, sheet), outcome=outcome, errors=[])


def _printed_name(row: _Row, sheet: Sheet) -> str:
    """The person's printed name once the row is applied (User.display_name's rule)."""
    fields = ("login", "first_name", "last_name", "external_id")
    current: dict[str, object] = {"first_name": "", "last_name": "", "external_id": None}
    if row.user is not None:
        current = {name: getattr(row.user, name) for name in fields}
    changes = _changes(row, sheet)
    return User(**(current | {name: changes[name] for name in fields if name in changes})).display_name


def _apply(
    db: Session, rows: list[_Row], sheet: Sheet, missing: list[User], importer: Principal | None
) -> None:
    for row in rows:
        changes = _changes(row, sheet)
        if row.user is None:
            groups = changes.pop("groups", row.groups or [])
            row.user = User(**changes, groups=groups, active=row.active is not False)
            db.add(row.user)
            continue
        for name, value in changes.items():
            setattr(row.user, name, value)
        if row.active is not None:
            users.set_active(db, user=row.user, active=row.active, by=importer)
    for user in missing:
        users.set_active(db, user=user, active=False, by=importer)
    db.flush()
    users.ensure_an_administrator_remains(db)
