"""The site names the repository it was built from.

`{{ repo_url }}` in a page's Markdown (Getting started's clone command) becomes the site's
`repo_url`, which the header links to too. It is `MINIGRAD_REPO_URL` when set (the GitHub
Pages workflow sets it from the repository it runs in); otherwise, where mkdocs.yml's
placeholder would stand, the web address of the clone's `origin` remote, when it has one
(git@github.com:teacher/minigrad-breaks.git and https://github.com/teacher/minigrad-breaks.git
alike read https://github.com/teacher/minigrad-breaks; credentials in the URL are dropped).
A page that uses the marker on a build without a repo_url fails the build instead of
printing a command that cannot work. No macro plugin: one marker, one replace.
"""

import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

MARKER = "{{ repo_url }}"
PLACEHOLDER = "https://github.com/OWNER/minigrad-breaks"  # mkdocs.yml's default
from minigrad_site import ROOT
NAMES = {"github.com": "GitHub", "gitlab.com": "GitLab", "bitbucket.org": "Bitbucket", "codeberg.org": "Codeberg"}


def web_url(remote):
    """A git remote's web address (https://host/owner/name), or None for one that has none (a path, file://)."""
    remote = remote.strip()
    scp = re.match(r"^(?:ssh://)?[\w.-]+@([^:/]+)[:/](?:\d+/)?(.+?)(?:\.git)?/?$", remote)  # git@host:owner/name.git
    if scp:
        return f"https://{scp[1]}/{scp[2]}"
    parts = urlsplit(remote)
    if parts.scheme in ("https", "http", "git") and parts.hostname and parts.path.strip("/"):
        path = re.sub(r"\.git/?$", "", parts.path.strip("/"))
        return f"https://{parts.hostname}/{path}"  # hostname: no user, no token, no port
    return None


def origin_remote(root=ROOT):
    """The `origin` remote of the clone at `root`, or "" (no git, no remote)."""
    try:
        done = subprocess.run(["git", "remote", "get-url", "origin"], cwd=root, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def resolve(configured):
    """(repo_url, repo_name) the site names: `configured` (mkdocs.yml's, or MINIGRAD_REPO_URL) unless it is
    the placeholder; then the clone's origin, when it has a web address; else (configured, None)."""
    if os.environ.get("MINIGRAD_REPO_URL") or (configured or "").rstrip("/") != PLACEHOLDER:
        return configured, None
    url = web_url(origin_remote())
    if url:
        return url, NAMES.get(urlsplit(url).hostname, urlsplit(url).hostname)
    return configured, None


class NoRepoUrl(ValueError):
    """A page prints a clone command but the build names no repository."""


def transform(markdown, page):
    if MARKER not in markdown:
        return markdown
    url = (page.repo_url or "").rstrip("/")
    if not url:
        raise NoRepoUrl(f"{page.src_uri} uses {MARKER}, but repo_url is empty: set MINIGRAD_REPO_URL")
    return markdown.replace(MARKER, url)
