"""The live poll sends a phone only what changed (issue 24, point 5): the new or changed lines of
the list of hands, the scoreboard, the chart and the other parts out of band, or the whole live
region when that cannot be done cheaply. Whatever a phone missed, once it applies what it is sent
(as htmx does: tests/app/test_browser.py checks it in a real browser), it shows exactly what a
fresh page shows. And the match built on an earlier version equals the match built whole."""

import random

import pytest

from companion import matches, store
from companion.matches import Ledger
from helpers import FUZZ, examples, new_match, random_hand
from markup import attr, attrs, count, nodes, parse

# A target no test here reaches: the match stays in play.
LONG = {"target": 1000}
PARTS = ("live-score", "live-next", "live-after-end", "live-last", "live-chart")


def add(client, match_id: int, rng: random.Random, sides: int = 2) -> None:
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=random_hand(sides, rng)).status_code == 201


def version_of(html: str) -> int:
    return int(attr(html, "#live-poll", "data-version"))


def parts_of(html: str) -> dict[str, str]:
    """Each part of the live region by its id, as drawn (its out-of-band mark left out, and the
    forms' CSRF tokens, signed with the second they were made): the part's element as HTML."""
    found = {}
    for part in PARTS:
        for node in nodes(html, f"#{part}"):
            if "hx-swap-oob" in node.attrs and node.attrs["hx-swap-oob"] == "true":
                del node.attrs["hx-swap-oob"]
            for token in node.css('input[name="csrf_token"]'):
                token.attrs["value"] = ""
            found[part] = node.html
    return found


def lines(listed) -> list[str]:
    """The lines of a list of hands (an ``ol`` node), top first, as HTML."""
    return [line.html for line in listed.css('li[id^="hand-"]')]


def lines_of(html: str) -> list[str]:
    """The list of every hand, line by line, top (newest) first."""
    listed = parse(html).css_first("ol.hands#live-hands")
    return lines(listed) if listed else []


class Phone:
    """A phone showing the match page, applying each poll's answer as htmx would: the whole live
    region, or its parts by id, the lines named taken away and the new ones put at the top."""

    def __init__(self, client, match_id: int):
        self.client, self.match_id = client, match_id
        page = client.get(f"/matches/{match_id}").get_data(as_text=True)
        self.version, self.parts, self.lines = version_of(page), parts_of(page), lines_of(page)
        self.whole = self.deltas = 0

    def poll(self) -> str:
        answer = self.client.get(f"/matches/{self.match_id}/poll?since={self.version}")
        html = answer.get_data(as_text=True)
        if not html:
            return html
        self.version = version_of(html)
        if count(html, 'div#live[hx-swap-oob="true"]'):
            self.parts, self.lines = parts_of(html), lines_of(html)
            self.whole += 1
            return html
        assert count(html, "#live") == 0
        self.deltas += 1
        self.parts.update(parts_of(html))
        tree = parse(html)
        removed = tree.css_first('[hx-swap-oob^="delete:"]')
        if removed:         # "delete:#hand-3,#hand-4": a selector list, each an id
            gone = set(removed.attributes["hx-swap-oob"].removeprefix("delete:").split(","))
            self.lines = [line for line in self.lines if "#" + attr(line, "li", "id") not in gone]
        added = tree.css_first('ol[hx-swap-oob="afterbegin:#live-hands"]')
        if added:
            self.lines = lines(added) + self.lines
        return html

    def shows_what_a_fresh_page_shows(self, fresh: "FreshPage | None" = None) -> None:
        """``fresh``: the page as it is now, asked once for every phone that checks it before
        the next change (it is the same page for each)."""
        fresh = fresh or FreshPage(self.client, self.match_id)
        assert self.version == fresh.version
        assert self.lines == fresh.lines
        assert self.parts == fresh.parts


class FreshPage:
    """What a fresh match page shows: its version, its list of hands and its live parts."""

    def __init__(self, client, match_id: int):
        page = client.get(f"/matches/{match_id}").get_data(as_text=True)
        self.version, self.lines, self.parts = version_of(page), lines_of(page), parts_of(page)


