"""The Flet app: screens over the store and the engine, computing no rule of its own."""
