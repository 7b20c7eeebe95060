"""The project as a newcomer meets it: README's commands, CI, and pages that need no internet."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_command(heading: str) -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(rf"^{heading}.*?```sh\n(.+?)\n```", text, re.S | re.M)
    assert match, f"README.md has no command under {heading!r}"
    return match.group(1)


def test_readme_gives_the_two_set_up_commands():
    assert "scopa-companion" in readme_command("Run it")
    assert "pytest" in readme_command("Test it")


def test_ci_runs_exactly_readmes_test_command():
    found = subprocess.run(
        ["awk", '/^Test it:/ {found=1} found && /^```sh$/ {getline; print; exit}', "README.md"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    assert found == readme_command("Test it")
    assert "eval \"$test_command\"" in (ROOT / ".ci" / "run").read_text()


def test_no_page_loads_anything_from_the_internet():
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        assert not re.search(r'(src|href)="(https?:)?//', text), template.name


def test_every_static_file_a_template_names_exists():
    from companion.web.assets import BUNDLES
    for template in (ROOT / "templates").rglob("*.html"):
        for name in re.findall(r"url_for\('static', filename='([^']+)'\)", template.read_text()):
            assert (ROOT / "static" / name).is_file() or name in BUNDLES, (template.name, name)
    for parts in BUNDLES.values():
        assert all((ROOT / "static" / name).is_file() for name in parts)


def test_the_code_keeps_to_its_lint_rules():
    """ruff as pyproject.toml sets it: the import order, no unused or undefined name, and a few
    of bugbear's traps."""
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "companion", "tests"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_type_checks():
    """mypy as pyproject.toml sets it, on companion/: every outcome a view words is handled
    (``assert_never``), no optional value used unchecked. Its cache is .mypy_cache (ignored by
    git): about 15 s the first time on a two-core machine, a few seconds after."""
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_readme_points_only_inside_the_repository():
    """A newcomer who clones the project finds every file the README names: no path leads out
    of the checkout, and the rules it applies are written down in docs/rules.md (issue 23)."""
    text = (ROOT / "README.md").read_text()
    assert "../" not in text
    for target in re.findall(r"\]\(([^)#:]+)\)", text):          # [words](a/relative/path)
        assert (ROOT / target).exists(), target
    assert "(docs/rules.md)" in text and "/rules" in text
    rules = (ROOT / "docs" / "rules.md").read_text()
    for section in range(1, 11):                        # the "RULES §N" the code cites
        assert re.search(rf"^## {section}\. ", rules, re.M), section


def test_no_test_holds_a_clock_to_what_it_checks():
    """Speed is measured by the benchmarks, never asserted in the suite: a busy machine must not
    fail a test. Hypothesis's profile for the suite has no deadline (its default fails an example
    over 200 ms), no test sets one, and no test times its code with perf_counter."""
    from hypothesis import settings

    assert settings().deadline is None
    tests = Path(__file__).parents[1]
    timed = [str(path.relative_to(tests)) for path in tests.rglob("*.py")
             if path.parent.name not in ("benchmarks", "tools") and path.name != Path(__file__).name
             and re.search(r"perf_counter|deadline=(?!None)", path.read_text(encoding="utf-8"))]
    assert timed == []
