# `python -m shared_rules demo`: one random game of a track game, printed turn by turn (its
# own module: the random player alone is what benchmarks and tools load).
from shared_rules import notation, variant
from shared_rules.describe import move_text, event_text, printed
from shared_rules.randgame import play


def demo(seed, players, out, game=None):
    game = game or variant.DEFAULT
    g = variant.load(game, variant.board_for(game, players))
    cards = g.cards
    names = g.lay.colours

    def report(before, seat, k, mv, events):
        move = notation.to_json(before, mv)
        out.write("%-6s %s\n" % (names[seat], move_text(cards.names[k] if k >= 0 else None,
                                                         move)))
        for ev in events:
            text = event_text(ev)
            if text is not None:
                out.write(printed(ev["type"], text, "         ") + "\n")

    out.write("%s, %d players, seed %d: a random game refereed by the rules core\n"
              % (g.title, players, seed))
    st, turns = play(seed, players, report=report, game=game)
    out.write("%d turns\n" % turns)
