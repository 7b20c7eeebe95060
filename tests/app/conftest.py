"""The browser tests of tests/app that open their pages in the module's kept phones
(``phone_page``: tests/table_helpers.py's ``Phones``, as tests/table/conftest.py gives the
table's): test_browser, test_browser_words, test_escoba_browser. A module with phones of its own
(test_accessibility's) keeps them: its fixture overrides these."""

from table_helpers import phone_page, phones  # noqa: F401  (fixtures for every module here)
