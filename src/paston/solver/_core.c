/*
 * The Python glue of the solver's compiled core (C99, CPython extension): the entry points,
 * each of which checks all of its arguments before it searches. The searches are in
 * _core_tricks.c and _core_maxn.c, what they share in _core.h (with the overview).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>

#include "_core.h"

/* --- Python glue: the checks at the door ----------------------------------------------------------- */
/* Every argument of every entry point is checked here, before any search, and a call the
   search could not survive raises TypeError or ValueError instead: an empty set of active
   seats would loop for ever looking for the next seat, a seat or suit out of range would
   index past an array, a hand of more than 10 cards would overflow the move lists, and
   cards in two places or hands of the wrong sizes would break the trick bookkeeping. The
   search itself trusts what gets through (no check on its hot paths). */

#define MAX_CARDS 10 /* cards per hand: the move lists of the search are sized for it */
/* The smallest tables: 128 entries for the declarer's tricks (the smallest Solver's), and
   32,768 (512 KiB) for max^n, whose searches without pruning slow down steeply when the
   table cannot hold a deal's positions (one deal took 138 s with 256 entries; at this
   floor a fresh table solves a full deal in about 10 ms on average, 0.5 s at worst). */
#define TT_MIN_ENTRIES 128
#define MAXN_MIN_ENTRIES 32768

/* How many sequences a max^n layout may hold (LEAF_MAX; lowered only by tests, through
   _layout_limit, to search every trick card by card). */
static int layout_limit = LEAF_MAX;

static void card_text(int c, char out[3]) {
    out[0] = "789TJQKA"[c & 7];
    out[1] = "SCDH"[c >> 3 & 3];
    out[2] = 0;
}

/* An int argument in [lo, hi] (a bool is refused: True is no seat, suit or card). */
static int int_arg(PyObject *o, const char *what, long long lo, long long hi, long long *out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow) {
        PyErr_Format(PyExc_ValueError, "%s must be between %lld and %lld, not a number that %s", what, lo, hi,
                     overflow > 0 ? "large" : "small");
        return -1;
    }
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be between %lld and %lld, not %lld", what, lo, hi, v);
        return -1;
    }
    *out = v;
    return 0;
}

/* A writable buffer for a table of at least min_entries entries of `size` bytes, from
   its first `align`-byte boundary: the start and the largest power-of-two number of
   entries that fit. On success the buffer is held (the caller releases it). */
