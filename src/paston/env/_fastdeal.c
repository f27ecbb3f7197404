/*
 * paston.env._fastdeal: one ordinary deal of Paston in C for the environments, writing
 * paston.encoding's observations and legal mask into NumPy arrays it is given (the
 * buffer protocol). The state machine is _fastdeal_deal.c; this file is the door:
 * every argument from Python is checked here (types, sizes, ranges, the phase), so a
 * bad call raises TypeError, ValueError or RuntimeError and never reaches the deal.
 *
 * Calls are a fraction of a microsecond and hold the GIL; one Core is not to be used
 * from two threads at once (the environments own theirs).
 *
 *     configure(layout)             once per process: paston.env.fastdeal.layout()
 *     Core(full, mask, *, lone_flat, surrender_bonus, all_pass_first_bidder,
 *          first_deal, target, rotate) full: float32[3 * FULL_OBSERVATION_SIZE],
 *                                   mask: int8[ACTION_COUNT], both writable, contiguous
 *     core.reset(seed)              a new episode: dealer and deck drawn from seed
 *     core.step(action)             the mover, -1 scored, -2 illegal (nothing changed),
 *                                   -3 void (R3.4: call redeal())
 *     core.redeal()                 the void deal dealt again by the same dealer
 *     core.start(dealer, first_deal, totals)   the next deal of a game (R8)
 *     core.set_totals(totals)       the game's totals shown (after its last deal)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_fastdeal.h"

static const char *const KEYS[L_COUNT] = {
    "hand", "prikup", "discard", "played", "trick", "phase", "to_move", "dealer",
    "first_bidder", "first_deal", "bid_by", "passed_at", "high_bid", "in_auction",
    "declarer", "contract", "whist_answer", "leader", "void", "tricks", "redeal",
    "rules", "totals", "scores", "target",
    "full_hands", "full_prikup", "full_discard",
    "observation_size", "full_observation_size", "action_count", "discard_offset",
    "pass", "bid", "trump", "surrender", "whist",
    "phase_auction", "phase_discard", "phase_trump", "phase_defence", "phase_play",
    "phase_over", "phase_redeal",
    "redeal_spade_sequence", "redeal_jack_seven_prikup", "redeal_no_jack_no_seven",
    "seven_of_spades", "jack_of_spades",
};

/* the size of each observation block (docs/ENCODING.md); the code writes within them */
static const long BLOCK_SIZE[L_BLOCKS] = {
    32, 32, 32, 96, 96, 7, 3, 3, 3, 1, 15, 18, 6, 3, 3, 5, 6, 3, 12, 33, 3, 4, 3, 3, 1, 64, 32, 32,
};

static Layout LAYOUT;
static int configured = 0;

