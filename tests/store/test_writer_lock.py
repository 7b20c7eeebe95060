"""The writes of one server take turns in a lock of the process (store.writing), which wakes the
next writer as soon as the last is done, rather than in SQLite's busy handler, which sleeps 1, 2,
5, 10 ... 100 ms between tries of the store's write lock: under 16 guests' writes, a phone's save
slept past the moment the store was free (p99 2.2 s, 548 ms with the lock:
tests/benchmarks/bench_guest.py, issue 41). Shown without a clock: with SQLite's own waiting
turned off, eight threads writing at once never find the store locked."""

import threading
import time

from companion import store


def test_the_writers_of_one_process_take_turns_without_sqlites_busy_handler(tmp_path, copy_of_migrated):
    path = copy_of_migrated(str(tmp_path / "writers.sqlite"))
    refused, done = [], []

    def writer() -> None:
        db = store.connect(path)
        db.execute("PRAGMA busy_timeout=0")         # SQLite's own waiting off: the lock alone
        try:
            for _ in range(25):
                try:
                    with store.writing(db):
                        db.execute("UPDATE matches SET version = version WHERE 0")
                        time.sleep(0.001)           # the store's write lock held a while
                    done.append(1)
                except store.StorageError as error:
                    refused.append(error.reason)
        finally:
            db.conn.close()

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert refused == [] and len(done) == 200


def test_what_a_write_asks_for_is_done_once_after_it_commits_and_never_after_a_rollback(tmp_path, copy_of_migrated):
    """The store's connection keeps the calls a write asks for (``Store.after_commit``: the
    ratings' re-rating is one), each made once however often asked, outside the transaction."""
    path = copy_of_migrated(str(tmp_path / "after.sqlite"))
    db = store.connect(path)
    made = []

    def call(given):
        made.append((given is db, given.conn.in_transaction))
    try:
        assert db.path == path
        with store.writing(db):
            db.after_commit(call)
            db.after_commit(call)
            assert made == []
        assert made == [(True, False)]
        try:
            with store.writing(db):
                db.after_commit(call)
                raise LookupError("the write fails")
        except LookupError:
            pass
        with store.writing(db):
            pass
        assert made == [(True, False)]
    finally:
        db.conn.close()
