# La Via delle Spie / Agent Avenue as lookup tables, read from data/agent-avenue-cards.json and
# data/agent-avenue-board.json. Every number the rules use (agent steps, copies, the board, hand
# size, discards, black-market abilities) comes from those files; the code knows only the
# mechanics an ability names ("recruit_add", "steal", ...), so a corrected card is a data edit.
from shared_rules import _data

NONE = 255  # "no card" in the compact tables and positions

# Black-market ability mechanics (the "effect.type" of a card in the data).
LOSE_BECOMES_WIN = 1
WIN_DIFFERENT_AGENTS = 2
WIN_OTHER_ON_HOME = 3
HOME_STOP_FORWARD = 4
RECRUIT_ADD = 5
RECRUIT_SET = 6
RECRUIT_FORWARD = 7
RECRUIT_TIMES = 8
STEP = 9
RECRUIT_TOP = 10
RECRUIT_HAND_NAMED = 11
RECRUIT_HAND_NEW = 12
RECRUIT_HAND_PAIR = 13
TAKE_BACK = 14
STEAL = 15

_EFFECTS = {
    "lose_becomes_win": LOSE_BECOMES_WIN, "win_different_agents": WIN_DIFFERENT_AGENTS,
    "win_other_on_home": WIN_OTHER_ON_HOME, "home_stop_forward": HOME_STOP_FORWARD,
    "recruit_add": RECRUIT_ADD, "recruit_set": RECRUIT_SET, "recruit_forward": RECRUIT_FORWARD,
    "recruit_times": RECRUIT_TIMES, "step": STEP, "recruit_top": RECRUIT_TOP,
    "recruit_hand_named": RECRUIT_HAND_NAMED, "recruit_hand_new": RECRUIT_HAND_NEW,
    "recruit_hand_pair": RECRUIT_HAND_PAIR, "take_back": TAKE_BACK, "steal": STEAL,
}
MAX_REASONS = 8  # end reasons as bits of a byte (tables.end_bit, tables.effect_bit)
# mechanics that change how a recruited agent moves the pawn
RECRUIT_MODIFIERS = (RECRUIT_ADD, RECRUIT_SET, RECRUIT_FORWARD, RECRUIT_TIMES)


class Tables:
    def __init__(self, cards, board):
        self.sides = list(board["sides"])
        self.side_index = {}
        for i in range(len(self.sides)):
            self.side_index[self.sides[i]] = i
        n = board["spaces"]
        self.spaces = n
        self.home = bytearray(len(self.sides))
        self.is_home = bytearray(n)
        for i in range(len(self.sides)):
            h = board["homes"][self.sides[i]]
            self.home[i] = h
            self.is_home[h] = 1
        self.is_market = bytearray(n)
        for s in board["market_spaces"]:
            self.is_market[s] = 1
        setup = board["setup"]
        self.hand = setup["hand"]
        self.discards_alone = setup["discards_alone"]
        self.discards_team = setup["discards_team"]
        self.max_seats = setup["max_seats"]
        self.offer_size = setup["offer"]
        out = board["cards_out_hand"]
        self.cards_out_alone = out["alone"]
        self.cards_out_team = out["team"]
        self.reasons = list(board["end_reasons"])
        if len(self.reasons) > MAX_REASONS:
            raise ValueError("tables: at most %d end reasons (their bits are kept in bytes)"
                             % MAX_REASONS)
        self._load_agents(cards["agents"])
        self._load_market(cards["market"])

    def reason_bit(self, name):
        return 1 << self.reasons.index(name)

    def _load_agents(self, agents):
        na = len(agents)
        self.agent_names = []
        self.agent_index = {}
        self.copies = bytearray(na)
        self.moves = []  # per agent: steps for 1, 2, 3+ in play (a single card: one value)
        self.end_at = bytearray(na)  # 0: no end-step condition
        self.end_wins = bytearray(na)  # 1: the condition wins, 0: it loses
        self.end_bit = bytearray(na)  # the end reason's bit (six reasons: a byte holds it)
        self.total_agents = 0
        for i in range(na):
            a = agents[i]
            self.agent_names.append(a["name"])
            self.agent_index[a["name"]] = i
            self.copies[i] = a["copies"]
            self.total_agents += a["copies"]
            # an icon without a number moves nothing (seed: "se l'icona non contiene nessun
            # numero, non muovere la tua pedina")
            self.moves.append(tuple([0 if v is None else v for v in a["moves"]]))
            end = a.get("end")
            if end:
                self.end_at[i] = end["at"]
                self.end_wins[i] = 1 if end["result"] == "win" else 0
                self.end_bit[i] = self.reason_bit(end["reason"])
        self.nagents = na

    def _load_market(self, market):
        nm = len(market)
        self.market_names = []
        self.market_index = {}
        self.ongoing = bytearray(nm)  # 1: ongoing, 0: instant
        self.effect = bytearray(nm)
        self.effect_agent = bytearray([NONE] * nm)
        self.effect_n = bytearray(nm)  # steps, times or a count: small and never negative
        self.effect_bit = bytearray(nm)  # the end reason of a winning ongoing card
        self.needs = []
        self.modifiers = []  # ongoing cards that change recruit steps, in data order
        for i in range(nm):
            c = market[i]
            self.market_names.append(c["name"])
            self.market_index[c["name"]] = i
            self.ongoing[i] = 1 if c["kind"] == "ongoing" else 0
            eff = c["effect"]
            t = _EFFECTS[eff["type"]]
            self.effect[i] = t
            if "agent" in eff:
                self.effect_agent[i] = self.agent_index[eff["agent"]]
            n = eff.get("steps", eff.get("times", eff.get("n", 0)))
            if not 0 <= n <= 255:
                raise ValueError("tables: %s's count %d does not fit a byte" % (c["name"], n))
            self.effect_n[i] = n
            if "reason" in eff:
                self.effect_bit[i] = self.reason_bit(eff["reason"])
            self.needs.append(tuple(c.get("needs", ())))
            if t in RECRUIT_MODIFIERS:
                self.modifiers.append(i)
        self.nmarket = nm

    def agent_steps(self, agent, count):
        """Steps of a recruited agent with `count` of it in play (a 4th-6th moves as the 3rd:
        the last icon holds for every count beyond the card's icons)."""
        mv = self.moves[agent]
        i = count if count < len(mv) else len(mv)
        return mv[i - 1]


_tables = []


def load():
    if not _tables:
        _tables.append(Tables(_data.load("agent-avenue-cards.json"),
                              _data.load("agent-avenue-board.json")))
    return _tables[0]
