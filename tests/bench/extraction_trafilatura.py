"""Runs trafilatura on the extraction corpus's pages; prints {folder: text} as JSON.

Input (stdin): JSON [[folder, html_path], ...]. trafilatura's defaults, plain-text output.
Install: python3 -m pip install -r tests/bench/requirements-extraction.txt
"""
import json
import sys

import trafilatura

out = {}
for name, path in json.load(sys.stdin):
    with open(path, "rb") as f:
        html = f.read()
    out[name] = trafilatura.extract(html, output_format="txt") or ""
json.dump({"version": trafilatura.__version__, "texts": out}, sys.stdout)
