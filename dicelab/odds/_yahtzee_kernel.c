/* The Yahtzee solver's turn chain (dicelab/odds/yahtzee.py, Block.chain) compiled: the same
 * sums and maxima in the same order, over only the distinct sub-keeps, a strip of states at a
 * time so that a strip's 462 rows stay in the core's cache. No numpy headers: arrays come in
 * through the buffer protocol. Optional: without a compiler the package uses numpy instead. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define STRIP 32 /* states per strip: 462 rows x 32 x 8 bytes = 118 KB */

static void estep(double *be, Py_ssize_t n, Py_ssize_t s0, Py_ssize_t s1, const int *rows,
                  const int *kids, Py_ssize_t nrows)
{
    const double sixth = 1.0 / 6.0;
    for (Py_ssize_t i = 0; i < nrows; i++) {
        double *restrict d = be + (Py_ssize_t)rows[i] * n;
        const int *k = kids + 6 * i;
        const double *restrict a = be + (Py_ssize_t)k[0] * n, *restrict b = be + (Py_ssize_t)k[1] * n,
                     *restrict c = be + (Py_ssize_t)k[2] * n, *restrict e = be + (Py_ssize_t)k[3] * n,
                     *restrict f = be + (Py_ssize_t)k[4] * n, *restrict g = be + (Py_ssize_t)k[5] * n;
        for (Py_ssize_t s = s0; s < s1; s++)  /* faces 1..6 added in order, as numpy does */
            d[s] = (((((a[s] + b[s]) + c[s]) + e[s]) + f[s]) + g[s]) * sixth;
    }
}

static void mstep(double *be, Py_ssize_t n, Py_ssize_t s0, Py_ssize_t s1, const int *rows,
                  const int *ptr, const int *subs, Py_ssize_t nrows)
{
    for (Py_ssize_t i = 0; i < nrows; i++) {
        double *restrict d = be + (Py_ssize_t)rows[i] * n;
        for (int j = ptr[i]; j < ptr[i + 1]; j++) {
            const double *restrict x = be + (Py_ssize_t)subs[j] * n;
            for (Py_ssize_t s = s0; s < s1; s++)
                d[s] = x[s] > d[s] ? x[s] : d[s];
        }
    }
}

/* chain(be, rerolls, e_rows, e_kids, m_rows, m_ptr, m_subs): be (462, n) float64 in place. */
static PyObject *chain(PyObject *self, PyObject *args)
{
    Py_buffer be, er, ek, mr, mp, ms;
    int rerolls;
    if (!PyArg_ParseTuple(args, "w*iy*y*y*y*y*", &be, &rerolls, &er, &ek, &mr, &mp, &ms))
        return NULL;
    PyObject *out = NULL;
    Py_ssize_t ne = er.len / (Py_ssize_t)sizeof(int), nm = mr.len / (Py_ssize_t)sizeof(int);
    Py_ssize_t n = be.len / (Py_ssize_t)sizeof(double) / 462;
    if (be.len != n * 462 * (Py_ssize_t)sizeof(double) || ek.len != 6 * er.len
        || mp.len != (nm + 1) * (Py_ssize_t)sizeof(int)) {
        PyErr_SetString(PyExc_ValueError, "chain: arrays of the wrong sizes");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s0 = 0; s0 < n; s0 += STRIP) {
        Py_ssize_t s1 = s0 + STRIP < n ? s0 + STRIP : n;
        for (int t = 0; t < rerolls; t++) {
            estep((double *)be.buf, n, s0, s1, er.buf, ek.buf, ne);
            mstep((double *)be.buf, n, s0, s1, mr.buf, mp.buf, ms.buf, nm);
        }
    }
    Py_END_ALLOW_THREADS
    out = Py_None;
    Py_INCREF(out);
done:
    PyBuffer_Release(&be); PyBuffer_Release(&er); PyBuffer_Release(&ek);
    PyBuffer_Release(&mr); PyBuffer_Release(&mp); PyBuffer_Release(&ms);
    return out;
}

/* final(out, pts, count, lower, y50, G, zero, i, shut): (252, n) values of states i..i+n's final
 * rolls, each in its best box (yahtzee.py, _Solver.final_roll: the same additions and maxima).
 * pts (13, 252) points in every box; count (252, 6) dice of each face; lower (7, N) the next
 * state's value after each lower box, y50 (N) after a Yahtzee scored 50, G (6, 6, N) after
 * upper box g with c dice of its face (points and bonus in), zero (N) the best zero; boxes
 * filled in every state (shut) are skipped. Lower boxes count only where they score. */
static PyObject *final(PyObject *self, PyObject *args)
{
    Py_buffer ob, pb, cb, lb, yb, gb, zb;
    Py_ssize_t i0;
    long shut;
    if (!PyArg_ParseTuple(args, "w*y*y*y*y*y*y*nl", &ob, &pb, &cb, &lb, &yb, &gb, &zb, &i0,
                          &shut))
        return NULL;
    PyObject *res = NULL;
    Py_ssize_t N = zb.len / (Py_ssize_t)sizeof(double);
    Py_ssize_t n = ob.len / (Py_ssize_t)sizeof(double) / 252;
    if (ob.len != n * 252 * (Py_ssize_t)sizeof(double) || pb.len != 13 * 252 * 8
        || cb.len != 252 * 6 * (Py_ssize_t)sizeof(int) || lb.len != 7 * N * 8
        || yb.len != N * 8 || gb.len != 36 * N * 8 || i0 < 0 || i0 + n > N) {
        PyErr_SetString(PyExc_ValueError, "final: arrays of the wrong sizes");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    const double *pts = pb.buf, *lower = lb.buf, *y50 = yb.buf, *G = gb.buf, *zero = zb.buf;
    const int *count = cb.buf;
    for (int o = 0; o < 252; o++) {
        double *restrict d = (double *)ob.buf + (Py_ssize_t)o * n;
        const double *restrict z = zero + i0;
        for (Py_ssize_t s = 0; s < n; s++)
            d[s] = z[s];
        for (int b = 6; b < 13; b++) {
            double p = pts[b * 252 + o];
            if (shut >> b & 1 || p <= 0)
                continue;
            const double *restrict c = (b == 11 ? y50 : lower + (Py_ssize_t)(b - 6) * N) + i0;
            for (Py_ssize_t s = 0; s < n; s++) {
                double v = p + c[s];
                d[s] = v > d[s] ? v : d[s];
            }
        }
        for (int g = 0; g < 6; g++) {
            if (shut >> g & 1)
                continue;
            const double *restrict x = G + ((Py_ssize_t)g * 6 + count[o * 6 + g]) * N + i0;
            for (Py_ssize_t s = 0; s < n; s++)
                d[s] = x[s] > d[s] ? x[s] : d[s];
        }
    }
    Py_END_ALLOW_THREADS
    res = Py_None;
    Py_INCREF(res);
done:
    PyBuffer_Release(&ob); PyBuffer_Release(&pb); PyBuffer_Release(&cb); PyBuffer_Release(&lb);
    PyBuffer_Release(&yb); PyBuffer_Release(&gb); PyBuffer_Release(&zb);
    return res;
}

static PyMethodDef methods[] = {
    {"chain", chain, METH_VARARGS, "The turn chain of a block of states, in place."},
    {"final", final, METH_VARARGS, "The final rolls' values of a block of states."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_yahtzee_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__yahtzee_kernel(void) { return PyModule_Create(&module); }
