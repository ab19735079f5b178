"""Apply (and reverse) a unified diff to text, strictly.

Hand-written on purpose: minigrad's only dependency is NumPy, and this module
must also run inside Pyodide, offline, where a PyPI diff library is not there
to install. The well-kept pure-Python options either only parse diffs
(`unidiff`) or apply them with fuzz (`patch-ng`); here a hunk applies only
where every context and removed line matches exactly (like `git apply`
without `--3way`), because a break that silently lands somewhere else would
teach the wrong lesson. Hunks may move by whole lines (a learner added a
comment above), never change.
"""

import re

_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class PatchError(Exception):
    """A diff that cannot be read, or does not apply; the message names file and hunk.

    A hunk that does not fit also carries `path`, `hunk` (its number), `line`
    (1-based), `have` and `want`, so the CLI can word it in the learner's language."""

    def __init__(self, message, **details):
        super().__init__(message)
        self.details = details


class Hunk:  # a plain class, not a dataclass: see minigrad/runner/blocks.py
    def __init__(self, header, old_start, lines=None):
        self.header = header
        self.old_start = old_start  # 1-based, as in the header
        self.lines = [] if lines is None else lines  # (tag, text) with tag in " -+"

    def before(self):
        return [text for tag, text in self.lines if tag in " -"]

    def after(self):
        return [text for tag, text in self.lines if tag in " +"]

    def reversed(self):
        swap = {" ": " ", "-": "+", "+": "-"}
        new_start = int(_HUNK_HEADER.match(self.header).group(3))
        return Hunk(self.header, new_start, [(swap[tag], text) for tag, text in self.lines])


class FilePatch:
    def __init__(self, path, hunks):
        self.path = path  # relative to the repository root, e.g. "minigrad/tensor.py"
        self.hunks = hunks

    def reversed(self):
        return FilePatch(self.path, [h.reversed() for h in self.hunks])


def parse(diff_text, name="diff"):
    """Split a unified diff into FilePatches; headers `a/x` and `b/x` give path x."""
    patches, current, hunk = [], None, None
    for number, line in enumerate(diff_text.splitlines(keepends=True), 1):
        body = line.rstrip("\r\n")
        if body.startswith("--- "):
            hunk = None
            continue
        if body.startswith("+++ "):
            path = body[4:].split("\t")[0].strip()
            path = path[2:] if path.startswith("b/") else path
            current = FilePatch(path, [])
            patches.append(current)
            continue
        match = _HUNK_HEADER.match(body)
        if match:
            if current is None:
                raise PatchError(f"{name} line {number}: hunk before any '+++ ' file header")
            hunk = Hunk(body, int(match.group(1)))
            current.hunks.append(hunk)
            continue
        if hunk is not None and line[:1] in (" ", "-", "+"):
            hunk.lines.append((line[0], line[1:]))
        elif hunk is not None and body == "":
            hunk.lines.append((" ", line))  # an empty context line whose space was stripped
        elif body.startswith("\\"):
            continue  # "\ No newline at end of file"
        else:
            hunk = None  # git's "diff --git" / "index" lines between files
    if not patches:
        raise PatchError(f"{name}: no file in this diff")
    return patches


def apply(patch, text):
    """The text after `patch`, or PatchError naming the first hunk that does not fit."""
    lines = text.splitlines(keepends=True)
    offset = 0  # how far earlier hunks (and a learner's edits) moved the lines
    floor = 0  # hunks apply in order: never above the previous one
    for number, hunk in enumerate(patch.hunks, 1):
        before, after = hunk.before(), hunk.after()
        start = hunk.old_start - 1 if before else hunk.old_start  # a pure insertion goes after that line
        at = _locate(lines, before, start + offset, floor)
        if at is None:
            raise _mismatch(patch.path, number, hunk, lines, start + offset, floor)
        lines[at : at + len(before)] = [_same_ending(new, lines, at) for new in after]
        offset = at - start + len(after) - len(before)
        floor = at + len(after)
    return "".join(lines)


def _locate(lines, before, expected, floor):
    """Where `before` matches exactly: at `expected` if it does there, else the nearest match."""

    def fits(at):
        return floor <= at <= len(lines) - len(before) and all(
            lines[at + i].rstrip("\r\n") == want.rstrip("\r\n") for i, want in enumerate(before)
        )

    if fits(expected):
        return expected
    for distance in range(1, len(lines) + 1):
        for at in (expected - distance, expected + distance):
            if fits(at):
                return at
    return None


def _same_ending(new_line, lines, at):
    """Keep the file's line ending (a learner on Windows has CRLF)."""
    if new_line.endswith("\n") and at < len(lines) and lines[min(at, len(lines) - 1)].endswith("\r\n"):
        return new_line.rstrip("\r\n") + "\r\n"
    return new_line


def _mismatch(path, number, hunk, lines, expected, floor):
    """A PatchError naming the first differing line where the hunk fits best
    (most lines equal, nearest its expected place on a tie): a learner who
    added lines above the hunk and then edited it is pointed at their edit,
    not at the hunk's old line number."""
    before = [want.rstrip("\r\n") for want in hunk.before()]

    def have(at):
        return lines[at].rstrip("\r\n") if 0 <= at < len(lines) else "<end of file>"

    def score(at):
        return sum(have(at + i) == want for i, want in enumerate(before))

    places = range(max(floor, 0), max(len(lines) - len(before), 0) + 1)
    best = max(places, key=lambda at: (score(at), -abs(at - expected)), default=expected)
    at = best if score(best) > 0 else expected
    where = f"hunk {number} of {path} ({hunk.header})"
    for i, want in enumerate(before):
        if have(at + i) != want:
            return PatchError(
                f"{where} does not apply: line {at + i + 1} is {have(at + i).strip()!r}, "
                f"the diff expects {want.strip()!r} (and no other place in the file matches)",
                path=path, hunk=number, line=at + i + 1, have=have(at + i).strip(), want=want.strip(),
            )
    return PatchError(f"{where} does not apply", path=path, hunk=number)
