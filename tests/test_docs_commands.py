"""The README and the docs are tests: their shell command blocks run as written.

The README's Quick start (the ```sh block under "## Quick start") runs top to bottom in one
shell session, in a fresh empty directory, with ``fightlog``, ``python`` and ``pytest`` of this
environment first on PATH. Each command's exit code is checked: 0, unless the command's
comment says otherwise (``# exit 1: findings``, or ``exit 1`` anywhere in the comment). No
command may print a Python traceback. The lines are parsed out of README.md: there is no
second copy here to drift.

Every ```sh block of ``docs/*.md`` and ``docs/rulesets/*.md`` runs the same way, all the
blocks of one page in one session and one fresh directory, after the Quick start's first
command (which puts the bundled files in ``fixtures/``). Two markers go on the line before a
fence: ``<!-- not run: REASON -->`` for a sh block that cannot run offline, and
``<!-- file: PATH -->`` for a block that shows a file the reader writes (a scenario, a test):
it is written to PATH at that point of the session.

A command is one line, or several when a line ends with ``\\`` or opens a heredoc
(``<<'EOF'`` ... ``EOF``).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = sorted([*REPO.glob("docs/*.md"), *REPO.glob("docs/rulesets/*.md")])
MARKER = re.compile(r"^<!--\s*(?P<kind>not run|file):\s*(?P<value>\S.*?)\s*-->$")
EXIT = re.compile(r"\bexit (\d+)\b")
HEREDOC = re.compile(r"<<-?\s*(['\"]?)(?P<word>[A-Za-z_][A-Za-z0-9_]*)\1")
TRACEBACK = "Traceback (most recent call last)"


@dataclass(frozen=True)
class Block:
    where: str  # the file, as the test reports it
    line: int  # the 1-based line of the opening fence
    lang: str  # the fence's info string: sh, toml, python...
    lines: tuple[str, ...]
    not_run: str | None = None  # the reason given by a `<!-- not run: REASON -->` marker
    file: str | None = None  # the path given by a `<!-- file: PATH -->` marker


@dataclass(frozen=True)
class Command:
    where: str  # FILE:LINE of the command's first line
    text: str
    expected: int


def fenced_blocks(markdown: str, where: str) -> list[Block]:
    """Every fenced block, with the marker on the line before its fence, if any."""
    rows = markdown.splitlines()
    blocks, i = [], 0
    while i < len(rows):
        fence = rows[i].strip()
        if fence.startswith("```"):
            j = i + 1
            while j < len(rows) and rows[j].strip() != "```":
                j += 1
            marker = MARKER.match(rows[i - 1].strip()) if i > 0 else None
            kind, value = (marker["kind"], marker["value"]) if marker else ("", None)
            blocks.append(Block(
                where, i + 1, fence[3:].strip(), tuple(rows[i + 1 : j]),
                not_run=value if kind == "not run" else None, file=value if kind == "file" else None,
            ))
            i = j + 1
        else:
            i += 1
    return blocks


def sh_blocks(markdown: str, where: str) -> list[Block]:
    return [b for b in fenced_blocks(markdown, where) if b.lang == "sh"]


def page_steps(markdown: str, where: str) -> list[Command]:
    """A page's session: its sh blocks' commands and, where a block is marked as a file, a
    command writing that file, in the page's order."""
    steps: list[Command] = []
    for b in fenced_blocks(markdown, where):
        if b.file:
            assert not Path(b.file).is_absolute() and ".." not in Path(b.file).parts, f"{where}:{b.line}: {b.file}"
            path = shlex.quote(b.file)
            body = "\n".join(b.lines)
            write = f"mkdir -p \"$(dirname {path})\" && cat > {path} <<'FIGHTLOG_DOC_FILE'\n{body}\nFIGHTLOG_DOC_FILE"
            steps.append(Command(f"{where}:{b.line} (writing {b.file})", write, 0))
        elif b.lang == "sh" and b.not_run is None:
            steps.extend(commands(b))
    return steps


