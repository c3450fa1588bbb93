"""The battle screen's decisions, without pygame: which unit is commanded and which is looked at, the action
being aimed and its picks, the commands they make, the hand-over between hotseat players, undo, the
end-turn question, what the status line says (what the action bar offers is read from here by
:mod:`game.ui.action_bar`; the log, dice and floaters an event leaves are :mod:`game.ui.battle_feed`'s).

The screen (``game.ui.battle``) decodes mouse and keys into calls here (a tile clicked, a number key, a die
dropped on a tile) and draws what is here; this module turns them into :class:`~game.commands.Command`\\ s
through the LegalAction contract only (:class:`~game.ui.picking.Picker`) and hands them to the
:class:`~game.ui.session.BattleSession`. It knows no rule: what may be done, its cost and why not come
from the session's legal actions, the words of a decision from ``Match.prompt``, the unit panel from
``Match.unit_view`` (the match is the only door to the rules). The camera is the screen's: the
controller asks for it through ``centre_on`` and ``centre_on_hexes``, and for sounds through ``play``.
"""

from __future__ import annotations

from collections.abc import Callable

from game.commands import Command
from game.engine.gm import is_gm
from game.engine.match import Match
from game.engine.protocol import DEPLOY, LegalAction, Prompt, UnitView
from game.events import Event, Roll, chain_words
from game.hexgrid import Hex, hex_distance
from game.ui.battle_end import EndShow, end_show
from game.ui.battle_feed import BattleFeed
from game.ui.battle_words import aim_hint, preview_text, reactions_text, short_label
from game.ui.picking import Hover, Picker, units_at
from game.ui.pilot import AiFailure, AiMove, AiPilot, PlayerFactory
from game.ui.session import BattleSession

__all__ = ["BattleController"]


