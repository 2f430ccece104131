import pytest
from sqlalchemy.orm import Session

from training.catalogue import MANAGE, Course


@pytest.fixture
def course(db: Session) -> Course:
    return Course(db)


@pytest.fixture
def manager(make_user, login) -> dict[str, str]:
    return login(make_user("gestionnaire", [MANAGE], first_name="Gaëlle", last_name="Gestion"))
