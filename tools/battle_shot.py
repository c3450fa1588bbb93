"""A screenshot of the battle screen mid-fight with an attack being aimed (the README's picture).

Usage: SDL_VIDEODRIVER=dummy python -m tools.battle_shot OUT.png [--ruleset rift|frontier] [--size WxH]

The battle is the demonstration battle (``game.ui.demo``: the default posses, a rule-free player) played
until a unit of the deciding side has an attack that reaches a foe; that attack is chosen and the mouse
put on the foe, so the picture shows the targets, the line of sight, the hit chance and the odds.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from game.tiledmap import load_tiled_map
    from game.ui.app import App
    from game.ui.battle import BattleScreen
    from game.ui.demo import demo_command, demo_match
    from game.ui.gui import Shell
    from game.ui.picking import Picker
    from game.ui.prefs import Prefs
    from game.ui.session import BattleSession

    parser = argparse.ArgumentParser(prog="python -m tools.battle_shot")
    parser.add_argument("out", type=Path)
    parser.add_argument("--ruleset", choices=("rift", "frontier"), default="rift")
    parser.add_argument("--size", default="1280x720")
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    match = demo_match(args.ruleset, seed=11)
    assert match.map_path is not None
    app = App((w, h), "Hexslinger")
    try:
        session = BattleSession(match, None)
        screen = BattleScreen(Shell(prefs=Prefs()), session, load_tiled_map(match.map_path), app.size)
        app.push(screen)
        aim: tuple[object, int] | None = None
        for _ in range(400):
            for a in screen.actor_actions():
                if a.enabled and a.needs in ("", "target") and a.action not in ("end_turn", "pass"):
                    targets = Picker(match, a).reachable_targets()
                    foes = [t for t in targets if match.identity(t).side != match.identity(a.actor).side]
                    if foes and session.deciding_side() == match.identity(a.actor).side:
                        aim = (a, foes[0])
                        break
            if aim is not None and len(match.log) > 14:
                break
            aim = None
            screen.send(demo_command(match))
        if aim is None:
            print("battle_shot: no attack came up", file=sys.stderr)
            return 1
        action, foe = aim
        screen.handover = False
        screen.selected = action.actor  # type: ignore[attr-defined]
        screen.choose(action)  # type: ignore[arg-type]
        a_at, f_at = match.position(action.actor), match.position(foe)  # type: ignore[attr-defined]
        assert a_at is not None and f_at is not None
        (ax, ay), (fx, fy) = (
            screen.tmap.geometry.hex_center(a_at),
            screen.tmap.geometry.hex_center(f_at),
        )
        cam = screen.view.camera
        cam.center_x, cam.center_y = (ax + fx) / 2, (ay + fy) / 2
        cam.clamp()
        for _ in range(3):
            app.step(1 / 60)
        where = match.position(foe)
        assert where is not None
        x, y = screen.overlay.center(where)
        area = screen.layout.map
        pos = (area.x + x, area.y + y)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        for _ in range(4):
            app.step(1 / 60)
        app.save_screenshot(args.out)
        print(f"wrote {args.out}")
        return 0
    finally:
        pygame.display.quit()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
