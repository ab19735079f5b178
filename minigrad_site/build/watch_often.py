"""`mkdocs serve` notices a save sooner: its file watcher looks every 0.15 s, not every 0.5 s.

MkDocs watches with watchdog's PollingObserver at a fixed 0.5 s (no option sets it), so a
save waited 0.25 s on average, and up to 0.5 s, before the rebuild began: a sixth of the
teacher's edit loop (benchmarks/EDIT_LOOP.md). A poll of the watched folders (the pages,
runner/, the words) stats a few hundred files, about a millisecond. Watchdog keeps the
interval in a private attribute of the observer and of each folder's emitter; if a later
watchdog names them otherwise, this changes nothing and the server polls as MkDocs set it.
"""

POLL_S = 0.15


def watch_often(server):
    observer = getattr(server, "observer", None)
    if observer is None or not hasattr(observer, "_timeout"):
        return server
    observer._timeout = POLL_S  # the folders watched from now on (the plugin's and mkdocs.yml's `watch`)
    for emitter in observer.emitters:  # the folders MkDocs watched before on_serve: the pages and mkdocs.yml
        if hasattr(emitter, "_timeout"):
            emitter._timeout = POLL_S
    return server
