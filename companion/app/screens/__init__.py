"""One module per screen, each with a `build` that returns its ft.View."""
