import os

import pytest
from hypothesis import settings

from companion import create_app
from helpers import FUZZ

# The suite reads the pages in English, the messages' own language, unless a test asks for
# another (tests/app/test_languages.py renders every page in Italian, English and French). Servers
# the tests start inherit it.
os.environ["SCOPA_LANG"] = "en"

# The generated cases are the same on every run unless SCOPA_FUZZ asks for fresh ones
# (helpers.FUZZ and helpers.examples).
settings.register_profile("suite", derandomize=not FUZZ)
settings.load_profile("suite")


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "t.sqlite")})


@pytest.fixture
def client(app):
    return app.test_client()
