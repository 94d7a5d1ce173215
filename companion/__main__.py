"""`python -m companion ...` runs the command-line interface."""

from companion.cli import main

main()
