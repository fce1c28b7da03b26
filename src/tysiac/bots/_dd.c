/* The double-dummy solver: the rest of a hand's play with every card face up.
 *
 * Given where every remaining card is, it finds how many more points the declarer
 * can be sure to score (card points of the tricks it takes, plus the marriages it
 * still melds) against defenders who play together to keep that number down. It is
 * a plain alpha-beta search over card masks with a transposition table at trick
 * boundaries; tysiac/bots/solver.py is its Python face and says how a position is
 * passed in. It keeps the interpreter lock while it searches (its table is shared
 * state): the server runs it in worker processes. The play rules here (R19-R21, V3, V4, V12) are a second statement of
 * tysiac/rules/tricks.py, kept honest by tests/bots/test_solver.py, which compares
 * the two on thousands of random positions.
 *
 * A position is a tuple of ints (STATE_LEN of them, in the order of State below),
 * with players indexed by their place in the playing order (0..n-1), not by seat.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

enum { MELD_FIRST = 1, FOUR_ACES = 2, NEEDS_TRICK = 4 }; /* flags: V3, V12, V4 */
enum { STATE_LEN = 24, TT_BITS = 19, INF = 10000 };

static const int RANK_POINTS[6] = {0, 2, 3, 4, 10, 11};
static const int MARRIAGE[4] = {40, 60, 80, 100};
#define ACES_VALUE 200
#define ACES ((1u << 5) | (1u << 11) | (1u << 17) | (1u << 23))

static int POINTS[24];
static uint32_t SUIT[4];
static uint32_t ABOVE[24]; /* the cards of a card's suit that beat it */

typedef struct {
    int n;              /* players in the hand: 2 or 3 */
    uint32_t held[3];   /* cards held, per place */
    int leader;         /* the place that led (or leads) the current trick */
    int ntrick;         /* cards played in the current trick */
    int trick[3];       /* those cards, in the order played */
    int trump;          /* -1: no trump yet */
    int first;          /* 1 while the first trick is played (V3) */
    int decl;           /* the declarer's place */
    int flags;          /* MELD_FIRST | FOUR_ACES | NEEDS_TRICK */
    int dflag;          /* the declarer's marriages count already (V4: it took a trick) */
    int dpend;          /* V4: the declarer's marriage points waiting for its first trick */
    int won[3];         /* bookkeeping for step(): card points taken, per place */
    int melds[3];       /* marriage points declared, per place */
    int tricks[3];      /* tricks taken, per place */
} State;

typedef struct {
    uint32_t held[3];
    uint32_t misc;
    int16_t lower, upper;
    uint32_t used;
} Entry;

static Entry *table;
static unsigned long long nodes;

/* --- the rules ------------------------------------------------------------------ */

static uint32_t legal_cards(uint32_t hand, int led, int winning, int trump) {
    if (led < 0) return hand;
    uint32_t follow = hand & SUIT[led];
    if (follow) {
        if (winning / 6 == led) {
            uint32_t above = follow & ABOVE[winning];
            return above ? above : follow;
        }
        return follow;
    }
    if (trump >= 0) {
        uint32_t trumps = hand & SUIT[trump];
        if (trumps) {
            if (winning / 6 == trump) {
                uint32_t above = trumps & ABOVE[winning];
                return above ? above : trumps;
            }
            return trumps;
        }
    }
    return hand;
}

static int beats(int card, int winning, int trump) {
    if (card / 6 == winning / 6) return card > winning;
    return card / 6 == trump;
}

/* R21, V3, V12: what leading card from held melds: a suit 0-3, 4 for the aces, or -1. */
static int meld_on_lead(int flags, uint32_t held, int card, int first) {
    if (first && !(flags & MELD_FIRST)) return -1;
    int rank = card % 6, suit = card / 6;
    uint32_t pair = 3u << (6 * suit + 2);
    if ((rank == 2 || rank == 3) && (held & pair) == pair) return suit;
    if ((flags & FOUR_ACES) && rank == 5 && (held & ACES) == ACES) return 4;
    return -1;
}

static int meld_value(int kind) { return kind < 4 ? MARRIAGE[kind] : ACES_VALUE; }

static int points_of(uint32_t mask) {
    int total = 0;
    while (mask) {
        total += POINTS[__builtin_ctz(mask)];
        mask &= mask - 1;
    }
    return total;
}

