from sqlalchemy import func, select

from spot import demo
from spot.core.passwords import hash_password
from spot.training.modules.models import TrainingModule, TrainingModuleItem
from spot.users.models import User
from support import API, PASSWORD
from training.catalogue import MODULES


def test_the_demo_modules_use_every_element_kind_and_resolve(demo_org, client, db):
    demo.seed(db)
    db.commit()
    assert db.scalar(select(func.count()).select_from(TrainingModule)) == 10
    kinds = set(db.execute(select(TrainingModuleItem.kind, TrainingModuleItem.spot_item_type)).all())
    assert kinds == {
        ("spot", "site"),
        ("spot", "cartography"),
        ("spot", "activity"),
        ("spot", "function"),
        ("spot", "subject"),
        ("mediation", None),
        ("url", None),
        ("lms", None),
    }
    manager = db.scalar(select(User).where(User.login == "formation"))
    manager.password_hash = hash_password(PASSWORD)
    db.commit()
    token = client.post(f"{API}/account/login", json={"username": "formation", "password": PASSWORD}).json()[
        "token"
    ]
    headers = {"x-access-token": token}
    cards = client.post(f"{MODULES}/query", json={"pageSize": 50}, headers=headers).json()["results"]
    assert len(cards) == 10 and [c["enabled"] for c in cards].count(False) == 1
    assert sum(c["reference"] is not None for c in cards) == 9
    for card in cards:
        module = client.get(f"{MODULES}/{card['id']}", headers=headers).json()
        assert module["creation"]["userName"]
        for item in module["moduleItems"]:
            assert item.get("readable", True) and item.get("found", True), (module["name"], item)
