import os

import pytest
from hypothesis import settings

from companion import create_app

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
