"""The demo's notification preferences (demo.notifications): Hélène Fournier's page shows her invitations
in the digest and followed subjects never; her invitation to the scheduled mediation is kept for the
digest (or gathered in one), never queued alone, while the others invited get theirs queued."""

from sqlalchemy import select

from mapping.test_mapping_demo import demo_login
from spot import demo
from spot.notifications.models import NotificationPreference, OutboxMessage
from support import API


def test_helene_reads_her_invitations_in_the_digest_and_the_outbox_shows_it(demo_org, client, db):
    headers = demo_login(client, db, "operatrice")
    modes = {
        p["kind"]: p["mode"]
        for p in client.get(f"{API}/notifications/preferences", headers=headers).json()["preferences"]
    }
    assert (modes["mediationInvitation"], modes["subjectChanged"], modes["mediationToSign"]) == (
        "digest",
        "never",
        "now",
    )

    invitations = db.execute(
        select(OutboxMessage.to_address, OutboxMessage.status).where(
            OutboxMessage.kind == "mediationInvitation"
        )
    ).all()
    statuses = dict(invitations)
    assert statuses["helene.fournier@usine-demo.example"] in ("held", "digested")
    assert statuses["david.moreau@usine-demo.example"] == "queued"

    # Seeding again keeps what she has (and adds nothing).
    count = len(db.scalars(select(NotificationPreference)).all())
    demo.seed(db)
    db.commit()
    assert len(db.scalars(select(NotificationPreference)).all()) == count == 2
