from hiddenrole import Engine
from hiddenrole.games import redblue


def test_redblue_plays_to_the_end_and_replays() -> None:
    engine = redblue.new_game(2, 2)
    engine.start()
    engine.submit("r1", redblue.VOTE, ["b1"])
    engine.submit("r2", redblue.VOTE, ["b1"])
    engine.end_phase()
    assert not engine.player_info("b1").alive
    again = Engine.replay(redblue.rules(), engine.log().to_json())
    assert again.snapshot().to_json() == engine.snapshot().to_json()
