"""Backup and restore of the whole store, and every match as one CSV. The store holds every
match's PIN hash: it leaves the server, and a restore replaces it, only for the organiser (the
machine itself, or the organiser's phone). A backup comes to a restore in parts of 64 KiB
(``parts``), sent by the page's script, then the restore's form names the upload."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import assert_never

from flask import (
    Blueprint,
    current_app,
    flash,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale, gettext as _

from ..i18n import say
from ..matches import listed
from ..store import reads as store
from ..web import exports
from ..web.organiser import organiser_required
from ..web.pages import csv_answer
from ..web.posts import Confirmed, posted
from . import parts, service

bp = Blueprint("backup", __name__)


@bp.get("/backup")
def page():
    """The backup page: download and restore for the organiser; whom to ask for anyone else."""
    # The restore on the machine as the command was started there (cli: RESTORE_COMMAND).
    return render_template("backup/backup.html", restore_mib=current_app.config["RESTORE_LIMIT"] // 2**20,
                           part=parts.PART,
                           restore_command=current_app.config.get("RESTORE_COMMAND", "scopa-companion restore FILE"))


@bp.get("/backup/download")
@organiser_required(lambda: _("The backup, with every match's PIN, can only be downloaded by the "
                              "organiser: ask them."))
def download():
    """The whole store, copied consistently while phones save (the organiser's phones left
    out); the organiser only, since it holds every match's PIN hash."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    response = make_response(service.download(Path(current_app.config["DATABASE"]), f"scopa-{stamp}.sqlite"))
    response.headers["Content-Type"] = "application/vnd.sqlite3"
    response.headers["Content-Disposition"] = f'attachment; filename="scopa-{stamp}.sqlite"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/backup/restore/parts")
@organiser_required(lambda: _("A restore replaces every match: only the organiser can make one."))
def restore_part():
    """One part of a backup on its way (``parts``): the page's script sends the file 64 KiB at
    a time, ``?upload=`` (none for the first) and ``?offset=``; JSON with the upload's id and
    what it holds, or the error in the page's language."""
    offset = request.args.get("offset", "")
    if not offset.isascii() or not offset.isdigit() or len(offset) > 12:
        return jsonify({"error": _("The backup could not be sent: try again.")}), 400
    try:
        upload, received = parts.receive(current_app.config["DATABASE"], request.args.get("upload", ""),
                                         int(offset), request.get_data(), current_app.config["RESTORE_LIMIT"])
    except parts.PartRefused as refused:
        if refused.reason == "large":
            return jsonify({"error": _("Nothing restored: a backup of up to %(size)s MiB restores from here.",
                                       size=current_app.config["RESTORE_LIMIT"] // 2**20)}), 413
        return jsonify({"error": _("The backup could not be sent: try again."),
                        "received": refused.received}), 409
    return jsonify({"upload": upload, "received": received})


@bp.post("/backup/restore")
@organiser_required(lambda: _("A restore replaces every match: only the organiser can make one."))
def restore():
    """Replace every match with a backup, once checked whole; the organiser only. The backup is
    the upload its parts made (``upload``), or a file sent with the form (one under 64 KiB)."""
    database = Path(current_app.config["DATABASE"])
    sent = parts.upload_path(str(database), request.form.get("upload", ""))
    upload = request.files.get("backup")
    if sent is None and (upload is None or not upload.filename):
        flash(_("Choose the backup file to restore."))
        return redirect(url_for("backup.page"), code=303)
    if posted(Confirmed).confirm != "y":
        flash(_("Tick the box to confirm: restoring replaces every match."))
        return redirect(url_for("backup.page"), code=303)

    def put(received: Path) -> None:
        if sent is not None:
            sent.replace(received)          # the parts' file, now the restore's alone
        else:
            assert upload is not None, "refused above when neither came"
            upload.save(received)

    match (outcome := service.restore(database, put)):
        case service.NotABackup(why):
            flash(_("Nothing restored: %(problem)s.", problem=say(why)))
            return redirect(url_for("backup.page"), code=303)
        case service.NotStored(why):        # the server's disk: nothing was replaced
            flash(say(why))
            return redirect(url_for("backup.page"), code=303)
        case service.Restored(kept):
            flash(_("Restored. The matches there before were saved to %(file)s.", file=kept.name))
            return redirect(url_for("table.index"), code=303)
        case _:
            assert_never(outcome)


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