def split_comment(line: str) -> tuple[str, str]:
    """One line as (code, comment): the comment runs from an unquoted `#` at a word start."""
    quote = None
    for k, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or line[k - 1].isspace()):
            return line[:k], line[k + 1 :]
    return line, ""


def commands(block: Block) -> list[Command]:
    """The block's commands, each with its exit code as its comment states (default 0)."""
    found: list[Command] = []
    rows, i = block.lines, 0
    while i < len(rows):
        first = rows[i]
        if not first.strip() or first.lstrip().startswith("#"):
            i += 1
            continue
        start, taken = i, [first]
        code, comment = split_comment(first)
        comments, heredoc = [comment], HEREDOC.search(code)
        while taken[-1].rstrip().endswith("\\") and i + 1 < len(rows):
            i += 1
            taken.append(rows[i])
            comments.append(split_comment(rows[i])[1])
        if heredoc:
            while i + 1 < len(rows) and rows[i].strip() != heredoc["word"]:
                i += 1
                taken.append(rows[i])
            assert rows[i].strip() == heredoc["word"], f"{block.where}:{block.line + 1 + start}: heredoc never ends"
        codes = {int(m) for c in comments for m in EXIT.findall(c)}
        assert len(codes) <= 1, f"{block.where}:{block.line + 1 + start}: more than one exit code in its comment"
        found.append(Command(f"{block.where}:{block.line + 1 + start}", "\n".join(taken), codes.pop() if codes else 0))
        i += 1
    return found


@dataclass(frozen=True)
class Ran:
    command: Command
    code: int
    stdout: str
    stderr: str


def run_session(cmds: list[Command], cwd: Path, rc_file: Path) -> list[Ran]:
    """Run the commands as written, in order, in one `bash -c` session (no `set -e`): each
    line's exit code is recorded after it, and its output is cut out by markers."""
    script = []
    for n, cmd in enumerate(cmds):
        script.append(f"printf '\\n@@docs-command {n}\\n'; printf '\\n@@docs-command {n}\\n' >&2")
        script.append(cmd.text)
        script.append(f"printf '%s %s\\n' {n} \"$?\" >> {shlex.quote(str(rc_file))}")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "FIGHTLOG_"))}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=900,
    )
    codes: dict[int, int] = {}
    for row in rc_file.read_text().splitlines() if rc_file.exists() else []:
        index, code = row.split()
        codes[int(index)] = int(code)
    outs, errs = _cut(done.stdout), _cut(done.stderr)
    return [Ran(c, codes.get(n, -1), outs.get(n, ""), errs.get(n, "")) for n, c in enumerate(cmds)]


def _cut(output: str) -> dict[int, str]:
    parts = re.split(r"\n@@docs-command (\d+)\n", output)
    return {int(parts[k]): parts[k + 1] for k in range(1, len(parts) - 1, 2)}


def problems(ran: list[Ran]) -> list[str]:
    """One paragraph per command whose exit code is not the documented one, or that printed
    a traceback, with its output."""
    bad = []
    for r in ran:
        wrong = r.code != r.command.expected
        if wrong or TRACEBACK in r.stdout or TRACEBACK in r.stderr:
            why = f"exit {r.code}, expected {r.command.expected}" if wrong else "printed a traceback"
            bad.append(
                f"{r.command.where}: {why}\n$ {r.command.text}\n"
                f"--- stdout\n{r.stdout[-1500:]}--- stderr\n{r.stderr[-1500:]}"
            )
    return bad


def quick_start() -> Block:
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    offset = text[: text.index("\n## Quick start\n")].count("\n") + 2
    (block,) = sh_blocks(section, "README.md")  # the Quick start is one ```sh block
    return Block("README.md", block.line + offset, block.lang, block.lines, block.not_run, block.file)


def setup_commands() -> list[Command]:
    """The set-up block right under the README's title, comments dropped."""
    first = sh_blocks(README.read_text(encoding="utf-8"), "README.md")[0]
    return [Command(c.where, split_comment(c.text)[0].strip(), c.expected) for c in commands(first)]


