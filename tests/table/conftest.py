"""The table's browser tests open their pages in the module's kept phones (``phone_page``:
tests/table_helpers.py's ``Phones``), one context for each kind of phone, kept for the module."""

from table_helpers import phone_page, phones  # noqa: F401  (fixtures for every module here)
