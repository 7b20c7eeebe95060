import os

import pytest
from hypothesis import settings

from companion import create_app

# The suite reads the pages in English, the messages' own language, unless a test asks for
# another (tests/test_languages.py renders every page in Italian, English and French). Servers
# the tests start inherit it.
os.environ["SCOPA_LANG"] = "en"

# The generated cases (property tests, the API fuzzer) are the same on every run, so CI cannot
# fail on a draw nobody ran before it. SCOPA_FUZZ=10 explores fresh cases, ten times as many
# (README, "Fuzzing"); a failure it finds becomes a plain test.
FUZZ = int(os.environ.get("SCOPA_FUZZ") or 0)
settings.register_profile("suite", derandomize=not FUZZ)
settings.load_profile("suite")


def examples(count: int) -> int:
    """``count`` generated cases in the suite, ``SCOPA_FUZZ`` times as many when fuzzing."""
    return count * max(FUZZ, 1)


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "t.sqlite")})


@pytest.fixture
def client(app):
    return app.test_client()
