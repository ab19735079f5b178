"""Lines of code in a Python file: not blank, not only a comment, not a docstring.

The budgets count code, as tinygrad's sz.py counts tokens, so that a docstring
saying *why* never costs a line of budget.
"""

import ast
import io
import tokenize


def _docstring_lines(tree):
    lines = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def code_lines(source):
    docstrings = _docstring_lines(ast.parse(source))
    code = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skip:
            code.update(line for line in range(token.start[0], token.end[0] + 1) if line not in docstrings)
    return len(code)
