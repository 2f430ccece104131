"""The `spot` command: migrate, create-user, seed-demo, serve."""

import http.server
import socket
import threading

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from spot import cli
from spot.demo import DEMO_PASSWORD
from spot.demo.people import GROUPS, LEFT, LOGINS
from spot.permissions.names import ALL_PERMISSIONS
from spot.users.models import Group, User
from support import API

runner = CliRunner()


def _sign_in(client, login: str, password: str):
    return client.post(f"{API}/account/login", json={"username": login, "password": password})


def _counts(db) -> tuple[int, int]:
    db.expire_all()
    return db.scalar(select(func.count()).select_from(User)), db.scalar(
        select(func.count()).select_from(Group)
    )


def test_migrate_is_repeatable(app):
    for _ in range(2):
        result = runner.invoke(cli.app, ["migrate"])
        assert result.exit_code == 0, result.output


def test_create_user(client, db):
    result = runner.invoke(
        cli.app,
        [
            "create-user",
            "jeanne",
            "--password",
            "s3cret-pass",
            "--first-name",
            "Jeanne",
            "--last-name",
            "Dupont",
            "--external-id",
            "J-1",
            "--email",
            "Jeanne.Dupont@Usine.example",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "jeanne" in result.output
    user = db.scalar(select(User).where(User.login == "jeanne"))
    assert (user.first_name, user.last_name, user.external_id, user.groups) == ("Jeanne", "Dupont", "J-1", [])
    assert user.email == "jeanne.dupont@usine.example"
    assert _sign_in(client, "jeanne", "s3cret-pass").status_code == 200


def test_create_admin_holds_every_permission(client, db):
    for login in ("root", "root2"):
        result = runner.invoke(cli.app, ["create-user", login, "--password", "s3cret-pass", "--admin"])
        assert result.exit_code == 0, result.output
    token = _sign_in(client, "root", "s3cret-pass").json()["token"]
    who = client.get(f"{API}/account/whoAmI", headers={"x-access-token": token}).json()
    assert who["permissions"] == sorted(ALL_PERMISSIONS)
    # Both administrators share one group.
    assert db.scalar(select(func.count()).select_from(Group)) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["create-user", "dup", "--password", "s3cret-pass"],
        ["create-user", "new", "--password", "short"],
        ["create-user", " padded", "--password", "s3cret-pass"],
        ["create-user", "mail", "--password", "s3cret-pass", "--email", "not-an-address"],
    ],
)
def test_create_user_refusals_exit_with_code_2(db, args):
    assert runner.invoke(cli.app, ["create-user", "dup", "--password", "s3cret-pass"]).exit_code == 0
    before = _counts(db)
    result = runner.invoke(cli.app, args)
    assert result.exit_code == 2
    assert _counts(db) == before


def test_create_user_needs_a_password(app):
    assert runner.invoke(cli.app, ["create-user", "nopass"]).exit_code != 0


def test_seed_demo_is_idempotent_and_every_demo_login_signs_in(client, db):
    first = runner.invoke(cli.app, ["seed-demo"])
    assert first.exit_code == 0, first.output
    assert DEMO_PASSWORD in first.output
    counts = _counts(db)
    assert counts == (len(LOGINS) + len(LEFT), len(GROUPS))
    second = runner.invoke(cli.app, ["seed-demo"])
    assert second.exit_code == 0, second.output
    assert _counts(db) == counts
    for demo in LOGINS:
        assert demo.login in first.output
        response = _sign_in(client, demo.login, DEMO_PASSWORD)
        assert response.status_code == 200, demo.login
        who = client.get(f"{API}/account/whoAmI", headers={"x-access-token": response.json()["token"]}).json()
        assert sorted(g["name"] for g in who["groups"]) == sorted(demo.groups)
    for demo in LEFT:  # people who left: named, deactivated, refused at sign-in
        assert demo.login not in first.output
        assert _sign_in(client, demo.login, DEMO_PASSWORD).json()["message"] == "accountDeactivated"
    admin_token = _sign_in(client, "admin", DEMO_PASSWORD).json()["token"]
    admin = client.get(f"{API}/account/whoAmI", headers={"x-access-token": admin_token}).json()
    assert admin["permissions"] == sorted(ALL_PERMISSIONS)


def test_seed_demo_keeps_existing_users(client, db):
    runner.invoke(cli.app, ["create-user", "admin", "--password", "mine-not-demo"])
    assert runner.invoke(cli.app, ["seed-demo"]).exit_code == 0
    assert _sign_in(client, "admin", "mine-not-demo").status_code == 200
    assert _counts(db)[0] == len(LOGINS) + len(LEFT)


def test_serve_migrates_then_runs_the_app(monkeypatch):
    calls: list[tuple[str, dict]] = []
    monkeypatch.setattr(cli.database, "migrate", lambda: calls.append(("migrate", {})))
    monkeypatch.setattr(cli.uvicorn, "run", lambda target, **kw: calls.append((target, kw)))
    result = runner.invoke(cli.app, ["serve", "--host", "0.0.0.0", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert [c[0] for c in calls] == ["migrate", "spot.main:create_app"]
    assert calls[1][1]["factory"] is True
    assert (calls[1][1]["host"], calls[1][1]["port"]) == ("0.0.0.0", 8123)


def test_serve_says_where_once_it_answers_with_the_demo_logins(monkeypatch):
    """Migrations run once, and the address (with the demo logins) comes when the server answers, not
    when uvicorn starts listening."""
    calls: list[str] = []
    monkeypatch.setattr(cli.database, "migrate", lambda: calls.append("migrate"))
    monkeypatch.setattr(cli, "_demo_logins", lambda: calls.append("demo") or ["Demo logins: admin"])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    address = f"http://127.0.0.1:{port}/spotv2/"

    def run(target: str, **options: object) -> None:
        calls.append(target)
        (announcer,) = [t for t in threading.enumerate() if t.name == f"{cli.ANNOUNCER} {address}"]
        assert announcer.is_alive()  # nothing answers yet: nothing said
        server = http.server.HTTPServer(("127.0.0.1", port), http.server.BaseHTTPRequestHandler)
        threading.Thread(target=server.handle_request, daemon=True).start()
        announcer.join(timeout=60)
        server.server_close()
        assert not announcer.is_alive()

    monkeypatch.setattr(cli.uvicorn, "run", run)
    result = runner.invoke(cli.app, ["serve", "--demo", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert calls == ["migrate", "demo", "spot.main:create_app"]
    assert result.stdout.splitlines() == ["Demo logins: admin", f"Spot is at {address}"]