static int table_arg(PyObject *o, const char *what, size_t size, uint64_t min_entries, uintptr_t align, Py_buffer *b,
                     void **start, uint64_t *entries) {
    if (!PyObject_CheckBuffer(o) || PyObject_GetBuffer(o, b, PyBUF_WRITABLE) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a writable contiguous buffer (a bytearray), not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    uintptr_t first = ((uintptr_t)b->buf + align - 1) & ~(align - 1);
    uint64_t skip = first - (uintptr_t)b->buf;
    uint64_t room = (uint64_t)b->len > skip ? (uint64_t)b->len - skip : 0;
    if (room < min_entries * size) {
        PyErr_Format(PyExc_ValueError, "%s is too small: %zd bytes, it needs at least %llu (%llu entries)", what,
                     b->len, (unsigned long long)(min_entries * size + align - 1), (unsigned long long)min_entries);
        PyBuffer_Release(b);
        return -1;
    }
    uint64_t n = min_entries;
    while (n * 2 * size <= room) n *= 2;
    *start = (void *)first;
    *entries = n;
    return 0;
}

/* The position arguments (hand0, hand1, hand2, trump, declarer, active seats mask,
   leader, trick, table): checked, then the search state and the root (the trick in
   progress walked). On success the table buffer is held (the caller releases it). */
static int setup(Search *s, PyObject *args, Py_buffer *buf, Root *root) {
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 9) {
        PyErr_SetString(PyExc_TypeError, "a position is a tuple of 9: hand0, hand1, hand2, trump, declarer, "
                                         "active seats (bit mask), leader, trick (cards), table (bytearray)");
        return -1;
    }
    static const char *const hand_names[3] = {"hand of seat 0", "hand of seat 1", "hand of seat 2"};
    long long v, trump, declarer, active, leader;
    uint32_t hand[3];
    for (int i = 0; i < 3; i++) {
        if (int_arg(PyTuple_GET_ITEM(args, i), hand_names[i], 0, 0xFFFFFFFFll, &v) < 0) return -1;
        hand[i] = (uint32_t)v;
    }
    if (int_arg(PyTuple_GET_ITEM(args, 3), "trump", 0, 3, &trump) < 0 ||
        int_arg(PyTuple_GET_ITEM(args, 4), "declarer", 0, 2, &declarer) < 0 ||
        int_arg(PyTuple_GET_ITEM(args, 5), "active seats mask", 0, 7, &active) < 0 ||
        int_arg(PyTuple_GET_ITEM(args, 6), "leader", 0, 2, &leader) < 0)
        return -1;
    int n_active = popc((uint32_t)active);
    if (n_active < 2) {
        PyErr_Format(PyExc_ValueError, "two or three seats must be active, not mask %lld", active);
        return -1;
    }
    if (!(active >> declarer & 1) || !(active >> leader & 1)) {
        PyErr_Format(PyExc_ValueError, "the %s (seat %lld) is not an active seat (mask %lld)",
                     active >> declarer & 1 ? "leader" : "declarer", active >> declarer & 1 ? leader : declarer,
                     active);
        return -1;
    }
    char name[3];
    for (int i = 0; i < 3; i++) {
        if (hand[i] && !(active >> i & 1)) {
            PyErr_Format(PyExc_ValueError, "seat %d is not active (mask %lld) but holds cards", i, active);
            return -1;
        }
        for (int j = i + 1; j < 3; j++)
            if (hand[i] & hand[j]) {
                card_text(lowest(hand[i] & hand[j]), name);
                PyErr_Format(PyExc_ValueError, "card %s is in two hands (seats %d and %d)", name, i, j);
                return -1;
            }
    }
    PyObject *trick = PyTuple_GET_ITEM(args, 7);
    if (!PyTuple_Check(trick) && !PyList_Check(trick)) {
        PyErr_Format(PyExc_TypeError, "the trick must be a tuple of cards 0-31, not %.100s", Py_TYPE(trick)->tp_name);
        return -1;
    }
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(trick);
    if (nt >= n_active) {
        PyErr_Format(PyExc_ValueError, "the trick in progress holds %zd cards: at most %d with %d active seats", nt,
                     n_active - 1, n_active);
        return -1;
    }
    int cards[2];
    uint32_t seen = hand[0] | hand[1] | hand[2];
    for (Py_ssize_t i = 0; i < nt; i++) {
        if (int_arg(PySequence_Fast_GET_ITEM(trick, i), "a card of the trick", 0, 31, &v) < 0) return -1;
        cards[i] = (int)v;
        if (seen >> v & 1) {
            card_text(cards[i], name);
            PyErr_Format(PyExc_ValueError, "card %s of the trick is also %s", name,
                         (hand[0] | hand[1] | hand[2]) >> v & 1 ? "in a hand" : "earlier in the trick");
            return -1;
        }
        seen |= 1u << v;
    }
    /* seats in the order of play from the leader; those who played to the trick hold one
       card fewer than the others */
    int next[3], order[3];
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        while (!(active >> j & 1)) j = (j + 1) % 3;
        next[i] = j;
    }
    order[0] = (int)leader;
    for (int i = 1; i < n_active; i++) order[i] = next[order[i - 1]];
    int n = popc(hand[order[n_active - 1]]);
    for (int i = 0; i < n_active; i++) {
        int expected = i < nt ? n - 1 : n, held = popc(hand[order[i]]);
        if (held != expected) {
            PyErr_Format(PyExc_ValueError, "seat %d holds %d cards but should hold %d (%zd in the trick in progress)",
                         order[i], held, expected, nt);
            return -1;
        }
    }
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "there is nothing left to play");
        return -1;
    }
    if (n > MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "a hand holds at most %d cards, not %d", MAX_CARDS, n);
        return -1;
    }
    /* R6.2 in the trick: follow suit, else trump if you can */
    for (Py_ssize_t i = 1; i < nt; i++) {
        int lead = SUIT(cards[0]), suit = SUIT(cards[i]);
        uint32_t h = hand[order[i]];
        if (suit != lead && ((h & SUIT_MASK[lead]) || (suit != trump && (h & SUIT_MASK[trump])))) {
            card_text(cards[i], name);
            PyErr_Format(PyExc_ValueError, "R6.2: seat %d played %s but had to %s", order[i], name,
                         h & SUIT_MASK[lead] ? "follow suit" : "trump");
            return -1;
        }
    }
    void *table;
    uint64_t entries;
    if (table_arg(PyTuple_GET_ITEM(args, 8), "the table", sizeof(Entry), TT_MIN_ENTRIES, sizeof(uint64_t), buf, &table,
                  &entries) < 0)
        return -1;

    memset(s, 0, sizeof(*s));
    for (int i = 0; i < 3; i++) {
        s->hand[i] = hand[i];
        s->side[i] = i == declarer;
        s->next[i] = next[i];
    }
    s->trump = (int)trump;
    s->declarer = (int)declarer;
    s->n_active = n_active;
    s->active_mask = (int)active;
    s->ctx = (uint64_t)trump | ((uint64_t)declarer << 2) | ((uint64_t)active << 4);
    s->tt = (Entry *)table;
    s->tt_mask = entries - 1;

    /* the trick in progress: the seat to move, the led suit and who wins it so far */
    int seat = (int)leader;
    root->leader = (int)leader;
    root->tmask = 0;
    root->lead_suit = -1;
    root->win_seat = (int)leader;
    root->win_card = 0;
    for (Py_ssize_t i = 0; i < nt; i++) {
        int c = cards[i];
        if (i == 0) { root->lead_suit = SUIT(c); root->win_seat = seat; root->win_card = c; }
        else if (beats(c, root->win_card, s->trump)) { root->win_seat = seat; root->win_card = c; }
        root->tmask |= 1u << c;
        seat = s->next[seat];
    }
    root->seat = seat;
    root->ntrick = (int)nt;
    root->r = n;
    return 0;
}