/* Is the layout one the deal can write without leaving its arrays? */
static int check_layout(const Layout *L) {
    const long *v = L->v;
    long obs = v[L_OBSERVATION_SIZE], full = v[L_FULL_OBSERVATION_SIZE];
    if (obs < 1 || full < obs || full > 100000) {
        PyErr_Format(PyExc_ValueError, "layout: sizes %ld and %ld are impossible", obs, full);
        return -1;
    }
    for (int k = 0; k < L_BLOCKS; k++) {
        long lo = k >= L_FULL_HANDS ? obs : 0, hi = k >= L_FULL_HANDS ? full : obs;
        if (v[k] < lo || v[k] + BLOCK_SIZE[k] > hi) {
            PyErr_Format(PyExc_ValueError, "layout: block %s at %ld (size %ld) leaves %ld..%ld", KEYS[k],
                         v[k], BLOCK_SIZE[k], lo, hi);
            return -1;
        }
    }
    long off = v[L_DISCARD_OFFSET];
    if (off < 45 || v[L_ACTION_COUNT] != off + 496) {
        PyErr_SetString(PyExc_ValueError, "layout: the discard pairs must be the last 496 actions");
        return -1;
    }
    long ids[5] = {v[L_PASS], v[L_SURRENDER], v[L_WHIST], v[L_BID] + 4, v[L_TRUMP] + 4};
    for (int k = 0; k < 5; k++)
        if (ids[k] < 32 || ids[k] >= off || v[L_BID] < 32 || v[L_TRUMP] < 32) {
            PyErr_SetString(PyExc_ValueError, "layout: an action index lies outside 32..discard_offset");
            return -1;
        }
    for (int k = L_PHASE_AUCTION; k <= L_PHASE_REDEAL; k++)
        if (v[k] < 0 || v[k] >= 7) {
            PyErr_Format(PyExc_ValueError, "layout: %s must be 0..6", KEYS[k]);
            return -1;
        }
    for (int k = L_REDEAL_SPADE_SEQUENCE; k <= L_REDEAL_NO_JACK_NO_SEVEN; k++)
        if (v[k] < 0 || v[k] >= 3) {
            PyErr_Format(PyExc_ValueError, "layout: %s must be 0..2", KEYS[k]);
            return -1;
        }
    if (v[L_SEVEN_OF_SPADES] < 0 || v[L_SEVEN_OF_SPADES] > 7 || v[L_JACK_OF_SPADES] < 0 ||
        v[L_JACK_OF_SPADES] > 7) {
        PyErr_SetString(PyExc_ValueError, "layout: the spade cards are 0..7");
        return -1;
    }
    if (!(L->score_scale > 0) || !(L->default_target > 0)) {
        PyErr_SetString(PyExc_ValueError, "layout: score_scale and default_target must be positive");
        return -1;
    }
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *arg) {
    if (!PyDict_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "configure() takes a dict, not %.100s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    Layout L;
    memset(&L, 0, sizeof L);
    for (int k = 0; k < L_COUNT; k++) {
        PyObject *item = PyDict_GetItemString(arg, KEYS[k]);
        if (item == NULL) {
            PyErr_Format(PyExc_KeyError, "layout has no %s", KEYS[k]);
            return NULL;
        }
        if (!PyLong_Check(item) || PyBool_Check(item)) {
            PyErr_Format(PyExc_TypeError, "layout %s must be an int", KEYS[k]);
            return NULL;
        }
        L.v[k] = PyLong_AsLong(item);
        if (L.v[k] == -1 && PyErr_Occurred()) return NULL;
    }
    const char *floats[2] = {"score_scale", "default_target"};
    double *targets[2] = {&L.score_scale, &L.default_target};
    for (int k = 0; k < 2; k++) {
        PyObject *item = PyDict_GetItemString(arg, floats[k]);
        if (item == NULL) {
            PyErr_Format(PyExc_KeyError, "layout has no %s", floats[k]);
            return NULL;
        }
        *targets[k] = PyFloat_AsDouble(item);
        if (*targets[k] == -1.0 && PyErr_Occurred()) return NULL;
    }
    if (check_layout(&L) < 0) return NULL;
    if (configured) {
        if (memcmp(&L, &LAYOUT, sizeof L) != 0) {
            PyErr_SetString(PyExc_RuntimeError, "configure(): the layout is already set, differently");
            return NULL;
        }
        Py_RETURN_NONE;
    }
    LAYOUT = L;
    configured = 1;
    Py_RETURN_NONE;
}

/* --- Core ------------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    FDeal d;
    Py_buffer full, mask;
    int have_full, have_mask, started;
    int first_deal; /* the first deal of each episode is played under first-deal rules */
} Core;

