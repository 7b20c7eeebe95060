"""What the ``scopa-companion`` command takes about the organiser: the club's own organiser's
PIN, from the environment (SCOPA_ORGANISER_PIN) or a file (--organiser-pin-file), never needed on
the command line, where every user of the machine reads it (``ps``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# A club's own organiser's PIN is at least this long: wrong codes are limited per address only,
# so that no guest can lock the organiser out (web.limits), and a short one would be guessed.
ORGANISER_PIN_MIN = 6


def organiser_options(args: argparse.Namespace) -> str | None:
    """The club's own organiser's PIN (``args.organiser_pin``): from --organiser-pin, else the
    file's first line (--organiser-pin-file), else SCOPA_ORGANISER_PIN. What is wrong, else None.
    --organiser-pin on the command line still works, with a warning: every user of this machine
    reads it in ``ps``."""
    from ..web.organiser import normalised
    if args.organiser_pin is not None:
        print("scopa-companion: warning: --organiser-pin is seen by every user of this machine "
              "(ps): put it in SCOPA_ORGANISER_PIN or a file (--organiser-pin-file)", file=sys.stderr)
    elif args.organiser_pin_file:
        try:
            lines = Path(args.organiser_pin_file).expanduser().read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeError) as error:
            return f"--organiser-pin-file: cannot read it: {error}"
        args.organiser_pin = lines[0].strip() if lines else ""
    else:
        args.organiser_pin = args.settings.organiser_pin
    if args.organiser_pin is not None and not (args.organiser_pin.isascii() and args.organiser_pin.isprintable()):
        return ("--organiser-pin: letters, digits and signs of a plain keyboard only (A-Z, 0-9...): "
                "every phone's keyboard types those")
    if args.organiser_pin is not None and len(normalised(args.organiser_pin)) < ORGANISER_PIN_MIN:
        return (f"--organiser-pin: at least {ORGANISER_PIN_MIN} characters (not counting spaces "
                f"and dashes), so that it cannot be guessed")
    if args.organiser_pin is not None and args.organiser_qr:
        return ("--organiser-qr would draw the club's organiser PIN: leave it out, and type the "
                "PIN on the organiser's page")
    return None