def test_a_phone_one_hand_behind_is_sent_the_new_line_and_the_parts_not_the_list(client):
    rng = random.Random(1)
    sizes = {}
    for played in (3, 40):
        match_id = new_match(client, options=LONG)
        for _ in range(played):
            add(client, match_id, rng)
        phone = Phone(client, match_id)
        add(client, match_id, rng)
        sent = phone.poll()
        assert count(sent, "#live") == 0 and count(sent, 'li[id^="hand-"]') == 1
        assert f"since={phone.version}" in attr(sent, "#live-poll", "hx-get")
        assert all(count(sent, f'#{part}[hx-swap-oob="true"]') == 1 for part in PARTS)
        assert count(sent, 'ol[hx-swap-oob="afterbegin:#live-hands"]') == 1
        assert count(sent, '[hx-swap-oob^="delete:"]') == 0
        phone.shows_what_a_fresh_page_shows()
        sizes[played] = len(sent)
    # The chart grows a point on each side's line a hand (and the last hand's breakdown differs):
    # far from the 235 bytes a hand that the list of every hand would add.
    assert sizes[40] - sizes[3] < 37 * 40


def test_a_deleted_last_hand_is_taken_away_and_an_edit_sends_its_line(client):
    rng = random.Random(2)
    match_id = new_match(client, options=LONG)
    for _ in range(10):
        add(client, match_id, rng)
    phone = Phone(client, match_id)
    hands = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"]
    last = hands[-1]
    client.delete(f"/api/v1/matches/{match_id}/hands/{last['id']}", headers={"If-Match": f'"{last["version"]}"'})
    sent = phone.poll()
    assert attrs(sent, '[hx-swap-oob^="delete:"]', "hx-swap-oob") == [f'delete:#hand-{last["id"]}']
    assert count(sent, 'li[id^="hand-"]') == 0
    phone.shows_what_a_fresh_page_shows()
    third = hands[-4]                   # an edit: its line and the lines after it
    client.put(f"/api/v1/matches/{match_id}/hands/{third['id']}", json=random_hand(2, rng),
               headers={"If-Match": f'"{third["version"]}"'})
    sent = phone.poll()
    assert count(sent, 'li[id^="hand-"]') == 3 and phone.deltas == 2 and phone.whole == 0
    phone.shows_what_a_fresh_page_shows()


def test_an_edit_of_an_early_hand_in_a_long_match_sends_the_whole_region(client):
    rng = random.Random(3)
    match_id = new_match(client, options=LONG)
    for _ in range(30):
        add(client, match_id, rng)
    phone = Phone(client, match_id)
    first = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]
    client.put(f"/api/v1/matches/{match_id}/hands/{first['id']}", json=random_hand(2, rng),
               headers={"If-Match": f'"{first["version"]}"'})
    assert '<div id="live" hx-swap-oob="true">' in phone.poll() and phone.whole == 1
    phone.shows_what_a_fresh_page_shows()


def test_a_rename_sends_every_line_again(app, client):
    rng = random.Random(4)
    match_id = new_match(client, options=LONG)
    for _ in range(3):
        add(client, match_id, rng)
    phone = Phone(client, match_id)
    with app.app_context():
        store.rename_player(store.get_db(), 1, "Annalisa", Ledger)
    phone.poll()
    assert phone.whole == 1 and all("Annalisa" in line for line in phone.lines)
    phone.shows_what_a_fresh_page_shows()