/* The place winning the current trick and its card (the trick is not empty). */
static void winning_play(const State *s, int *place, int *card) {
    *place = s->leader;
    *card = s->trick[0];
    for (int i = 1; i < s->ntrick; i++) {
        if (beats(s->trick[i], *card, s->trump)) {
            *place = (s->leader + i) % s->n;
            *card = s->trick[i];
        }
    }
}

static uint32_t legal_now(const State *s) {
    int place = (s->leader + s->ntrick) % s->n;
    if (s->ntrick == 0) return s->held[place];
    int winner, winning;
    winning_play(s, &winner, &winning);
    return legal_cards(s->held[place], s->trick[0] / 6, winning, s->trump);
}

/* Plays card for the place to move; returns what it brings the declarer at once (a
 * marriage that counts, a trick won with its points and any marriage waiting for it). */
static int play(State *s, int card) {
    int place = (s->leader + s->ntrick) % s->n;
    int gain = 0;
    if (s->ntrick == 0) {
        int kind = meld_on_lead(s->flags, s->held[place], card, s->first);
        if (kind >= 0) {
            int value = meld_value(kind);
            s->melds[place] += value;
            if (kind < 4) s->trump = kind;
            if (place == s->decl) {
                if (s->dflag) gain += value;
                else s->dpend += value;
            }
        }
    }
    s->held[place] &= ~(1u << card);
    s->trick[s->ntrick++] = card;
    if (s->ntrick < s->n) return gain;
    int winner, winning, pot = 0;
    winning_play(s, &winner, &winning);
    for (int i = 0; i < s->n; i++) pot += POINTS[s->trick[i]];
    s->won[winner] += pot;
    s->tricks[winner] += 1;
    if (winner == s->decl) {
        gain += pot;
        if (!s->dflag) {
            gain += s->dpend;
            s->dpend = 0;
            s->dflag = 1;
        }
    }
    s->leader = winner;
    s->ntrick = 0;
    s->first = 0;
    return gain;
}

/* --- the search ----------------------------------------------------------------- */

/* The most the declarer could still gain: every card point left, its waiting and its
 * possible marriages. */
static int ceiling(const State *s) {
    int total = s->dpend;
    for (int p = 0; p < s->n; p++) total += points_of(s->held[p]);
    for (int i = 0; i < s->ntrick; i++) total += POINTS[s->trick[i]];
    uint32_t mine = s->held[s->decl];
    for (int suit = 0; suit < 4; suit++) {
        uint32_t pair = 3u << (6 * suit + 2);
        if ((mine & pair) == pair) total += MARRIAGE[suit];
    }
    if ((s->flags & FOUR_ACES) && (mine & ACES) == ACES) total += ACES_VALUE;
    return total;
}

static uint32_t misc_key(const State *s) {
    return (uint32_t)s->leader | (uint32_t)(s->trump + 1) << 2 | (uint32_t)s->first << 5 |
           (uint32_t)s->dflag << 6 | (uint32_t)s->decl << 7 | (uint32_t)s->n << 9 |
           (uint32_t)s->flags << 11 | (uint32_t)s->dpend << 14 | 1u << 31;
}

static Entry *slot(const State *s, uint32_t misc) {
    uint64_t h = (uint64_t)s->held[0] * 0x9E3779B97F4A7C15ull;
    h ^= ((uint64_t)s->held[1] << 24 | s->held[2]) * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)misc * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    return &table[h & ((1u << TT_BITS) - 1)];
}

