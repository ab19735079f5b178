"""The theme's templates, compiled once per `mkdocs serve`.

Every rebuild loads the configuration again, so MkDocs makes a new Jinja environment and
Material's 47 templates are parsed and compiled again, for each language: a tenth of a
rebuild that changed no template. Jinja's own mechanism for this is a bytecode cache; this
one keeps the compiled code in memory, by template and by the settings that shape compiled
code (an environment configured otherwise compiles its own), and Jinja checks each
template's source against the checksum stored with its code, so an edited template
(overrides/) is compiled again.
"""

from jinja2 import BytecodeCache


class TemplatesInMemory(BytecodeCache):
    def __init__(self):
        self.code = {}

    def load_bytecode(self, bucket):
        key = (_settings(bucket.environment), bucket.key)
        if key in self.code:
            bucket.bytecode_from_string(self.code[key])

    def dump_bytecode(self, bucket):
        self.code[(_settings(bucket.environment), bucket.key)] = bucket.bytecode_to_string()


def _settings(env):
    """What of an environment changes the code a template compiles to (filters and globals do not)."""
    autoescape = env.autoescape if isinstance(env.autoescape, bool) else id(env.autoescape)
    return (env.block_start_string, env.block_end_string, env.variable_start_string, env.variable_end_string,
            env.comment_start_string, env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
            env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline, env.optimized,
            autoescape, tuple(sorted(env.extensions)))


REMEMBERED = TemplatesInMemory()
