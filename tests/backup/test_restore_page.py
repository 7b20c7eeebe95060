"""The organiser's restore from a phone's browser (issue 41): no request carries more than 64 KiB,
so the page's script (static/restore.js) sends the backup in parts and then the form; without
JavaScript the form is not offered (a plain post of the file would be refused), and the page
says to restore on the machine. The restore in parts through the real server, CSRF and all, in
Chromium; the page without JavaScript read as drawn."""

import urllib.request

import pytest

from helpers import ORGANISER_HEADERS, api, phone_context
from markup import nodes, text


def download(server: str) -> bytes:
    request = urllib.request.Request(server + "/backup/download", headers=ORGANISER_HEADERS)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.read()


def matches(server: str) -> int:
    return len(api(server, "/matches?limit=200")["matches"])


@pytest.mark.browser
def test_the_organisers_phone_restores_a_backup_in_parts(browser, server, tmp_path):
    for players in (["Anna", "Bruno"], ["Carla", "Dario"]):
        api(server, "/matches", {"players": players})
    backup = tmp_path / "night.sqlite"
    backup.write_bytes(download(server))
    assert backup.stat().st_size > 64 * 1024                # more than one request could carry
    kept = matches(server)
    api(server, "/matches", {"players": ["Elena", "Franco"]})   # after the backup: undone by it
    context = phone_context(browser, server)                # the organiser's (its header)
    page = context.new_page()
    sent = []
    page.on("request", lambda request: sent.append((request.url, len(request.post_data_buffer or b""))))
    page.goto("/backup")
    page.set_input_files("#backup", str(backup))
    page.get_by_label("Replace every match now").check()
    page.get_by_role("button", name="Restore", exact=True).click()
    page.wait_for_url(server + "/")
    assert "Restored. The matches there before were saved to before-restore-" in page.inner_text("body")
    parts = [url for url, _size in sent if "/backup/restore/parts" in url]
    assert len(parts) == -(-backup.stat().st_size // (64 * 1024)) > 1       # a part per 64 KiB
    form = [size for url, size in sent if url.endswith("/backup/restore")]
    assert len(form) == 1 and form[0] < 64 * 1024               # the form, without the file
    assert matches(server) == kept
    context.close()


def test_without_javascript_the_page_says_to_restore_on_the_machine(client):
    """What the page draws: the form hidden (companion.css's ``[hidden]`` rule holds it so;
    restore.js alone shows it), the reason for a browser without JavaScript, and the command."""
    page = client.get("/backup")
    assert ["hidden" in form.attrs for form in nodes(page, 'form[data-testid="restore"]')] == [True]
    assert "A restore from a phone needs JavaScript" in text(page, "noscript")
    assert "scopa-companion restore FILE" in text(page, "main")
