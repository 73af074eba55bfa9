/**
 * Python text shared by the Botzone bots the tests write: Reversi's rules from Botzone's history and the first legal
 * move (`choose(requests, responses, invalid_at)`: on that turn an occupied square instead, an invalid action).
 */
export const REVERSI_PY = `DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
def flips(b, x, y, c):
    if b[x][y]:
        return []
    out = []
    for dx, dy in DIRS:
        cx, cy, line = x + dx, y + dy, []
        while 0 <= cx < 8 and 0 <= cy < 8 and b[cx][cy] == -c:
            line.append((cx, cy)); cx += dx; cy += dy
        if line and 0 <= cx < 8 and 0 <= cy < 8 and b[cx][cy] == c:
            out += line
    return out
def play(b, x, y, c):
    if x >= 0:
        for cx, cy in flips(b, x, y, c):
            b[cx][cy] = c
        b[x][y] = c
def choose(requests, responses, invalid_at=None):
    b = [[0] * 8 for _ in range(8)]
    b[3][4] = b[4][3] = 1
    b[3][3] = b[4][4] = -1
    me = 1 if requests[0][0] < 0 else -1
    for i in range(len(responses)):
        play(b, requests[i][0], requests[i][1], -me)
        play(b, responses[i][0], responses[i][1], me)
    play(b, requests[-1][0], requests[-1][1], -me)
    moves = [(x, y) for x in range(8) for y in range(8) if flips(b, x, y, me)]
    turn = len(responses) + 1
    if turn == invalid_at:
        return turn, (3, 3)
    return turn, moves[0] if moves else (-1, -1)
`;