class BattleController:
    """One battle's selection, aiming and decision flow (see the module text)."""

    def __init__(
        self,
        session: BattleSession,
        side_names: dict[str, str] | None = None,
        *,
        play: Callable[[str], None] | None = None,
        centre_on: Callable[[int], None] | None = None,
        centre_on_hexes: Callable[[tuple[Hex, ...]], None] | None = None,
        make_player: PlayerFactory | None = None,
        show_hexes: Callable[[tuple[Hex, ...]], None] | None = None,
    ) -> None:
        self.session = session
        self.side_names = side_names or {p.side: p.name or p.side for p in session.match.posses}
        self.sides = [p.side for p in session.match.posses]
        self.centre_on = centre_on or (lambda _unit: None)
        self.centre_on_hexes = centre_on_hexes or (lambda _hexes: None)
        self.show_hexes = show_hexes or (lambda _hexes: None)  # the camera moves only if one is off screen
        self.feed = BattleFeed(session, play)
        self.selected: int | None = None
        self.inspected: int | None = None  # a unit clicked to look at (its panel), not commanded
        self.picker: Picker | None = None
        self.hover_hex: Hex | None = None
        self.hovered: Hover = Hover()
        self.message = ""
        self.handover = False
        self.handover_pending = False
        self.over_reported = False
        self.ending: EndShow | None = None  # the battle's end on the board (game.ui.battle_end)
        self.end_seen = False  # the player has looked at it and moves on to the results
        self._stood: dict[int, Hex | None] = {}  # where each unit was before the last command
        self.clock = 0.0  # seconds shown, for the dice rolling and the tokens' idle motion
        self.stale = True  # the action bar and panels are to be built again
        self.gm_lock = False  # GM mode is on: only GM edits are sent (game.ui.gm_panel)
        self._centre_after_handover: int | None = None
        self._deploy_view_for = ""
        self._prompt_cache: tuple[object, Prompt | None] | None = None
        self._reach_cache: tuple[object, dict[Hex, int]] | None = None
        self._targets_cache: tuple[object, tuple[int, ...]] | None = None
        self._unreachable_cache: tuple[object, tuple[int, ...]] | None = None
        self._views: dict[int, UnitView] = {}
        self._views_for: tuple[int, int] | None = None
        # the computer players (game.ui.pilot); ai_move is the decision shown before it is made
        self.pilot = AiPilot(self) if make_player is None else AiPilot(self, make_player)
        self.ai_move: AiMove | None = None
        for note in session.seat_notes:
            self.message = note
        for e in session.match.history:
            self.feed.log_event(e)
        self.after_change([])

    # -- reading the match ------------------------------------------------------------------------------
    @property
    def match(self) -> Match:
        return self.session.match

    def state_key(self) -> tuple[int, int]:
        """Changes whenever the match does (a command applied, an undo: a new match object)."""
        return id(self.match), len(self.match.log)

    def unit_view(self, unit: int) -> UnitView:
        """The match's view of a unit, asked once per match state (the panel and tokens ask each frame)."""
        key = self.state_key()
        if self._views_for != key:
            self._views.clear()
            self._views_for = key
        view = self._views.get(unit)
        if view is None:
            view = self.match.unit_view(unit)
            self._views[unit] = view
        return view

    def actor_actions(self) -> list[LegalAction]:
        """The legal actions of the selected unit (none while a computer player decides); in a public
        decision (``LegalAction.public``: a card drawn for one of the side's units) every unit's, so the
        player picks the unit with one click."""
        if self.session.ai_deciding():
            return []
        if self.session.public_decision():
            return [a for a in self.session.legal() if a.enabled]
        if self.selected is None:
            return []
        return self.session.actions_for(self.selected)

    def prompt(self) -> Prompt | None:
        """The ruleset's words for a decision that breaks into the turns, asked once per state."""
        key = self.state_key()
        if self._prompt_cache is None or self._prompt_cache[0] != key:
            prompt = self.match.prompt()  # None once the battle is over
            self._prompt_cache = (key, prompt)
        return self._prompt_cache[1]

    @property
    def covered(self) -> bool:
        """The board takes no orders: the hand-over cover is up or about to come."""
        return self.handover or self.handover_pending

    def panel_unit(self) -> int | None:
        """The unit the panel shows: one clicked to look at, else the one being commanded."""
        if self.inspected is not None and self.match.position(self.inspected) is None:
            self.inspected = None
        return self.inspected if self.inspected is not None else self.selected

    def choosing(self) -> Picker | None:
        """The picker while it waits for one of its action's choices (shown as buttons)."""
        p = self.picker
        if p is not None and p.action.needs == "choice" and not p.option and not self.covered:
            return p
        return None

    def assigning(self) -> Picker | None:
        """The picker while hits are being assigned and the board is not covered (the dice tray)."""
        p = self.picker
        if p is None or p.action.needs != "assign" or self.covered:
            return None
        return p

    def die_values(self) -> tuple[int, ...]:
        """The face of each die being assigned (0 when the action does not say)."""
        picker = self.picker
        if picker is None:
            return ()
        values = picker.action.dice
        return values if len(values) == len(picker.slots) else tuple(0 for _ in picker.slots)

    def die_labels(self) -> tuple[str, ...]:
        """The words on each die being assigned: its number, or its chain when it exploded ("6\u2192+4",
        from the actor's last roll: the successful dice in order), never a "10" on a d6."""
        values = self.die_values()
        picker = self.picker
        roll = next(
            (
                e
                for e in reversed(self.match.history)
                if isinstance(e, Roll) and picker and e.unit == picker.action.actor
            ),
            None,
        )
        if roll is not None and roll.chains and roll.target_number is not None:
            hits = [faces for faces, value in roll.shown() if value >= roll.target_number]
            if len(hits) == len(values):
                return tuple(chain_words(f).replace(" ", "") for f in hits)
        return tuple(str(v) if v else "?" for v in values)

    def targets(self, picker: Picker) -> tuple[int, ...]:
        """The units an action can reach, asked once per state and action (an attack that names no
        target asks the preview of every unit)."""
        key = (self.state_key(), picker.action, picker.option)
        if self._targets_cache is None or self._targets_cache[0] != key:
            self._targets_cache = (key, picker.reachable_targets())
        return self._targets_cache[1]

    def unreachable(self, picker: Picker) -> tuple[int, ...]:
        """The targets an action cannot hit at all (0%), asked once per state and action."""
        key = (self.state_key(), picker.action, picker.option)
        if self._unreachable_cache is None or self._unreachable_cache[0] != key:
            self._unreachable_cache = (key, picker.unreachable_targets())
        return self._unreachable_cache[1]

    def reach_costs(self, action: LegalAction) -> dict[Hex, int]:
        """The cheapest cost to each offered tile (for the dots), cached per state and action."""
        key = (len(self.match.log), action)
        if self._reach_cache is None or self._reach_cache[0] != key:
            here = self.match.position(action.actor)
            costs: dict[Hex, int] = {}
            if action.paths is not None:  # the rules' own costs
                costs = {h: action.paths.costs.get(h, 0) for h in action.hexes}
            elif here is not None:
                # TODO(Rift on the engine): until Through the Rift's path actions carry ``paths``
                reach = self.match.battlefield.reachable(here, 99)
                costs = {h: reach.get(h, hex_distance(here, h)) for h in action.hexes}
            self._reach_cache = (key, costs)
        return self._reach_cache[1]

    def widget_key(self) -> object:
        """Changes whenever the action bar or the panels must be built again."""
        picker = self.picker
        return (
            len(self.match.log),
            id(self.match),
            self.selected,
            self.inspected,
            self.handover,
            self.handover_pending,
            picker is not None and picker.action,
            picker is not None and picker.option,
            picker is not None and picker.command() is not None,
            picker is not None and tuple(picker.slots),
            tuple(self.session.seats.values()),
            self.pilot.paused,
            self.pilot.pace,
            self.pilot.active,
        )

    # -- after a command ----------------------------------------------------------------------------------
    def after_change(self, events: list[Event]) -> None:
        """After a command (or at start): choose the deciding unit, aim forced decisions, hand over."""
        self.picker = None
        self.inspected = None
        self.ai_move = None
        actors = self.session.actors()
        if self.selected not in actors:
            self.selected = actors[0] if actors else None
        legal = self.session.legal()
        assign = next((a for a in legal if a.needs == "assign"), None)
        if self.session.ai_deciding():
            pass  # the computer player decides (game.ui.pilot): nothing is aimed for it
        elif assign is not None:
            self.selected = assign.actor
            self.picker = Picker(self.match, assign)
        elif (forced := self.forced_choice(legal)) is not None:
            self.selected = forced.actor
            self.picker = Picker(self.match, forced)
        else:
            deploy = [a for a in self.actor_actions() if a.action == DEPLOY and a.enabled]
            if deploy:
                self.picker = Picker(self.match, deploy[0])
                side = deploy[0].side
                if side != self._deploy_view_for:
                    self._deploy_view_for = side
                    self.centre_on_hexes(deploy[0].hexes)
        if self.session.needs_handover():
            # the cover comes once the roll and its damage have been seen (the attacker watches the
            # result on the board); until then the board takes no orders
            self.handover_pending = True
        started = self.session.turn_started(events)
        if started is not None:
            self.pilot.new_turn()
            if self.handover_pending or self.handover:
                self._centre_after_handover = started
            else:
                self.centre_on(started)
        self._reach_cache = None
        self.stale = True
        if self.session.outcome is not None:
            self.picker = None
            if self.ending is None:
                self.ending = end_show(self.match, events, self.side_names, self._stood)
                self.show_hexes(tuple(h for h, _ in self.ending.marks))  # who left, in sight
        self._pass_if_nothing_else(legal)

    def _pass_if_nothing_else(self, legal: list[LegalAction]) -> None:
        """A reaction window where the decider can do nothing but let it go ("X can only pass now"):
        sent at once rather than asking for a click that decides nothing."""
        if self.session.outcome is not None or self.prompt() is None:
            return
        enabled = [a for a in legal if a.enabled]
        if len(enabled) == 1 and enabled[0].needs == "" and not enabled[0].ends_turn and len(legal) > 1:
            only = enabled[0]
            self.feed.note(f"{self.match.identity(only.actor).name} can only pass")
            self.send(only.command())

    @staticmethod
    def forced_choice(legal: list[LegalAction]) -> LegalAction | None:
        """A choice the decider cannot put off (the Joker's place): the only thing it may do."""
        enabled = [a for a in legal if a.enabled]
        if len(enabled) == 1 and enabled[0].needs == "choice" and len(enabled[0].choices) > 1:
            return enabled[0]
        return None

    def _note_where_units_stand(self) -> None:
        """Where each unit stands before a command (the end shows where those who left the fight were)."""
        self._stood = {u: self.match.position(u) for u in self.match.units()}

    def see_end(self) -> None:
        """The player has looked at the battle's end on the board: on to the results."""
        if self.ending is not None:
            self.end_seen = True

    def send(self, command: Command) -> bool:
        """Hand a command to the session; show the reason if it is refused."""
        if self.gm_lock and not is_gm(command):  # GM mode: the players wait (game.ui.sandbox)
            self.message = "GM mode: hand the battle back (G) to play on"
            return False
        self._note_where_units_stand()
        events, reason = self.session.try_apply(command)
        if reason is not None:
            self.message = reason
            return False
        self.message = ""
        self.feed.take(events)
        self.after_change(events)
        return True

    # -- the computer players (game.ui.pilot asks these) ------------------------------------------------
    def watch_ai(self, move: AiMove | None) -> None:
        """A computer player starts thinking (``move`` None: its unit is marked) or shows its decision."""
        self.ai_move = move
        actor = move.command.actor if move is not None else 0
        if actor and actor in self.match.units(in_play=False):
            self.selected = actor
        if move is not None:  # what it is about to do in sight: the unit, where it goes, whom it aims at
            cmd = move.command
            spots = [self.match.position(u) for u in (cmd.actor, cmd.target, *cmd.targets) if u]
            spots += [cmd.path[-1]] if cmd.path else []
            spots += [cmd.hex] if cmd.hex is not None else []
            self.show_hexes(tuple(h for h in spots if h is not None))

    def send_ai(self, move: AiMove) -> str | None:
        """A computer player's decision made: its line in the log (its own words, why as the detail), then
        its events, as a player's command; the reason if the session refused it."""
        self._note_where_units_stand()
        events, reason = self.session.try_apply(move.command)
        if reason is not None:
            return reason
        side = self.side_names.get(move.side, move.side)
        line = move.words if move.command.actor else f"{side}: {move.words}"
        self.feed.decision(line, f"{side}, {self.session.seat_label(move.side)}\n{move.detail}")
        self.message = ""
        self.feed.take(events)
        self.after_change(events)
        return None

    def ai_failed(self, failure: AiFailure) -> None:
        """A computer player failed: its side passes to a human (the screen shows why in a dialog)."""
        self.session.hand_to_human(failure.side)
        # the dialog already hands the side over: no "pass to" cover for this decision (from here on the
        # two human seats pass the board as in any hotseat battle)
        self.session.last_side = failure.side
        name = self.side_names.get(failure.side, failure.side)
        self.feed.note(f"The computer player of {name} failed; a human plays {name} now")
        self.message = f"{name} is yours now: its computer player failed ({failure.reason})"
        self.after_change([])

    def take_over(self, side: str) -> None:
        """A spectator takes ``side``'s seat from its computer player (the other side plays on, at pace 1
        again): the battle is a solo one from here, saved so; no hand-over cover (the new player is at
        the screen)."""
        if not self.session.is_ai(side) or self.session.outcome is not None:
            return
        self.session.hand_to_human(side)
        self.session.last_side = side
        self.pilot.reset()
        self.pilot.paused = False
        self.pilot.pace = 1.0  # the other side's computer player at the readable pace of a solo battle
        self.ai_move = None
        name = self.side_names.get(side, side)
        self.feed.note(f"A human takes over {name} from its computer player")
        self.message = f"You play {name} now"
        self.after_change([])

    # -- choosing and aiming ------------------------------------------------------------------------------
    def choose(self, action: LegalAction) -> None:
        """An action bar button (or its number key)."""
        if not action.enabled:
            self.message = action.reason or "not possible now"
            return
        current = self.picker
        if (
            current is not None
            and current.action == action
            and action.needs in ("targets", "assign")
            and (cmd := current.command()) is not None
        ):
            self.send(cmd)  # the button again confirms the picks (the hits as assigned)
            return
        if current is not None and current.action == action and action.needs == "assign":
            self.message = "assign every die first: drag each onto a target"
            return
        picker = Picker(self.match, action)
        if action.needs == "choice" and len(action.choices) == 1:
            picker.option = action.choices[0]
        if action.needs == "choice" and not picker.option:
            self.picker = picker
            self.message = f"{action.label}: choose one"
            self.stale = True
            return
        self._aim(picker)

    def choose_option(self, option: str) -> None:
        """One of the choice buttons (or its number key) while a choice is being made."""
        picker = self.choosing()
        if picker is None or option not in picker.action.choices:
            return
        picker.option = option
        self.picker = None  # aimed afresh: a choice that still needs the map is pointed, not fired
        self._aim(picker)

    def cancel_aim(self) -> None:
        """Put the chosen action down (Esc, right click, Back), unless the decision cannot wait."""
        if self.picker is None or self.picker.action.needs == "assign":
            return
        if self.forced_choice(self.session.legal()) is not None:
            return
        self.picker = None
        self.message = ""
        self.stale = True

    def _aim(self, picker: Picker) -> None:
        """Send an action that needs nothing more, else aim it on the map."""
        action = picker.action
        if picker.ready_without_map and not picker.reachable_targets():
            cmd = picker.command()
            if cmd is not None:
                self.send(cmd)
            return
        if self.picker is not None and self.picker.action == action and picker.ready_without_map:
            cmd = picker.command()  # a second press fires without pointing at anyone
            if cmd is not None:
                self.send(cmd)
            return
        self.picker = picker
        self.message = aim_hint(action)
        self._reach_cache = None
        self.stale = True

    def click_map(self, h: Hex | None, pointed: int | None, button: int) -> None:
        """A click on tile ``h`` (``pointed``: the unit whose token the pointer is on); ``button`` 1 is the
        left button, 3 the right one."""
        if self.covered or h is None:
            return
        if self.session.ai_deciding():  # the computer has the decision: a click only looks
            others = units_at(self.match, h)
            self.inspected = (pointed if pointed in others else others[0]) if others else None
            self.stale = True
            return
        if button == 3:
            if self.picker is not None and self.picker.has_picks:
                self.take_back()
            else:
                self.cancel_aim()
            return
        if self.picker is not None:
            cmd = self.picker.click(h, pointed)
            if self.picker.action.needs == "assign":
                self._assign_message()  # sent by Enter or the button, once the player has looked
            elif cmd is not None:
                self.send(cmd)
            elif self.picker.action.needs in ("targets",) and self.picker.picked:
                self.message = f"{len(self.picker.picked)} picked: Enter to confirm"
            return
        actors = set(self.session.actors())
        here = sorted((u for u in units_at(self.match, h) if u in actors), key=lambda u: u != pointed)
        if here:
            self.selected = here[0]
            self.inspected = None
            public = [a for a in self.session.actions_for(here[0]) if a.enabled and a.public and not a.needs]
            if len(public) == 1 and self.session.public_decision():
                self.send(public[0].command())  # a card drawn for the unit clicked: one click
                return
        else:
            # any other unit (a foe, an ally not acting now): its panel, until a unit of yours is chosen
            others = units_at(self.match, h)
            self.inspected = (pointed if pointed in others else others[0]) if others else None
        self.stale = True

    def take_back(self) -> None:
        """Take back the last pick of the action being aimed (right click, Backspace)."""
        if self.picker is not None and self.picker.has_picks:
            self.picker.unpick()
            self._assign_message()

    def drop_die(self, die: int, h: Hex | None, pointed: int | None, *, moved: bool) -> None:
        """Die ``die`` of the tray let go over tile ``h`` (``moved``: it was dragged, not clicked): onto a
        target there, back into the tray when dragged into the open, else into the hand for a target
        click."""
        picker = self.picker
        if picker is None or picker.action.needs != "assign":
            return
        targets = units_at(self.match, h, picker.action.targets) if h is not None else []
        if targets:
            picker.assign(die, pointed if pointed in targets else targets[0])
        elif moved:
            picker.assign(die, None)  # dragged off into the open: taken back
        else:
            picker.hold(None if picker.holding == die else die)  # a click: in hand for a target click
        self._assign_message()

    def _assign_message(self) -> None:
        picker = self.picker
        if picker is None or picker.action.needs != "assign":
            return
        left = sum(1 for t in picker.slots if t is None)
        if left:
            self.message = f"{left} hit{'s' if left != 1 else ''} to assign: drag a die onto a target"
            return
        preview = picker.preview()
        names = ", ".join(
            f"{self.match.identity(u).name} {amount}" for u, amount in (preview.per_target if preview else ())
        )
        self.message = "all hits assigned" + (f" ({names})" if names else "") + ": Enter fires them"

    def hover(self, h: Hex | None, pointed: int | None) -> None:
        """The pointer is over tile ``h`` (on the token of ``pointed``): what aiming there would do."""
        self.hover_hex = h
        self.hovered = self.picker.hover(h, pointed) if self.picker is not None else Hover(h)

    def hover_key(self) -> object:
        """What the hover depends on besides the tile and the camera: the match, the action aimed, its
        picks (a change of any of them makes the shown odds stale)."""
        p = self.picker
        return (
            self.state_key(),
            id(p),
            p is not None and p.option,
            p is not None and tuple(p.slots),
        )

    # -- keys -----------------------------------------------------------------------------------------------
    def escape(self) -> bool:
        """The pause key: put the aimed action down, else stop looking at another unit; True when there
        was nothing to put down (the pause menu opens)."""
        if (
            self.picker is not None
            and self.picker.action.needs != "assign"
            and self.forced_choice(self.session.legal()) is None
        ):
            self.cancel_aim()
        elif self.inspected is not None:
            self.inspected = None  # back to the unit being commanded
            self.stale = True
        else:
            return True
        return False

    def confirm(self) -> bool:
        """The end-turn key while picks are complete: send them; False when there is nothing to send (the
        key ends the turn)."""
        cmd = self.picker.command() if self.picker is not None else None
        if cmd is None:
            return False
        self.send(cmd)
        return True

    def next_actor(self) -> None:
        """Tab: command the next unit that has something to decide."""
        self.inspected = None
        actors = self.session.actors()
        if actors:
            i = actors.index(self.selected) if self.selected in actors else -1
            self.selected = actors[(i + 1) % len(actors)]
            self.stale = True

    def number(self, index: int) -> None:
        """Number key ``index + 1``: that option of the choice being made, else that action of the bar."""
        choosing = self.choosing()
        if choosing is not None:
            if index < len(choosing.action.choices):
                self.choose_option(choosing.action.choices[index])
            return
        bar = [a for a in self.actor_actions() if not a.ends_turn]
        if index < len(bar):
            self.choose(bar[index])

    # -- turns, hand-over, undo --------------------------------------------------------------------------
    def end_action(self) -> LegalAction | None:
        """The selected unit's action that ends its turn, if it has one now."""
        return next((a for a in self.actor_actions() if a.ends_turn), None)

    def end_turn_question(self) -> str | None:
        """Why ending the turn is worth a question (AP left and something still possible), or None."""
        if self.selected is None:
            return None
        view = self.unit_view(self.selected)
        usable = [a for a in self.actor_actions() if a.enabled and a.cost > 0 and not a.ends_turn]
        ap = view.action_points[0]
        if ap > 0 and usable:
            could = ", ".join(short_label(a.label) for a in usable[:4]) + (
                "\u2026" if len(usable) > 4 else ""
            )
            return f"{view.name} still has {ap} AP and could: {could}".rstrip(".") + "."
        return None

    def auto_deploy(self) -> None:
        """The "Auto-deploy" button: the ruleset's deployment for the side deploying now, one command at a
        time while that side is still the one deploying."""
        side = self.session.deciding_side()
        for cmd in self.match.auto_deploy():
            if self.session.deciding_side() != side or cmd.side not in ("", side):
                continue
            if self.match.validate(cmd) is None:
                self.send(cmd)

    def undo(self) -> None:
        """Take the last command back, or say why it cannot be."""
        problem = self.session.undo_problem()
        if problem is not None:
            self.message = problem
            return
        undone = self.session.undo()
        self.feed.note(f"Undone: {undone.action.replace('_', ' ')}")
        self.after_change([])

    def take_seat(self) -> None:
        """The next player has the seat: the cover goes, the camera on the unit whose turn began (else on
        the unit whose decision it is: a reaction, a Joker's place; or the zone it deploys in)."""
        self.handover = False
        self.stale = True
        unit = self._centre_after_handover if self._centre_after_handover is not None else self.selected
        self._centre_after_handover = None
        if self.picker is not None and self.picker.action.action == DEPLOY:
            self.centre_on_hexes(self.picker.action.hexes)  # the zone to fill, whole
        elif unit is not None:
            self.centre_on(unit)

    def advance(self, dt: float, speed: float) -> bool:
        """A frame of ``dt`` seconds at animation speed ``speed``: age the dice and floaters, bring the
        cover up once they are done; True once, when the battle is over and its last roll has been seen."""
        self.clock += dt
        pilot = self.pilot
        if not (pilot.paused and pilot.active):  # a spectator's pause stops the dice too
            self.feed.advance(dt * max(0.1, speed) * (pilot.pace if pilot.active else 1.0))
        pilot.tick(dt * max(0.1, speed))
        if self.handover_pending and not self.feed.busy:
            self.handover_pending = False
            self.handover = self.session.needs_handover() and self.session.outcome is None
            self.stale = True
        over = self.session.outcome is not None and not self.over_reported and self.feed.dice is None
        if over and (self.end_seen or self.ending is None):
            self.over_reported = True
            return True
        return False

    # -- what the screen says ----------------------------------------------------------------------------
    def ai_status(self, side: str) -> str:
        """The status line while a computer player has the decision: thinking, or what it is about to do,
        and how to hurry it (and, when it plays alone, how to pause)."""
        who = f"{self.side_names.get(side, side)} ({self.session.seat_label(side)})"
        move = self.ai_move
        doing = f"{who}: {move.words}" if move is not None else f"{who} is thinking\u2026"
        hint = "P pauses, [ ] pace, Space skips" if self.session.spectating() else "click or Space skips"
        pace = "skipping\u2026" if self.pilot.hurry else hint
        if self.pilot.paused:
            pace = "paused (P resumes)"
        return f"{doing}   \u2022   {pace}"

    def status_text(self) -> str:
        """The status line: whose decision it is, the last message, the tile under the pointer and what
        aiming there would do."""
        parts = []
        side = self.session.deciding_side()
        if side is not None and self.session.ai_deciding():
            parts.append(self.ai_status(side))
        elif side is not None:
            parts.append(f"{self.side_names.get(side, side)} to decide")
        if self.message:
            parts.append(self.message)
        if self.hover_hex is not None:
            t = self.match.battlefield.terrain_at(self.hover_hex)
            cost = self.match.battlefield.move_cost(self.hover_hex)
            cover = t.cover.name.lower() if t.cover.name != "NONE" else "no"
            parts.append(f"{t.name}: {cover} cover, move {cost if cost is not None else 'blocked'}")
        preview = self.hovered.preview if self.picker is not None else None
        name = lambda u: self.match.identity(u).name  # noqa: E731
        if preview is not None:
            parts.append(preview_text(preview, name))
        elif self.picker is not None and self.hovered.reason and self.hovered.hex is not None:
            parts.append(self.hovered.reason)
        if self.picker is not None and self.hovered.reactions:
            parts.append(reactions_text(self.hovered.reactions, name))
        return "   \u2022   ".join(parts)