static PyObject *py_tricks(PyObject *self, PyObject *args) {
    Search s;
    Root t;
    Py_buffer buf;
    if (setup(&s, args, &buf, &t) < 0) return NULL;
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = tricks_exact(&s, &t);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    return Py_BuildValue("iK", v, (unsigned long long)s.nodes);
}

/* can the declarer take at least `target` future tricks? */
static PyObject *py_reaches(PyObject *self, PyObject *args) {
    Search s;
    Root t;
    Py_buffer buf;
    PyObject *inner, *target_obj;
    if (!PyArg_ParseTuple(args, "OO:reaches", &inner, &target_obj)) return NULL;
    if (!PyLong_Check(target_obj) || PyBool_Check(target_obj)) {
        PyErr_Format(PyExc_TypeError, "the target must be an int, not %.100s", Py_TYPE(target_obj)->tp_name);
        return NULL;
    }
    int overflow = 0;
    long long target = PyLong_AsLongLongAndOverflow(target_obj, &overflow);
    if (target == -1 && PyErr_Occurred()) return NULL;
    if (overflow) target = overflow > 0 ? LLONG_MAX : LLONG_MIN; /* out of reach either way */
    if (setup(&s, inner, &buf, &t) < 0) return NULL;
    int ok;
    if (target <= 0) ok = 1;
    else if (target > t.r) ok = 0;
    else {
        Py_BEGIN_ALLOW_THREADS
        ok = tricks_root_value(&s, &t, (int)target - 1, (int)target) >= target;
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&buf);
    return Py_BuildValue("OK", ok ? Py_True : Py_False, (unsigned long long)s.nodes);
}

