"""`python -m companion ...` runs the command-line interface."""

from companion.cli import main

# Guarded: a worker process (spawned) imports this module again and must not run the CLI.
if __name__ == "__main__":
    main()
