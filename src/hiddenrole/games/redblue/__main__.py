"""Play one scripted red/blue game and print what happens (README's example)."""

from __future__ import annotations

import hiddenrole as hr
from hiddenrole.games import redblue


def main() -> None:
    engine = redblue.new_game(reds=2, blues=3)
    engine.on_event(lambda ev: print(f"  event {ev.type} {ev.target} {dict(ev.data)}"))
    engine.start()
    while not engine.status().over:
        st = engine.status()
        print(f"round {st.round}, alive: {', '.join(engine.alive_player_ids())}")
        alive = engine.alive_player_ids()
        for pid in alive:
            # Everyone votes for the first living player of the other side.
            me = engine.player_view(pid)
            foe = next(p.id for p in me.players if p.alive and p.id[0] != pid[0])
            engine.submit(pid, redblue.VOTE, [foe])
        engine.end_phase()
    print("winners:", ", ".join(engine.status().winners))
    again = hr.Engine.replay(redblue.rules(), engine.log().to_json())
    print("replayed from the log:", again.status() == engine.status())


if __name__ == "__main__":
    main()
