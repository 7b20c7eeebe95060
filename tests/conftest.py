import pytest

from companion import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "t.sqlite")})


@pytest.fixture
def client(app):
    return app.test_client()
