"""The play layer: what a device may do with a game and when, without drawing anything.

Between the screens (companion/app, Flet) and the engine and store: the open game, computer
turns and their pace, the undo policy, a table's access and seats, taps on the isle, the
story since a player's last turn. No Flet here (tests/test_layers.py says so).
"""
