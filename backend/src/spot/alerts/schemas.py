from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import Field

from spot.core.schemas import CamelModel


class AlertKind(StrEnum):
    """What the user is awaited for; the client has a sentence per kind (i18n `alerts.kinds.<kind>`),
    filled with the alert's `args`. Each area adds its kinds here, with a provider in service.py."""

    # Each kind's provider is registered by its area (alerts.service.register), listed in this order.
    # Subjects the user follows that changed since their last visit (subjects.alerts): args {"name"}.
    subjectChanged = "subjectChanged"
    # Mediations awaiting the user (mediations.actionable): args {"title"}.
    mediationToStart = "mediationToStart"
    mediationToReport = "mediationToReport"
    mediationToValidate = "mediationToValidate"
    mediationToSign = "mediationToSign"
    # Training paths awaiting the user (training.paths.alerts): args {"title"}, and {"module"} for a module.
    trainingPathToAccept = "trainingPathToAccept"
    trainingPathToSign = "trainingPathToSign"
    trainingModuleToStart = "trainingModuleToStart"
    trainingModuleToGrade = "trainingModuleToGrade"
    trainingModuleToSign = "trainingModuleToSign"
    # The creator, of a finished path that awaits its closing (validate): args {"title"}.
    trainingPathToClose = "trainingPathToClose"
    # Qualifications expiring (qualifications.alerts): the user's own within 30 days, args {"name",
    # "validUntil" (the last valid day), "days" (left, today included: 1 on the last day)}; for
    # perm_TableauBord holders, their groups' members' within 90 days, args {"name", "user", "validUntil",
    # "days", "window"} (window: the smallest of 90, 60, 30 and 7 that is at least the days after today).
    qualificationExpiring = "qualificationExpiring"
    teamQualificationExpiring = "teamQualificationExpiring"
    # For perm_TableauBord holders, a function of a cartography they see falling under its minimum of
    # qualified people within 60 days (notifications.coverage, as the daily scan found it): args
    # {"name", "cartography", "fallsOn" (the first day under it), "days" (until then), "valid"
    # (qualified that day), "minimum"}.
    functionUnderMinimum = "functionUnderMinimum"
    # The result of a job of the user (a zip of PDFs, an export) is ready and not downloaded yet
    # (jobs.alerts): args {"name"} (the file's name).
    jobReady = "jobReady"


class AlertTarget(CamelModel):
    """The page where the action is done: the client builds its address from the type and the id."""

    type: Literal[
        "subject", "mediation", "trainingPath", "userQualifications", "cartographyQualifications", "job"
    ]
    # userQualifications: the user's qualification dashboard (the id is the user's);
    # cartographyQualifications: a cartography's qualification dashboard (the id is the cartography's);
    # job: the user's jobs page (the id is the job's).
    id: int


class Alert(CamelModel):
    kind: AlertKind
    # The sentence's arguments, by name ({"name": "Changer une plaquette"}).
    args: dict[str, str | int]
    date: datetime
    target: AlertTarget


class Alerts(CamelModel):
    """The newest alerts (at most 50), newest first, and how many there are in all."""

    alerts: list[Alert]
    count: int = Field(ge=0)
