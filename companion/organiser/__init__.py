"""The organiser's room: the page where a phone becomes the organiser's (by the link the
``scopa-companion`` command prints, or by typing its code) and logs out again. Who the organiser
is, and the guard on what only they may do, live in the web layer (``web.organiser``): every
room's pages ask it."""
