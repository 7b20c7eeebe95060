"""Data-growth benchmark: does the companion stay as fast after years of club nights?

Run: .venv/bin/python tests/benchmarks/bench_growth.py [--repeat 30]

In one process, on a fresh SQLite file, it measures (median of --repeat requests through the app,
no network) at 1, 50 and 200 hands: the match page and a changed poll for the first phone after a
change (nothing worked out yet) and for the others (the match worked out once per change is
reused), a saved hand, and the poll fragment's size; then the home page and the first page of
``GET /api/v1/matches``, the leaderboard, a player's page and ``GET /api/v1/players`` at 20,
1,000 and 5,000 matches (among 40 players, each of whom has played from 20 matches on). Each figure is printed with its ratio to
the smallest size, all measured in one run, since this machine is shared and noisy. It prints
figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from companion import create_app
from companion.rules import deck

FULL = [str(card) for card in deck()]
HAND = {"piles": [FULL[:20], FULL[20:]], "sweeps": [1, 1]}    # about 1 - 4: never ends a match


def timed(call, repeat: int) -> float:
    """Median milliseconds of ``call()`` over ``repeat`` runs."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def row(label: str, sizes: list[int], figures: list[float], unit: str = "ms") -> None:
    cells = "  ".join(f"{size:>5}: {value:8.2f} {unit} ({value / figures[0]:4.2f}x)"
                      for size, value in zip(sizes, figures))
    print(f"{label:<22} {cells}")


def match_growth(client, repeat: int) -> None:
    sizes = [1, 50, 200]
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"],
                                                    "options": {"target": 1000}}).get_json()["id"]
    figures: dict[str, list[float]] = {}
    recorded = 0

    def change() -> int:
        """A change on another phone (a hand saved, then deleted): the match's new version."""
        hand = client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).get_json()["hand"]
        answer = client.delete(f"/api/v1/matches/{match_id}/hands/{hand['id']}",
                               headers={"If-Match": f'"{hand["version"]}"'})
        return answer.get_json()["match"]["version"]

    def cold(path) -> float:
        """The first request after a change: nothing of the match is worked out yet."""
        samples = []
        for _ in range(repeat):
            version = change()
            start = time.perf_counter()
            client.get(path(version))
            samples.append((time.perf_counter() - start) * 1000)
        return statistics.median(samples)

    for target in sizes:
        while recorded < target:
            assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
            recorded += 1
        page = lambda version: f"/matches/{match_id}"                          # noqa: E731
        poll = lambda version: f"/matches/{match_id}/poll?since={version - 1}"  # noqa: E731
        figures.setdefault("match page, first", []).append(cold(page))
        figures.setdefault("match page, others", []).append(timed(lambda: client.get(page(0)), repeat))
        figures.setdefault("changed poll, first", []).append(cold(poll))
        version = change()
        figures.setdefault("changed poll, others", []).append(
            timed(lambda: client.get(poll(version)), repeat))
        figures.setdefault("poll fragment (KB)", []).append(len(client.get(poll(version)).data) / 1024)
        samples = []
        for _ in range(repeat):      # each save adds a hand; delete it again untimed
            start = time.perf_counter()
            answer = client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
            samples.append((time.perf_counter() - start) * 1000)
            hand = answer.get_json()["hand"]
            client.delete(f"/api/v1/matches/{match_id}/hands/{hand['id']}",
                          headers={"If-Match": f'"{hand["version"]}"'})
        figures.setdefault("save a hand (API)", []).append(statistics.median(samples))
    print("hands in the match      " + "  ".join(f"{s:>5}" for s in sizes))
    for label, values in figures.items():
        row(label, sizes, values, "KB" if "KB" in label else "ms")


CLUB = [f"Player {number}" for number in range(40)]     # a club's regulars


def add_club_matches(client, made: int, target: int) -> int:
    """Matches added through the API until there are ``target`` (``made`` so far), each
    finished in a few hands as a club night leaves them, among the 40 players of ``CLUB``: from
    the 20th on, every one of them has played. bench_guest builds its store the same way."""
    while made < target:
        match_id = client.post("/api/v1/matches", json={
            "players": [CLUB[2 * made], CLUB[2 * made + 1]] if made < 20 else      # two of them
                       [CLUB[made % 40], CLUB[(made + 1 + made // 40 % 39) % 40]],
            "options": {"target": 5}}).get_json()["id"]
        for _ in range(2):
            client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
        made += 1
    return made


def home_growth(client, repeat: int) -> None:
    # From 20 matches on, every one of the 40 players has played: a page then lists as many
    # players at 20 matches as at 5,000, and its ratio measures the matches, not the rows.
    sizes = [20, 1000, 5000]
    home, listing, board, record, players_api = [], [], [], [], []
    made = 0
    for target in sizes:
        made = add_club_matches(client, made, target)
        home.append(timed(lambda: client.get("/"), max(3, repeat // 3)))
        listing.append(timed(lambda: client.get("/api/v1/matches?limit=20"), max(3, repeat // 3)))
        board.append(timed(lambda: client.get("/players"), max(3, repeat // 3)))
        record.append(timed(lambda: client.get("/players/1"), max(3, repeat // 3)))
        players_api.append(timed(lambda: client.get("/api/v1/players"), max(3, repeat // 3)))
    print()
    print("matches in the store    " + "  ".join(f"{s:>5}" for s in sizes))
    row("home page", sizes, home)
    row("GET /api/v1/matches", sizes, listing)
    row("leaderboard /players", sizes, board)
    row("a player's page", sizes, record)
    row("GET /api/v1/players", sizes, players_api)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--skip-home", action="store_true", help="only the match sizes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "ORGANISER_CODE": "BEN-CH0",
                          "DATABASE": str(Path(folder) / "growth.sqlite")})
        client = app.test_client()
        client.environ_base["HTTP_X_SCOPA_ORGANISER"] = "BEN-CH0"      # the organiser: no limit
        match_growth(client, args.repeat)
        if not args.skip_home:
            home_growth(client, args.repeat)


if __name__ == "__main__":
    main()
