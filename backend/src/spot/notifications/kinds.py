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


class KindGroup(StrEnum):
    """How the preferences page gathers the kinds."""

    mediations = "mediations"
    training = "training"
    qualifications = "qualifications"
    subjects = "subjects"
    files = "files"


# Every kind people choose for, in the order the page lists them, with its group and its default mode.
KINDS: dict[str, tuple[KindGroup, Mode]] = {
    MEDIATION_INVITATION: (KindGroup.mediations, Mode.now),
    AlertKind.mediationToStart: (KindGroup.mediations, Mode.now),
    AlertKind.mediationToReport: (KindGroup.mediations, Mode.now),
    AlertKind.mediationToValidate: (KindGroup.mediations, Mode.now),
    AlertKind.mediationToSign: (KindGroup.mediations, Mode.now),
    AlertKind.trainingPathToAccept: (KindGroup.training, Mode.now),
    AlertKind.trainingModuleToStart: (KindGroup.training, Mode.now),
    AlertKind.trainingModuleToGrade: (KindGroup.training, Mode.now),
    AlertKind.trainingModuleToSign: (KindGroup.training, Mode.now),
    AlertKind.trainingPathToSign: (KindGroup.training, Mode.now),
    AlertKind.trainingPathToClose: (KindGroup.training, Mode.now),
    AlertKind.qualificationExpiring: (KindGroup.qualifications, Mode.now),
    AlertKind.teamQualificationExpiring: (KindGroup.qualifications, Mode.now),
    AlertKind.functionUnderMinimum: (KindGroup.qualifications, Mode.now),
    AlertKind.subjectChanged: (KindGroup.subjects, Mode.digest),
    AlertKind.jobReady: (KindGroup.files, Mode.now),
}
KINDS = {str(kind): value for kind, value in KINDS.items()}


def default(kind: str) -> Mode | None:
    """The mode a person gets until they choose; None for a kind people do not choose for (always sent)."""
    found = KINDS.get(kind)
    return found[1] if found else None
