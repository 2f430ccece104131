"""The kinds of message a person chooses for (docs/notifications.md), each with its default mode: what
a plant expects (signatures, invitations and expiry immediately; followed subjects changed in the daily
digest; the rest immediately). Every kind of the bell, and the mediation invitation.

A kind not listed here (the test message, the digest itself) is always sent."""

from enum import StrEnum

from spot.alerts.schemas import AlertKind

MEDIATION_INVITATION = "mediationInvitation"
# The daily digest gathering what people chose to receive once a day (notifications.digest).
DIGEST = "digest"


class Mode(StrEnum):
    now = "now"  # sent on its own, within seconds
    digest = "digest"  # kept for the person's next daily digest
    never = "never"  # not sent (the bell still shows it)


class Group(StrEnum):
    """How the preferences page gathers the kinds."""

    mediations = "mediations"
    training = "training"
    qualifications = "qualifications"
    subjects = "subjects"


# Every kind people choose for, in the order the page lists them, with its group and its default mode.
KINDS: dict[str, tuple[Group, Mode]] = {
    MEDIATION_INVITATION: (Group.mediations, Mode.now),
    AlertKind.mediationToStart: (Group.mediations, Mode.now),
    AlertKind.mediationToReport: (Group.mediations, Mode.now),
    AlertKind.mediationToValidate: (Group.mediations, Mode.now),
    AlertKind.mediationToSign: (Group.mediations, Mode.now),
    AlertKind.trainingPathToAccept: (Group.training, Mode.now),
    AlertKind.trainingModuleToStart: (Group.training, Mode.now),
    AlertKind.trainingModuleToGrade: (Group.training, Mode.now),
    AlertKind.trainingModuleToSign: (Group.training, Mode.now),
    AlertKind.trainingPathToSign: (Group.training, Mode.now),
    AlertKind.qualificationExpiring: (Group.qualifications, Mode.now),
    AlertKind.teamQualificationExpiring: (Group.qualifications, Mode.now),
    AlertKind.subjectChanged: (Group.subjects, Mode.digest),
}
KINDS = {str(kind): value for kind, value in KINDS.items()}


def default(kind: str) -> Mode | None:
    """The mode a person gets until they choose; None for a kind people do not choose for (always sent)."""
    found = KINDS.get(kind)
    return found[1] if found else None
