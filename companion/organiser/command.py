"""What the ``scopa-companion`` command takes about the organiser: the club's own organiser's
PIN, from the environment (SCOPA_ORGANISER_PIN) or a file (--organiser-pin-file), never needed on
the command line, where every user of the machine reads it (``ps``). Each is checked as a setting
(``settings.club_pin``); here, which one applies."""

from __future__ import annotations

import argparse
import sys


def organiser_options(args: argparse.Namespace) -> str | None:
    """The club's own organiser's PIN (``args.organiser_pin``): from --organiser-pin, else the
    file's first line (--organiser-pin-file, or SCOPA_ORGANISER_PIN_FILE), else
    SCOPA_ORGANISER_PIN. What is wrong, else None. --organiser-pin on the command line still
    works, with a warning: every user of this machine reads it in ``ps``."""
    settings = args.settings
    if args.organiser_pin is not None:
        print("scopa-companion: warning: --organiser-pin is seen by every user of this machine "
              "(ps): put it in SCOPA_ORGANISER_PIN or a file (--organiser-pin-file)", file=sys.stderr)
        args.organiser_pin = settings.organiser_pin
    elif settings.organiser_pin_file:
        args.organiser_pin = settings.organiser_pin_file.pin
    else:
        args.organiser_pin = settings.organiser_pin
    if args.organiser_pin is not None and args.organiser_qr:
        return ("--organiser-qr would draw the club's organiser PIN: leave it out, and type the "
                "PIN on the organiser's page")
    return None
