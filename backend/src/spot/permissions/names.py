from enum import StrEnum


class Permission(StrEnum):
    """The permission names of spec 1 §3; a user holds the union of its groups' permissions."""

    TableauBord = "perm_TableauBord"
    VisuTrack = "perm_VisuTrack"
    EditPdv = "perm_EditPdv"
    RemPdv = "perm_RemPdv"
    EditNotHaute = "perm_EditNotHaute"
    ValidNotHaute = "perm_ValidNotHaute"
    EditNotBasse = "perm_EditNotBasse"
    SetPermissions = "perm_SetPermissions"
    EditResourcesVideos = "perm_EditResourcesVideos"
    TrainingManagement = "perm_TrainingManagement"
    UserManagement = "perm_UserManagement"
    TrainingPathView = "perm_TrainingPathView"
    TrainingPathAdmin = "perm_TrainingPathAdmin"
    TrainingReferenceAdmin = "perm_TrainingReferenceAdmin"
    QualificationAdmin = "perm_QualificationAdmin"


ALL_PERMISSIONS: list[str] = [p.value for p in Permission]
