"""A screenshot of the battle screen mid-fight with an attack being aimed (the README's picture).

Usage: SDL_VIDEODRIVER=dummy python -m tools.battle_shot OUT.png [--ruleset rift|frontier] [--size WxH]
       [--decision assign|prompt|ai]

The battle is the demonstration battle (``game.ui.demo``: the default posses, a rule-free player) played
until a unit of the deciding side has an attack that reaches a foe; that attack is chosen and the mouse
put on the foe, so the picture shows the targets, the line of sight, the hit chance and the odds.

``--decision assign`` plays on (over seeds) until a roll's hits can go to more than one target, puts the
first die on one target and points at another with the second die in the tray (the dice chips, the banner,
the dice under a target and the stress preview); ``--decision prompt`` until the ruleset's prompt banner is
up for anything else (a reaction window; the Frontier Joker's buttons); ``--decision ai`` plays a solo
battle (side 2 the normal AI, side 1 the rule-free player) until the AI shows a walk that attacks (a
charge) before making it: its path and target on the map, its line on the status line (README, "Solo
play").
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
    parser.add_argument("--decision", choices=("assign", "prompt", "ai"), default="")
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    if args.decision == "ai":
        return ai_shot(args.out, args.ruleset, (w, h))
    if args.decision:
        return decision_shot(args.out, args.ruleset, args.decision, (w, h))
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


def decision_shot(out: Path, ruleset: str, decision: str, size: tuple[int, int]) -> int:
    """See the module text: a battle stopped at a decision that breaks into the turns."""
    import pygame

    from game.engine.match import Match
    from game.tiledmap import load_tiled_map
    from game.ui.app import App
    from game.ui.battle import BattleScreen
    from game.ui.demo import demo_command, demo_match
    from game.ui.gui import Shell
    from game.ui.prefs import Prefs
    from game.ui.session import BattleSession

    def wanted(match: Match) -> bool:
        prompt = match.prompt()
        if prompt is None:
            return False
        assign = next((a for a in match.legal_actions() if a.needs == "assign"), None)
        if decision == "assign":
            return assign is not None and len(assign.targets) > 1 and assign.max_picks > 1
        return assign is None

    app = App(size, "Hexslinger")
    try:
        for seed in range(1, 60):
            match = demo_match(ruleset, seed=seed)
            for _ in range(600):
                if wanted(match) or match.outcome() is not None:
                    break
                match.apply(demo_command(match))
            if not wanted(match):
                match.close()
                continue
            assert match.map_path is not None
            session = BattleSession(match, None)
            screen = BattleScreen(Shell(prefs=Prefs()), session, load_tiled_map(match.map_path), app.size)
            app.push(screen)
            screen.handover = False
            app.step(1 / 60)
            prompt = match.prompt()
            assert prompt is not None
            spots = [match.position(u) for u in (prompt.cause, *prompt.about) if u is not None]
            points = [screen.tmap.geometry.hex_center(h) for h in spots if h is not None]
            cam = screen.view.camera
            cam.center_x = sum(x for x, _ in points) / len(points)
            cam.center_y = sum(y for _, y in points) / len(points) - 40
            cam.clamp()
            app.step(1 / 60)
            picker = screen.picker
            pointer: tuple[int, int] = screen.layout.map.center
            if decision == "assign" and picker is not None:
                first, second = picker.action.targets[:2]
                picker.assign(0, first)
                where = match.position(second)
                assert where is not None
                x, y = next(spot for u, spot in screen.token_spots(where) if u == second)
                pointer = (round(x), round(y))
            elif screen.choice_buttons:
                cx, cy = (
                    screen.choice_buttons[min(1, len(screen.choice_buttons) - 1)][0].get_abs_rect().center
                )
                pointer = (int(cx), int(cy))
            pygame.event.post(
                pygame.event.Event(pygame.MOUSEMOTION, pos=pointer, rel=(0, 0), buttons=(0, 0, 0))
            )
            for _ in range(40):
                app.step(1 / 60)
            app.save_screenshot(out)
            print(f"wrote {out} (seed {seed})")
            return 0
        print(f"battle_shot: no {decision} decision came up", file=sys.stderr)
        return 1
    finally:
        pygame.display.quit()


def ai_shot(out: Path, ruleset: str, size: tuple[int, int]) -> int:
    """See the module text: the AI's charge shown before it is made."""
    import pygame

    from game.tiledmap import load_tiled_map
    from game.ui.app import App
    from game.ui.battle import BattleScreen
    from game.ui.demo import demo_command, demo_match
    from game.ui.gui import Shell
    from game.ui.prefs import Prefs
    from game.ui.session import BattleSession

    match = demo_match(ruleset, seed=3)
    assert match.map_path is not None
    app = App(size, "Hexslinger")
    try:
        session = BattleSession(match, None, seats={"side1": "human", "side2": "ai:normal"})
        screen = BattleScreen(Shell(prefs=Prefs()), session, load_tiled_map(match.map_path), app.size)
        app.push(screen)
        app.step(1 / 60)
        area = screen.layout.map  # the whole map in view
        w, h = screen.tmap.geometry.map_pixel_size(screen.tmap.width, screen.tmap.height)
        screen.view.set_zoom(min((area.width - 10) / w, (area.height - 10) / h))
        pilot = screen.controller.pilot
        for _ in range(20_000):
            if session.outcome is not None:
                break
            if not session.ai_deciding():
                screen.send(demo_command(match))
            app.step(1 / 60)
            plan = pilot.plan
            if plan is not None and plan.command.path and plan.command.target and pilot.wait < 0.3:
                app.step(1 / 60)
                app.save_screenshot(out)
                print(f"wrote {out}")
                return 0
        print("battle_shot: the AI made no charge", file=sys.stderr)
        return 1
    finally:
        pygame.display.quit()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