/* The order moves are tried in: the likely best first, for cut-offs. */
static int order(const State *s, uint32_t moves, int *out) {
    int keys[10], count = 0;
    int place = (s->leader + s->ntrick) % s->n;
    int mine = place == s->decl;
    int winner = -1, winning = -1;
    if (s->ntrick) winning_play(s, &winner, &winning);
    int ours = s->ntrick && ((winner == s->decl) == mine);
    while (moves) {
        int card = __builtin_ctz(moves);
        moves &= moves - 1;
        int key;
        if (s->ntrick == 0) {
            int kind = meld_on_lead(s->flags, s->held[place], card, s->first);
            key = (kind >= 0 ? 1000 + meld_value(kind) : 0) + 10 * (card % 6) + POINTS[card];
        } else if (ours) {
            key = POINTS[card]; /* the trick is ours: add points to it */
        } else if (beats(card, winning, s->trump)) {
            key = 500 + POINTS[card] - (card / 6 == s->trump ? 20 : 0);
        } else {
            key = -POINTS[card];
        }
        int i = count++;
        while (i > 0 && keys[i - 1] < key) {
            keys[i] = keys[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        keys[i] = key;
        out[i] = card;
    }
    return count;
}

/* The declarer's future gain from s: exact when strictly inside (alpha, beta), else a
 * bound on the side it falls (fail-soft). */
static int search(const State *s, int alpha, int beta) {
    nodes++;
    int place = (s->leader + s->ntrick) % s->n;
    Entry *entry = NULL;
    uint32_t misc = 0;
    if (s->ntrick == 0) {
        if (!s->held[place]) return 0;
        int top = ceiling(s);
        if (top <= alpha) return top;
        if (beta <= 0) return 0;
        if (__builtin_popcount(s->held[place]) == 1) { /* the last trick plays itself */
            State last = *s;
            int gain = 0;
            for (int i = 0; i < s->n; i++) gain += play(&last, __builtin_ctz(last.held[(last.leader + last.ntrick) % last.n]));
            return gain;
        }
        misc = misc_key(s);
        entry = slot(s, misc);
        if (entry->used && entry->misc == misc && entry->held[0] == s->held[0] &&
            entry->held[1] == s->held[1] && entry->held[2] == s->held[2]) {
            if (entry->lower >= beta) return entry->lower;
            if (entry->upper <= alpha) return entry->upper;
            if (entry->lower > alpha) alpha = entry->lower;
            if (entry->upper < beta) beta = entry->upper;
            if (alpha >= beta) return alpha;
        } else {
            entry->used = 1;
            entry->misc = misc;
            memcpy(entry->held, s->held, sizeof entry->held);
            entry->lower = 0;
            entry->upper = (int16_t)top;
        }
    }
    int cards[10];
    int count = order(s, legal_now(s), cards);
    int maximizing = place == s->decl;
    int best = maximizing ? -INF : INF;
    int a = alpha, b = beta;
    for (int i = 0; i < count; i++) {
        State next = *s;
        int gain = play(&next, cards[i]);
        int value = gain + search(&next, a - gain, b - gain);
        if (maximizing) {
            if (value > best) best = value;
            if (best > a) a = best;
        } else {
            if (value < best) best = value;
            if (best < b) b = best;
        }
        if (a >= b) break;
    }
    if (entry) {
        /* The entry may have been replaced by a deeper position sharing its slot. */
        if (!(entry->misc == misc && entry->held[0] == s->held[0] &&
              entry->held[1] == s->held[1] && entry->held[2] == s->held[2])) {
            entry->used = 1;
            entry->misc = misc;
            memcpy(entry->held, s->held, sizeof entry->held);
            entry->lower = 0;
            entry->upper = (int16_t)ceiling(s);
        }
        if (best <= alpha) {
            if (best < entry->upper) entry->upper = (int16_t)best;
        } else if (best >= beta) {
            if (best > entry->lower) entry->lower = (int16_t)best;
        } else {
            entry->lower = entry->upper = (int16_t)best;
        }
    }
    return best;
}

/* --- Python --------------------------------------------------------------------- */

static int read_state(PyObject *tuple, State *s) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != STATE_LEN) {
        PyErr_SetString(PyExc_ValueError, "a position is a tuple of 24 ints");
        return -1;
    }
    long v[STATE_LEN];
    for (int i = 0; i < STATE_LEN; i++) {
        v[i] = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (v[i] == -1 && PyErr_Occurred()) return -1;
    }
    memset(s, 0, sizeof *s);
    s->n = (int)v[0];
    if (s->n < 2 || s->n > 3) {
        PyErr_SetString(PyExc_ValueError, "a hand is played by 2 or 3 players");
        return -1;
    }
    for (int p = 0; p < 3; p++) s->held[p] = (uint32_t)v[1 + p] & 0xFFFFFF;
    s->leader = (int)v[4];
    s->ntrick = (int)v[5];
    for (int i = 0; i < 3; i++) s->trick[i] = (int)v[6 + i];
    s->trump = (int)v[9];
    s->first = v[10] != 0;
    s->decl = (int)v[11];
    s->flags = (int)v[12] & 7;
    s->dflag = v[13] != 0;
    s->dpend = (int)v[14];
    for (int p = 0; p < 3; p++) {
        s->won[p] = (int)v[15 + p];
        s->melds[p] = (int)v[18 + p];
        s->tricks[p] = (int)v[21 + p];
    }
    int ok = s->leader >= 0 && s->leader < s->n && s->ntrick >= 0 && s->ntrick < s->n &&
             s->decl >= 0 && s->decl < s->n && s->trump >= -1 && s->trump < 4 &&
             s->dpend >= 0 && s->dpend <= 1000;
    for (int i = 0; i < s->ntrick && ok; i++) ok = s->trick[i] >= 0 && s->trick[i] < 24;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a position of the play");
        return -1;
    }
    return 0;
}

