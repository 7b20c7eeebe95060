"""The matches worked out once per version (store/built.py): kept by (store, match, version) in
cachetools' LRU, the least recently used let go past the size, and with it the mark of its
match's latest version, so that a match is never built on a version no longer kept."""

from types import SimpleNamespace

from companion import store
from companion.store import built


def test_the_least_recently_used_match_is_let_go_with_its_latest_version(tmp_path, copy_of_migrated, monkeypatch):
    path = copy_of_migrated(str(tmp_path / "built.sqlite"))
    monkeypatch.setattr(built, "_built", built._Built(2))
    monkeypatch.setattr(built, "_latest", {})
    db = store.connect(path)
    made = []

    def build(row, hands, *earlier):
        made.append(row["id"])
        return SimpleNamespace(version=row["version"], hands=hands)
    try:
        ids = [store.create_match(db, {"preset": "classica"}, [{"name": name, "players": [name]}
                                                               for name in ("Anna", "Bruno")], 0)
               for _ in range(3)]
        for match_id in (ids[0], ids[1], ids[0]):
            built.built_match(db, match_id, build)
        assert made == ids[:2]                  # the second ask for the first one: kept
        built.built_match(db, ids[2], build)    # past the size: the second, least recently used, goes
        assert (path, ids[1]) not in built._latest and (path, ids[0]) in built._latest
        for match_id in (ids[0], ids[2], ids[1]):
            built.built_match(db, match_id, build)
        assert made == [*ids, ids[1]]
    finally:
        db.conn.close()