static int get_buffer(PyObject *obj, Py_buffer *view, const char *name, const char *format, Py_ssize_t n) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "Core(): %s must be a writable contiguous array", name);
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (f[0] == '=' || f[0] == '<' || f[0] == '@') f++;
    if (strcmp(f, format) != 0 || view->len != n * view->itemsize) {
        PyErr_Format(PyExc_ValueError, "Core(): %s must hold %zd items of format '%s', not %zd of '%s'", name,
                     n, format, view->len / (view->itemsize ? view->itemsize : 1), view->format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static void core_dealloc(Core *self) {
    if (self->have_full) PyBuffer_Release(&self->full);
    if (self->have_mask) PyBuffer_Release(&self->mask);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *core_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"full", "mask", "lone_flat", "surrender_bonus", "all_pass_first_bidder",
                             "first_deal", "target", "rotate", NULL};
    PyObject *full, *mask;
    int lone_flat = 0, all_pass_first_bidder = 0, first_deal = 0, bonus = 2, target = 121, rotate = 0;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "Core(): configure(layout) first (paston.env.fastdeal does)");
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$pippip:Core", kwlist, &full, &mask, &lone_flat, &bonus,
                                     &all_pass_first_bidder, &first_deal, &target, &rotate))
        return NULL;
    if (bonus < 0 || bonus > 1000 || target < 1 || target > 100000) {
        PyErr_Format(PyExc_ValueError, "Core(): surrender_bonus %d or target %d out of range", bonus, target);
        return NULL;
    }
    Core *self = (Core *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    memset(&self->d, 0, sizeof self->d);
    if (get_buffer(full, &self->full, "full", "f", 3 * LAYOUT.v[L_FULL_OBSERVATION_SIZE]) < 0) goto fail;
    self->have_full = 1;
    if (get_buffer(mask, &self->mask, "mask", "b", LAYOUT.v[L_ACTION_COUNT]) < 0) goto fail;
    self->have_mask = 1;
    FDeal *d = &self->d;
    d->f = (float *)self->full.buf;
    d->m = (int8_t *)self->mask.buf;
    d->L = &LAYOUT;
    d->lone_flat = lone_flat;
    d->surrender_bonus = bonus;
    d->all_pass_first_bidder = all_pass_first_bidder;
    d->first_deal = self->first_deal = first_deal;
    d->target = target;
    d->rules_shown[0] = lone_flat ? 1.0f : 0.0f; /* the RULES block: switches off their defaults */
    d->rules_shown[1] = bonus == 0 ? 1.0f : 0.0f;
    d->rules_shown[2] = all_pass_first_bidder ? 1.0f : 0.0f;
    d->rules_shown[3] = rotate ? 1.0f : 0.0f;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* An action index from an int (or anything with __index__, not a bool); -1 with a
 * ValueError naming the value otherwise. */
static long action_of(PyObject *action) {
    long count = LAYOUT.v[L_ACTION_COUNT];
    if (!PyBool_Check(action) && PyIndex_Check(action)) {
        Py_ssize_t i = PyNumber_AsSsize_t(action, NULL);
        if (i == -1 && PyErr_Occurred()) return -1;
        if (i >= 0 && i < count) return (long)i;
    }
    PyErr_Format(PyExc_ValueError, "an action is an integer 0 to %ld, not %R", count - 1, action);
    return -1;
}

static int check_started(Core *self) {
    if (!self->started) {
        PyErr_SetString(PyExc_RuntimeError, "the core has no deal: call reset(seed) first");
        return -1;
    }
    return 0;
}

static PyObject *core_reset(Core *self, PyObject *seed) {
    if (!PyLong_Check(seed) || PyBool_Check(seed)) {
        PyErr_SetString(PyExc_TypeError, "reset() takes a seed, an int 0 to 2**64 - 1");
        return NULL;
    }
    unsigned long long s = PyLong_AsUnsignedLongLong(seed);
    if (s == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "reset() takes a seed, an int 0 to 2**64 - 1");
        return NULL;
    }
    FDeal *d = &self->d;
    fd_seed(d, (uint64_t)s);
    d->deals = d->decisions = 0;
    d->first_deal = self->first_deal;
    memset(d->totals, 0, sizeof d->totals);
    fd_new_deal(d, (int)fd_below(d, 3));
    self->started = 1;
    return PyLong_FromLong(fd_status(d));
}

static PyObject *core_redeal(Core *self, PyObject *unused) {
    if (check_started(self) < 0) return NULL;
    if (self->d.phase != P_REDEAL) {
        PyErr_SetString(PyExc_RuntimeError, "redeal(): the deal is not void");
        return NULL;
    }
    fd_new_deal(&self->d, self->d.dealer);
    return PyLong_FromLong(fd_status(&self->d));
}

/* three totals of a game (R8), within a range no game reaches */
static int parse_totals(PyObject *obj, int out[3]) {
    if (!PyArg_ParseTuple(obj, "iii", &out[0], &out[1], &out[2])) return -1;
    for (int s = 0; s < 3; s++)
        if (out[s] < -100000000 || out[s] > 100000000) {
            PyErr_SetString(PyExc_ValueError, "totals must lie within -10**8 .. 10**8");
            return -1;
        }
    return 0;
}

static PyObject *core_start(Core *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"dealer", "first_deal", "totals", NULL};
    int dealer, first_deal, totals[3];
    PyObject *t;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ipO!:start", kwlist, &dealer, &first_deal, &PyTuple_Type, &t))
        return NULL;
    if (dealer < 0 || dealer > 2) {
        PyErr_Format(PyExc_ValueError, "start(): dealer must be seat 0, 1 or 2, not %d", dealer);
        return NULL;
    }
    if (parse_totals(t, totals) < 0 || check_started(self) < 0) return NULL;
    FDeal *d = &self->d;
    if (d->phase < P_OVER) {
        PyErr_SetString(PyExc_RuntimeError, "start(): the deal in play is not over");
        return NULL;
    }
    d->first_deal = first_deal;
    memcpy(d->totals, totals, sizeof totals);
    fd_new_deal(d, dealer);
    return PyLong_FromLong(fd_status(d));
}

static PyObject *core_set_totals(Core *self, PyObject *args) {
    int totals[3];
    if (parse_totals(args, totals) < 0 || check_started(self) < 0) return NULL;
    memcpy(self->d.totals, totals, sizeof totals);
    fd_show_totals(&self->d);
    Py_RETURN_NONE;
}

static PyObject *core_step(Core *self, PyObject *action) {
    long index = action_of(action);
    if (index < 0) return NULL;
    if (check_started(self) < 0) return NULL;
    FDeal *d = &self->d;
    if (!fd_legal(d, index)) return PyLong_FromLong(-2);
    fd_apply(d, (int)index);
    return PyLong_FromLong(fd_status(d));
}

