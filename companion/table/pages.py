"""The table's blueprint with every route of the room on it (a hand's, the organiser's ticked
matches, the ratings' switch), as ``create_app`` registers it."""

from . import hands, rated, selected  # noqa: F401  (their routes, registered on bp)
from .charts import running_chart
from .views import bp

bp.add_app_template_global(running_chart)
