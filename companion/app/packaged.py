"""Entry point of the packaged app (`flet build`): the window or phone app, games on the device."""

from companion.app.server import run_packaged

run_packaged()
