"""The table's blueprint with every route of the room on it (a hand's, the organiser's ticked
matches, the ratings' switch), as ``create_app`` registers it."""

from . import changes, hands, rated, selected  # noqa: F401  (their routes, registered on bp)
from .views import bp  # noqa: F401  (create_app registers it)