static PyObject *core_is_legal(Core *self, PyObject *action) {
    long index = action_of(action);
    if (index < 0) return NULL;
    if (!self->started) Py_RETURN_FALSE;
    return PyBool_FromLong(fd_legal(&self->d, index));
}

static PyMethodDef core_methods[] = {
    {"reset", (PyCFunction)core_reset, METH_O, "reset(seed): a new episode; the seat to move."},
    {"redeal", (PyCFunction)core_redeal, METH_NOARGS, "redeal(): deal the void deal again; the seat to move."},
    {"step", (PyCFunction)core_step, METH_O,
     "step(action): the seat to move next, -1 scored, -2 illegal (unchanged), -3 void (R3.4)."},
    {"is_legal", (PyCFunction)core_is_legal, METH_O, "is_legal(action): legal for the seat to move?"},
    {"start", (PyCFunction)(void (*)(void))core_start, METH_VARARGS | METH_KEYWORDS,
     "start(dealer, first_deal, totals): the next deal of a game, once the deal in play is over."},
    {"set_totals", (PyCFunction)core_set_totals, METH_VARARGS, "set_totals(t0, t1, t2): show the totals."},
    {NULL, NULL, 0, NULL},
};

/* --- read-only attributes ------------------------------------------------------------ */
static PyObject *int_tuple(const int *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *get_to_move(Core *self, void *c) {
    return PyLong_FromLong(self->started ? fd_status(&self->d) : -1);
}

static PyObject *get_deck(Core *self, void *c) {
    if (check_started(self) < 0) return NULL;
    return int_tuple(self->d.deck, 32);
}

static PyObject *get_actions(Core *self, void *c) {
    int v[FD_MAX_ACTIONS], n = self->d.n_actions;
    for (int i = 0; i < n; i++) v[i] = self->d.actions[i];
    return int_tuple(v, n);
}

static PyObject *get_scores(Core *self, void *c) {
    if (!self->d.has_result) Py_RETURN_NONE;
    return int_tuple(self->d.scores, 3);
}

static PyObject *get_int(Core *self, void *which) {
    const FDeal *d = &self->d;
    switch ((int)(Py_intptr_t)which) {
    case 0: return PyLong_FromLong(d->dealer);
    case 1: return PyLong_FromLong(d->phase);
    case 2: return PyLong_FromLong(d->redeal);
    case 3: return PyLong_FromLong(d->decisions);
    case 4: return PyLong_FromLong(d->deals);
    case 5: return PyLong_FromLong(d->n_actions);
    case 6: return PyLong_FromLong(d->declarer);
    case 7: return PyLong_FromLong(d->first_bidder);
    default: return PyBool_FromLong(d->first_deal);
    }
}

static PyGetSetDef core_getset[] = {
    {"to_move", (getter)get_to_move, NULL, "the seat to move; -1 scored, -3 void, -1 before reset", NULL},
    {"deck", (getter)get_deck, NULL, "the deal's deck (card indices in dealing order)", NULL},
    {"actions", (getter)get_actions, NULL, "the action indices of the deal so far", NULL},
    {"scores", (getter)get_scores, NULL, "the R7 scores once scored, else None", NULL},
    {"dealer", (getter)get_int, NULL, "the dealer", (void *)0},
    {"phase", (getter)get_int, NULL, "the phase (paston.phases.Phase's value)", (void *)1},
    {"redeal_reason", (getter)get_int, NULL, "why the deal is void (paston.result.Redeal's order), else -1", (void *)2},
    {"decisions", (getter)get_int, NULL, "actions applied since reset", (void *)3},
    {"deals", (getter)get_int, NULL, "deals begun since reset", (void *)4},
    {"action_count", (getter)get_int, NULL, "actions of the deal so far", (void *)5},
    {"declarer", (getter)get_int, NULL, "the declarer, else -1", (void *)6},
    {"first_bidder", (getter)get_int, NULL, "the first bidder", (void *)7},
    {"first_deal", (getter)get_int, NULL, "whether the deal is played under first-deal rules", (void *)8},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "paston.env._fastdeal.Core",
    .tp_basicsize = sizeof(Core),
    .tp_dealloc = (destructor)core_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One ordinary deal writing paston.encoding's arrays (see the module).",
    .tp_methods = core_methods,
    .tp_getset = core_getset,
    .tp_new = core_new,
};

static PyMethodDef methods[] = {
    {"configure", configure, METH_O, "configure(layout): the encodings' offsets (once per process)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastdeal", "One deal of Paston in C for the environments.", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fastdeal(void) {
    fd_init_tables();
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
