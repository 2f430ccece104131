"""Property-based tests of the whole API from its OpenAPI document (schemathesis): whatever the input, no
answer is a 5xx, every answer matches the document (status code and body), protected routes included."""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from spot import db as database
from spot.account import service as account_service
from spot.main import create_app
from spot.permissions.names import ALL_PERMISSIONS
from spot.users.models import User
from support import API

# Uploaded archives are bytes like any other.
schemathesis.serializer.alias("application/zip", "application/octet-stream")
schema = schemathesis.openapi.from_asgi(f"{API}/openapi.json", create_app())

CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance]


@pytest.fixture
def admin_id(app, make_user) -> int:  # noqa: ANN001
    """An administrator holding every permission, so that the protected routes do their work."""
    make_user("first", ["perm_SetPermissions"])
    return make_user("admin", ALL_PERMISSIONS).id


def _token(user_id: int) -> str:
    with database.session_factory()() as db:
        user = db.get(User, user_id)
        token = account_service.issue_token(db, user=user) if user else "deleted-user"
        db.commit()
    return token


@pytest.fixture
def admin_token(admin_id) -> str:  # noqa: ANN001
    return _token(admin_id)


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_api_conforms_to_its_document(case, admin_id, admin_token):
    # Logging out ends the session: each of its examples gets a session of its own.
    token = _token(admin_id) if case.path.endswith("/account/logout") else admin_token
    case.call_and_validate(headers={"x-access-token": token}, checks=CHECKS)
