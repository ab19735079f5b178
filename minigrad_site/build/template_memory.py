"""The theme's templates, compiled once per `mkdocs serve`.

Every rebuild loads the configuration again, so MkDocs makes a new Jinja environment and
Material's 47 templates are parsed and compiled again, for each language: a tenth of a
rebuild that changed no template. Jinja's own mechanism for this is a bytecode cache; this
one keeps the compiled code in memory, by template, and Jinja checks each template's
source against the checksum stored with its code, so an edited template (overrides/) is
compiled again.
"""

from jinja2 import BytecodeCache


class TemplatesInMemory(BytecodeCache):
    def __init__(self):
        self.code = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


REMEMBERED = TemplatesInMemory()
