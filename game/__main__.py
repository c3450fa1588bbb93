"""`python -m game` is the `hexslinger` command."""

from game.cli import main

raise SystemExit(main())
