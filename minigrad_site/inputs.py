"""What the page transforms read besides the page itself: minigrad's files (the catalogue, the matrix,
the breaks, the sources that Repair it and the NumPy marks come from). One stamp of them, so that
what is derived from them is computed again only when one of them changed."""

import os
from pathlib import Path

import minigrad

PACKAGE = Path(minigrad.__file__).parent


def package_stamp():
    """A hash of the names, sizes and modification times of minigrad's files (its caches left out)."""
    found = []
    for folder, folders, files in os.walk(PACKAGE):
        folders[:] = [f for f in folders if f != "__pycache__"]
        for name in files:
            stat = os.stat(os.path.join(folder, name))
            found.append((folder, name, stat.st_size, stat.st_mtime_ns))
    return hash(tuple(sorted(found)))