@pytest.mark.slow
def test_the_quick_start_runs_as_written(tmp_path: Path) -> None:
    block = quick_start()
    assert block.not_run is None, "the Quick start must run: no not-run marker"
    cmds = commands(block)
    assert len(cmds) >= 20 and any(c.expected == 1 for c in cmds)
    work = tmp_path / "fresh"
    work.mkdir()
    failed = problems(run_session(cmds, work, tmp_path / "codes"))
    if failed:
        pytest.fail("\n\n".join(failed), pytrace=False)


def _docs_to_run() -> list[Path]:
    """The pages with at least one ```sh block not marked `not run`."""
    return [p for p in DOCS if any(b.not_run is None for b in sh_blocks(p.read_text(encoding="utf-8"), _name(p)))]


def _name(doc: Path) -> str:
    return str(doc.relative_to(REPO))


@pytest.mark.slow
@pytest.mark.parametrize("doc", _docs_to_run(), ids=_name)
def test_the_docs_command_blocks_run_as_written(doc: Path, tmp_path: Path) -> None:
    cmds = page_steps(doc.read_text(encoding="utf-8"), _name(doc))
    setup = commands(quick_start())[0]  # puts the bundled files in fixtures/
    work = tmp_path / "fresh"
    work.mkdir()
    failed = problems(run_session([setup, *cmds], work, tmp_path / "codes"))
    if failed:
        pytest.fail("\n\n".join(failed), pytrace=False)


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    ci_commands = [row.strip() for row in ci if row.startswith("python ")]
    assert ci_commands == [setup_commands()[1].text]


def test_the_readmes_first_command_audits_a_bundled_fight_from_a_checkout(tmp_path: Path) -> None:
    """Its install step is pip's (not run here); what follows it runs from the repository root."""
    first = setup_commands()[0]
    install, _, rest = first.text.partition(" && ")
    assert install == "python -m pip install ."
    failed = problems(run_session([Command(first.where, rest, 0)], REPO, tmp_path / "codes"))
    if failed:
        pytest.fail("\n\n".join(failed), pytrace=False)


PIP_INSTALL_BY_NAME = re.compile(r"pip install\s+(?:-\S+\s+)*['\"]?fightlog\b")


def test_no_install_line_names_an_unpublished_package() -> None:
    """fightlog is not on PyPI: an install line gives a path or a wheel, never the bare name."""
    for page in [README, *DOCS]:
        for n, row in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            assert not PIP_INSTALL_BY_NAME.search(row), f"{_name(page)}:{n}: {row}"


# The parser and the runner themselves: a broken expectation must be caught.

def test_a_comment_states_the_exit_code_and_quotes_hide_hashes() -> None:
    block = Block("x.md", 1, "sh", (
        "fightlog audit a.jsonl   # exit 1: findings",
        "# a comment line",
        "",
        "fightlog roll '#3' --seed x   # the same faces, exit 2",
        "echo 'a # b'",
        "cat > t.py <<'EOF'   # a file",
        "x = 1  # exit 4 is in the file, not a comment",
        "EOF",
        "fightlog verify \\",
        "  b.jsonl   # exit 1",
    ), None)
    got = [(c.where, c.expected) for c in commands(block)]
    assert got == [("x.md:2", 1), ("x.md:5", 2), ("x.md:6", 0), ("x.md:7", 0), ("x.md:10", 1)]
    assert commands(block)[3].text.endswith("\nEOF")


def test_the_session_checks_each_exit_code_and_catches_tracebacks(tmp_path: Path) -> None:
    cmds = [
        Command("x.md:1", "x=5", 0),
        Command("x.md:2", "test \"$x\" = 5", 0),  # one session: x is still set
        Command("x.md:3", "false", 0),
        Command("x.md:4", "python -c 'raise ValueError(1)'   # exit 1", 1),
        Command("x.md:5", "exit_code=2; (exit $exit_code)", 2),
    ]
    ran = run_session(cmds, tmp_path, tmp_path / "codes")
    assert [r.code for r in ran] == [0, 0, 1, 1, 2]
    found = problems(ran)
    assert [p.split("\n", 1)[0] for p in found] == ["x.md:3: exit 1, expected 0", "x.md:4: printed a traceback"]


