# The families of games, one package each (shared_rules/data/games.json names, per family, the
# module each layer loads from here): track/ for the games played on a track of holes (Agent
# DOG, DOG, DOG Royal), avenue/ for Agent Avenue. The mechanics every board shares stay in
# host_tools/sim/ and host_tools/web/.
