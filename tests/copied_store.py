"""A companion of a test's or a module's own, made on a copy of the run's migrated store
(tests/conftest.py's ``migrated_store``) rather than on a new file: ``create_app`` on a new file
runs every migration, half a second of CPU, where on a copy it only examines the store
(issue 44). For a test that needs an app beside the ``app`` fixture's (a second store to
compare with) or a module's app it keeps for its tests; the tests of the migrations build
their stores themselves."""

import shutil
from pathlib import Path

from flask import Flask

from companion import create_app


def app_on_a_copy(migrated_store: Path, path: Path, **config) -> Flask:
    """The companion made with ``config`` (testing, and a secret, unless it says otherwise) on
    a copy of ``migrated_store`` at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(migrated_store, path)
    return create_app({"TESTING": True, "SECRET_KEY": "test", **config, "DATABASE": str(path)})