static PyObject *write_state(const State *s) {
    long v[STATE_LEN] = {s->n, s->held[0], s->held[1], s->held[2], s->leader, s->ntrick,
                         s->trick[0], s->trick[1], s->trick[2], s->trump, s->first, s->decl,
                         s->flags, s->dflag, s->dpend, s->won[0], s->won[1], s->won[2],
                         s->melds[0], s->melds[1], s->melds[2], s->tricks[0], s->tricks[1],
                         s->tricks[2]};
    PyObject *tuple = PyTuple_New(STATE_LEN);
    if (!tuple) return NULL;
    for (int i = 0; i < STATE_LEN; i++) {
        PyObject *item = PyLong_FromLong(v[i]);
        if (!item) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

static PyObject *py_legal(PyObject *self, PyObject *arg) {
    State s;
    if (read_state(arg, &s)) return NULL;
    return PyLong_FromUnsignedLong(legal_now(&s));
}

static int check_card(const State *s, long card) {
    if (card < 0 || card >= 24 || !(legal_now(s) >> card & 1)) {
        PyErr_SetString(PyExc_ValueError, "not a legal card");
        return -1;
    }
    return 0;
}

static PyObject *py_step(PyObject *self, PyObject *args) {
    PyObject *tuple;
    long card;
    State s;
    if (!PyArg_ParseTuple(args, "Ol", &tuple, &card) || read_state(tuple, &s)) return NULL;
    if (check_card(&s, card)) return NULL;
    int gain = play(&s, (int)card);
    PyObject *next = write_state(&s);
    return next ? Py_BuildValue("(Ni)", next, gain) : NULL;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *tuple;
    int alpha = -1, beta = INF;
    State s;
    if (!PyArg_ParseTuple(args, "O|ii", &tuple, &alpha, &beta) || read_state(tuple, &s))
        return NULL;
    return PyLong_FromLong(search(&s, alpha, beta));
}

/* values(position) -> [(card, gain)]: the declarer's exact future gain after each legal
 * card of the place to move (what the card brings at once included). */
static PyObject *py_values(PyObject *self, PyObject *arg) {
    State s;
    if (read_state(arg, &s)) return NULL;
    int cards[10], gains[10];
    int count = order(&s, legal_now(&s), cards);
    for (int i = 0; i < count; i++) {
        State next = s;
        int gain = play(&next, cards[i]);
        gains[i] = gain + search(&next, -1, INF);
    }
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *pair = Py_BuildValue("(ii)", cards[i], gains[i]);
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

static PyObject *py_nodes(PyObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(nodes);
}

static PyMethodDef methods[] = {
    {"legal", py_legal, METH_O, "legal(position) -> mask of the cards the place to move may play"},
    {"step", py_step, METH_VARARGS, "step(position, card) -> (position, gain)"},
    {"solve", py_solve, METH_VARARGS, "solve(position, alpha=-1, beta=10000) -> future gain"},
    {"values", py_values, METH_O, "values(position) -> [(card, gain)] for each legal card"},
    {"nodes", py_nodes, METH_NOARGS, "nodes() -> positions searched since import"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dd", NULL, -1, methods};

PyMODINIT_FUNC PyInit__dd(void) {
    for (int c = 0; c < 24; c++) POINTS[c] = RANK_POINTS[c % 6];
    for (int s = 0; s < 4; s++) SUIT[s] = 0x3Fu << (6 * s);
    for (int c = 0; c < 24; c++) ABOVE[c] = SUIT[c / 6] & ~((2u << c) - 1);
    table = PyMem_RawCalloc((size_t)1 << TT_BITS, sizeof(Entry));
    if (!table) return PyErr_NoMemory();
    return PyModule_Create(&module);
}