static PyObject *py_card_values(PyObject *self, PyObject *args) {
    Search s;
    Root t;
    Py_buffer buf;
    if (setup(&s, args, &buf, &t) < 0) return NULL;
    uint32_t legal = legal_mask(&s, t.seat, t.lead_suit);
    int value[32];
    Py_BEGIN_ALLOW_THREADS
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = lowest(m);
        /* exact value after c, by null-window searches */
        int lo = 0, hi = t.r;
        while (lo < hi) {
            int g = (lo + hi + 1) / 2;
            int v = tricks_value_after(&s, &t, c, g - 1, g);
            if (v >= g) lo = g; else hi = g - 1;
        }
        value[c] = lo;
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyDict_New();
    if (!out) { PyBuffer_Release(&buf); return NULL; }
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = lowest(m);
        PyObject *k = PyLong_FromLong(c), *v = PyLong_FromLong(value[c]);
        if (!k || !v || PyDict_SetItem(out, k, v) < 0) {
            Py_XDECREF(k); Py_XDECREF(v); Py_DECREF(out); PyBuffer_Release(&buf);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    PyBuffer_Release(&buf);
    PyObject *res = Py_BuildValue("OK", out, (unsigned long long)s.nodes);
    Py_DECREF(out);
    return res;
}

/* The tricks taken so far, for max^n: three counts that make a 10-trick deal with the
   r tricks left. */
static int taken_arg(PyObject *o, int r, int taken[3]) {
    static const char *const names[3] = {"tricks taken by seat 0", "tricks taken by seat 1", "tricks taken by seat 2"};
    if (!PyTuple_Check(o) && !PyList_Check(o)) {
        PyErr_Format(PyExc_TypeError, "the tricks taken must be a tuple of three counts, not %.100s", Py_TYPE(o)->tp_name);
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(o) != 3) {
        PyErr_Format(PyExc_ValueError, "the tricks taken must be three counts, not %zd", PySequence_Fast_GET_SIZE(o));
        return -1;
    }
    long long v;
    for (int i = 0; i < 3; i++) {
        if (int_arg(PySequence_Fast_GET_ITEM(o, i), names[i], 0, 10, &v) < 0) return -1;
        taken[i] = (int)v;
    }
    if (taken[0] + taken[1] + taken[2] + r != 10) {
        PyErr_Format(PyExc_ValueError, "max^n needs a position of a 10-trick deal: %d tricks taken and %d to play",
                     taken[0] + taken[1] + taken[2], r);
        return -1;
    }
    return 0;
}

static PyObject *py_maxn(PyObject *self, PyObject *args) {
    /* (inner args, tricks taken, max^n table buffer) -> (final tricks, {card: final tricks}, nodes) */
    Search s;
    Root t;
    Py_buffer buf, mbuf;
    PyObject *inner, *taken_obj, *table_obj;
    int taken[3];
    if (!PyArg_ParseTuple(args, "OOO:maxn", &inner, &taken_obj, &table_obj)) return NULL;
    if (setup(&s, inner, &buf, &t) < 0) return NULL;
    if (s.n_active != 3) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "max^n needs three active seats");
        return NULL;
    }
    void *table;
    uint64_t n;
    if (taken_arg(taken_obj, t.r, taken) < 0 ||
        table_arg(table_obj, "the max^n table", sizeof(MEntry), MAXN_MIN_ENTRIES, 64, &mbuf, &table, &n) < 0) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    /* the largest power-of-two number of entries that fits in the buffer from its first
       64-byte boundary (one bucket of 4 per cache line) */
    Maxn mx;
    mx.s = &s;
    mx.tt = (MEntry *)table;
    mx.bucket_shift = 64;
    for (uint64_t buckets = n / 4; buckets > 1; buckets /= 2) mx.bucket_shift--;
    static unsigned searches = 0; /* changed only with the GIL held */
    mx.generation = ++searches & 0xFF;
    mx.layout_limit = layout_limit;
    uint32_t legal = legal_mask(&s, t.seat, t.lead_suit);
    uint32_t best = 0, value[32];
    int have = 0;
    Py_BEGIN_ALLOW_THREADS
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = lowest(m);
        uint32_t v = maxn_after(&mx, &t, c);
        if (!have || maxn_better(&s, t.seat, v, best)) { best = v; have = 1; }
        value[c] = v;
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyDict_New();
    if (!out) { PyBuffer_Release(&buf); PyBuffer_Release(&mbuf); return NULL; }
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = lowest(m);
        uint32_t v = value[c];
        PyObject *k = PyLong_FromLong(c);
        PyObject *tv = Py_BuildValue("(iii)", taken[0] + OWN(v, 0), taken[1] + OWN(v, 1), taken[2] + OWN(v, 2));
        int failed = !k || !tv || PyDict_SetItem(out, k, tv) < 0;
        Py_XDECREF(k);
        Py_XDECREF(tv);
        if (failed) { Py_DECREF(out); PyBuffer_Release(&buf); PyBuffer_Release(&mbuf); return NULL; }
    }
    PyBuffer_Release(&buf);
    PyBuffer_Release(&mbuf);
    PyObject *res = Py_BuildValue("(iii)OK", taken[0] + OWN(best, 0), taken[1] + OWN(best, 1),
                                  taken[2] + OWN(best, 2), out, (unsigned long long)s.nodes);
    Py_DECREF(out);
    return res;
}

