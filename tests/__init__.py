"""Hexslinger's tests, a package so that pytest names them ``tests.<dir>.<module>`` with the checkout on
the path: without this file ``tests/`` itself went on ``sys.path`` and ``import ai`` found ``tests/ai``
(whose submodules the editable install then fetched from whichever checkout it was made from)."""
