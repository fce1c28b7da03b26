"""The browser client: plain HTML, CSS and JavaScript modules, served by the server as files."""

from pathlib import Path

STATIC = Path(__file__).parent / "static"
WEB = Path(__file__).parent  # document.html, the shell of the documents' pages