static PyObject *py_layout_limit(PyObject *self, PyObject *args) {
    PyObject *o;
    long long limit;
    if (!PyArg_ParseTuple(args, "O:_layout_limit", &o) || int_arg(o, "layout limit", 0, LEAF_MAX, &limit) < 0)
        return NULL;
    int previous = layout_limit; /* the GIL is held: no search reads it meanwhile */
    layout_limit = (int)limit;
    return PyLong_FromLong(previous);
}

static PyObject *py_entry_size(PyObject *self, PyObject *noargs) {
    return Py_BuildValue("nn", (Py_ssize_t)sizeof(Entry), (Py_ssize_t)sizeof(MEntry));
}

static PyMethodDef methods[] = {
    {"tricks", py_tricks, METH_VARARGS, "Declarer's future tricks under optimal play, and nodes searched."},
    {"reaches", py_reaches, METH_VARARGS, "Whether the declarer takes at least N future tricks."},
    {"card_values", py_card_values, METH_VARARGS, "Future declarer tricks after each legal card."},
    {"maxn", py_maxn, METH_VARARGS, "max^n final tricks with the scores of R7."},
    {"_layout_limit", py_layout_limit, METH_VARARGS,
     "Set how many card sequences a max^n trick layout holds (for tests); returns the previous limit."},
    {"entry_sizes", py_entry_size, METH_NOARGS, "Bytes of one table entry (tricks, max^n)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "Compiled double-dummy search.", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    fill_tables();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    /* the smallest table buffers the entry points take (bytes, alignment slack included) */
    if (PyModule_AddIntConstant(m, "TABLE_MIN_BYTES", (long)(TT_MIN_ENTRIES * sizeof(Entry) + sizeof(uint64_t) - 1)) < 0 ||
        PyModule_AddIntConstant(m, "MAXN_TABLE_MIN_BYTES", (long)(MAXN_MIN_ENTRIES * sizeof(MEntry) + 63)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

