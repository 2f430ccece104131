from mapping.test_mapping_demo import demo_login
from spot import demo
from support import API


def names(client, headers) -> list[str]:
    return [
        alert["args"]["name"]
        for alert in client.get(f"{API}/account/alerts", headers=headers).json()["alerts"]
        if alert["kind"] == "subjectChanged"
    ]


def test_the_demo_administrator_and_a_learner_find_alerts_in_the_bell(demo_org, client, db):
    demo.seed(db)
    db.commit()
    assert {"Stockage des matières en racks", "Préparation des sous-ensembles"} <= set(
        names(client, demo_login(client, db, "admin"))
    )
    assert "Identification des lots matière" in names(client, demo_login(client, db, "operatrice"))
