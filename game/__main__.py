"""`python -m game` is the `hexslinger` command."""

from game.cli import main

if __name__ == "__main__":  # not when a spawned worker (the odds, simulate) imports it
    raise SystemExit(main())