def test_markers_are_read_from_the_line_before_the_fence(tmp_path: Path) -> None:
    text = (
        "x\n<!-- not run: installs from the network -->\n```sh\npip install x\n```\n"
        "<!-- file: sub/a.toml -->\n```toml\nk = 'v'  # kept\n```\n```sh\ncat sub/a.toml\n```\n```toml\nnot = 'written'\n```\n"
    )
    assert [(b.line, b.not_run) for b in sh_blocks(text, "x.md")] == [(3, "installs from the network"), (10, None)]
    steps = page_steps(text, "x.md")
    assert [s.where for s in steps] == ["x.md:7 (writing sub/a.toml)", "x.md:11"]
    ran = run_session(steps, tmp_path, tmp_path / "codes")
    assert [r.code for r in ran] == [0, 0] and ran[1].stdout == "k = 'v'  # kept\n"


def test_the_readmes_python_example_runs_as_written(tmp_path: Path) -> None:
    """The README's ```python blocks run, in a fresh directory, with this environment's python."""
    blocks = [b for b in fenced_blocks(README.read_text(encoding="utf-8"), "README.md") if b.lang == "python"]
    assert blocks, "the README shows fightlog from Python"
    for block in blocks:
        done = subprocess.run(
            [sys.executable, "-c", "\n".join(block.lines)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 0, f"README.md:{block.line}: {done.stderr[-1500:]}"
        assert TRACEBACK not in done.stderr
    verified = subprocess.run(
        [sys.executable, "-m", "fightlog", "verify", "fight.jsonl"], cwd=tmp_path, capture_output=True, text=True,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr  # what it wrote is a log


DOC_PYTHON = [(page, block) for page in DOCS
              for block in fenced_blocks(page.read_text(encoding="utf-8"), page.name) if block.lang == "python"]


@pytest.mark.parametrize(("page", "block"), DOC_PYTHON, ids=[f"{p.name}:{b.line}" for p, b in DOC_PYTHON])
def test_each_docs_python_example_runs_on_its_own(tmp_path: Path, page: Path, block: Block) -> None:
    """Two of docs/dice.md's examples used a `seed` and a `text` defined nowhere on the
    block, and HOWTO.md's a `Code` it did not import (a new user): each block runs alone, in a
    fresh directory holding the bundled fixtures."""
    copied = subprocess.run([sys.executable, "-m", "fightlog", "fixtures"], cwd=tmp_path, capture_output=True, text=True)
    assert copied.returncode == 0, copied.stderr
    done = subprocess.run([sys.executable, "-c", "\n".join(block.lines)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, f"{page.relative_to(REPO)}:{block.line}: {done.stderr[-1500:]}"


_SHOWN = re.compile(r"```\n\$ (fightlog [^\n]*)\n(.*?)```", re.S)


def _shown_runs() -> list[tuple[str, str, str]]:
    return [(path.relative_to(REPO).as_posix(), command, output) for path in [*DOCS, REPO / "README.md"]
            for command, output in _SHOWN.findall(path.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(("doc", "command", "shown"), _shown_runs(), ids=lambda v: str(v)[:60])
def test_a_run_the_docs_show_prints_what_they_show(doc: str, command: str, shown: str) -> None:
    """A block that shows ``$ fightlog ...`` and what it printed is run from the checkout:
    it prints exactly that (docs/dispute.md's hand-run example had drifted by 29 events)."""
    words = shlex.split(command)
    done = subprocess.run([sys.executable, "-m", "fightlog", *words[1:]], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "NO_COLOR": "1", "COLUMNS": "100"})
    assert shown in (done.stdout, done.stdout + done.stderr), f"{doc}: {command}\n{done.stdout}{done.stderr}"