class Table:
    """A match changed at random, as phones and programs change it."""

    def __init__(self, app, client, match_id: int, rng: random.Random, sides: int):
        self.app, self.client, self.match_id, self.rng, self.sides = app, client, match_id, rng, sides
        self.deleted: list[tuple[list[int], int]] = []
        self.renamed = 0

    def hands(self) -> list[dict]:
        return self.client.get(f"/api/v1/matches/{self.match_id}").get_json()["hands"]

    def change(self) -> str:
        kind = self.rng.choice(["add", "add", "add", "edit", "edit_last", "delete", "delete_last",
                                "undo", "rename", "archive"])
        hands = self.hands()
        if kind == "add" or not hands:
            answer = self.client.post(f"/api/v1/matches/{self.match_id}/hands",
                                      json=random_hand(self.sides, self.rng))
            assert answer.status_code in (201, 409)          # 409: the match is over
        elif kind in ("edit", "edit_last"):
            hand = hands[-1] if kind == "edit_last" else self.rng.choice(hands)
            answer = self.client.put(f"/api/v1/matches/{self.match_id}/hands/{hand['id']}",
                                     json=random_hand(self.sides, self.rng),
                                     headers={"If-Match": f'"{hand["version"]}"'})
            assert answer.status_code == 200
        elif kind in ("delete", "delete_last"):
            hand = hands[-1] if kind == "delete_last" else self.rng.choice(hands)
            with self.app.app_context():
                version = store.delete_hands(store.get_db(), self.match_id, {hand["id"]: hand["version"]}, Ledger)
            self.deleted.append(([hand["id"]], version))
        elif kind == "undo" and self.deleted:
            ids, version = self.deleted.pop()
            with self.app.app_context():
                try:
                    store.restore_hands(store.get_db(), self.match_id, ids, version, Ledger)
                except store.Conflict:
                    pass
        elif kind == "rename":
            self.renamed += 1
            with self.app.app_context():
                player = self.rng.choice([1, 2])
                store.rename_player(store.get_db(), player, f"Nome {self.renamed}", Ledger)
        elif kind == "archive":
            with self.app.app_context():
                store.archive_match(store.get_db(), self.match_id, self.rng.random() < 0.5)
        return kind


# The seeds the suite runs, and their changes after the first four: two sides to 21 (seed 0), to
# 1000 (3) and to 11 (2), three sides to 11 (6), each of which draws every kind of change within
# its first 30 and sends the phone that polls at each most of them as what changed (counted for
# issue 44: the four before, three sides to 21 in seed 5, drew them over 60, seed 5 its first
# rename at the 30th; seed 1's first 30 were sent whole more often), seeds 2 and 6 playing past
# the end of their match. SCOPA_FUZZ runs seeds 0, 1, 2 ... six times SCOPA_FUZZ of them, 60
# changes each.
PHONE_SEEDS = range(examples(6)) if FUZZ else (0, 2, 3, 6)
CHANGES = 60 if FUZZ else 30


@pytest.mark.parametrize("seed", PHONE_SEEDS)
def test_phones_that_missed_any_number_of_changes_end_up_showing_the_fresh_page(app, client, seed):
    """Three phones, one polling after every change, one after every few, one now and then,
    over random saves, edits, deletes, undos, renames and archiving (to the end of the match
    and past it: hands after the end, then edited away)."""
    rng = random.Random(seed)
    sides = rng.choice((2, 2, 3))
    players = ["Anna", "Bruno", "Carla"][:sides]
    match_id = new_match(client, players=players, options={"target": rng.choice((11, 21, 1000))})
    table = Table(app, client, match_id, rng, sides)
    for _ in range(4):
        table.change()
    phones = [Phone(client, match_id) for _ in range(3)]
    for step in range(CHANGES):
        table.change()
        fresh = FreshPage(client, match_id)         # one page for the phones that poll now
        for phone, every in zip(phones, (1, 3, 11)):
            if step % every == 0:
                phone.poll()
                phone.shows_what_a_fresh_page_shows(fresh)
    fresh = FreshPage(client, match_id)
    for phone in phones:
        phone.poll()
        phone.shows_what_a_fresh_page_shows(fresh)
    assert phones[0].deltas > phones[0].whole        # most changes are sent as what changed


def comparable(match: matches.Match) -> tuple:
    return (match.version, match.names, match.outcome, match.recorded,
            [(h.id, h.number, h.totals_after, h.points, h.version, h.updated,
              h.stored_previous, h.claim is not None) for h in match.hands])


@pytest.mark.parametrize("seed", range(4))
def test_a_match_built_on_an_earlier_version_equals_the_match_built_whole(app, client, seed):
    rng = random.Random(100 + seed)
    match_id = new_match(client, options={"target": rng.choice((11, 1000))})
    table = Table(app, client, match_id, rng, 2)
    with app.app_context():
        db = store.get_db()
        for _ in range(50):
            table.change()
            kept = store.built_match(db, match_id, matches.build, on_earlier=True)
            whole = matches.build(store.match_row(db, match_id), store.hand_rows(db, match_id))
            assert comparable(kept) == comparable(whole)
