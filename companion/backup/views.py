"""Backup and restore of the whole store, and every match as one CSV. The store holds every
match's PIN hash: it leaves the server, and a restore replaces it, only for the organiser (the
machine itself, or the organiser's phone)."""

from __future__ import annotations

import tempfile
from datetime import datetime
from pathlib import Path

from flask import Blueprint, current_app, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext as _

from .. import store
from ..i18n import explain, say
from ..matches import Ledger, listed
from ..web import exports
from ..web.organiser import organiser_required
from ..web.pages import csv_answer

bp = Blueprint("backup", __name__)


@bp.get("/backup")
def page():
    """The backup page: download and restore for the organiser; whom to ask for anyone else."""
    return render_template("backup/backup.html", restore_mib=current_app.config["RESTORE_LIMIT"] // 2**20)


@bp.get("/backup/download")
@organiser_required(lambda: _("The backup, with every match's PIN, can only be downloaded by the "
                              "organiser: ask them."))
def download():
    """The whole store, copied consistently while phones save (the organiser's phones left
    out); the organiser only, since it holds every match's PIN hash."""
    instance = Path(current_app.config["DATABASE"]).parent
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    with tempfile.TemporaryDirectory(prefix=store.DOWNLOADING, dir=instance) as folder:
        target = Path(folder) / f"scopa-{stamp}.sqlite"
        store.backup_to(current_app.config["DATABASE"], str(target))
        store.without_organiser_phones(str(target))
        data = target.read_bytes()
    response = make_response(data)
    response.headers["Content-Type"] = "application/vnd.sqlite3"
    response.headers["Content-Disposition"] = f'attachment; filename="scopa-{stamp}.sqlite"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/backup/restore")
@organiser_required(lambda: _("A restore replaces every match: only the organiser can make one."))
def restore():
    """Replace every match with a backup, once checked whole; the organiser only."""
    upload = request.files.get("backup")
    if upload is None or not upload.filename:
        flash(_("Choose the backup file to restore."))
        return redirect(url_for("backup.page"), code=303)
    if request.form.get("confirm") != "y":
        flash(_("Tick the box to confirm: restoring replaces every match."))
        return redirect(url_for("backup.page"), code=303)
    database = Path(current_app.config["DATABASE"])
    with tempfile.TemporaryDirectory(prefix=store.RESTORING, dir=database.parent) as folder:
        received = Path(folder) / "upload.sqlite"
        upload.save(received)
        try:
            store.close_db()
            keep = store.restore_from(str(database), str(received), Ledger)
        except store.NotABackup as problem:
            flash(_("Nothing restored: %(problem)s.", problem=explain(problem)))
            return redirect(url_for("backup.page"), code=303)
        except store.StorageError as failure:      # the server's disk: nothing was replaced
            flash(say(failure.message))
            return redirect(url_for("backup.page"), code=303)
    flash(_("Restored. The matches there before were saved to %(file)s.", file=keep.name))
    return redirect(url_for("table.index"), code=303)


@bp.get("/export.csv")
def export_all():
    """Every match (in play, finished, archived; never a deleted one), one row each, from the
    matches' stored summaries. Each match's line is written once per version of the match and
    language (store.each_match): 5,000 matches cost a read of their versions, not 5,000 rows
    worked out again for each phone that asks."""
    # Kept by language alone (three of them), written with the language's own figures: kept by
    # the phone's territory too, a guest naming a new one in each request (en-AU, en-IN...)
    # would have every line written again each time.
    g.regional_locales = {}
    lines = store.each_match(store.get_db(), f"csv {get_locale()}",
                             lambda row: exports.to_csv([exports.match_line(listed(row))], mark=False))
    return csv_answer(exports.to_csv([exports.matches_header()]) + "".join(lines), "scopa-matches.csv")
