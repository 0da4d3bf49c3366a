"""``stich board``: a local web analysis board over the public API (:func:`create_app`, the ASGI app the command
serves). The page (``static/``) is plain HTML, CSS and JavaScript shipped in the package: no CDN, no build step."""

from .app import create_app

__all__ = ["create_app"]
