/* graphlab.ops._fused: one-pass update kernels for the optimizers (Adam so far).
 *
 * Why C here, in a numpy engine: TensorFlow's ApplyAdam reads var, m, v and grad once and writes them once.
 * The same arithmetic in numpy is a dozen whole-array passes, each streaming the arrays through memory
 * again: on the 784x256 layer of a small MLP the update took longer than one of the layer's matrix
 * products (0.45 ms against 0.35 ms). One loop over the elements does the work of all those passes.
 *
 * The arithmetic is TensorFlow's, in TensorFlow's order (training_ops.cc, ApplyAdamNonCuda), one rounding
 * per operation: the build turns off floating-point contraction, so no fused multiply-add changes a result,
 * and refuses to compile where float arithmetic would not round per operation (see the #error below).
 * The one difference from TF: TF's kernels flush denormal results to zero, these keep them, as numpy does.
 * graphlab/ops/training_ops.py falls back to numpy, with the same order of operations, when this module was
 * not built (no C compiler at install time) or when apply_adam says the arrays do not suit its loop.
 *
 * Arrays come in through the buffer protocol, so this file needs Python's headers but not numpy's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

#if defined(__FAST_MATH__) || !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "graphlab's kernels need float arithmetic rounded per operation (no -ffast-math, no x87 excess precision)"
#endif

/* An AVX2 copy of each loop next to the plain one, picked by the CPU at load time (GCC and clang; needs
 * glibc's ifunc support). */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef VECTOR_CLONES
#define VECTOR_CLONES
#endif

/* One loop for both forms: `nesterov` does not change inside it, and the compiler hoists the test out. */
#define DEFINE_ADAM(NAME, T, SQRT)                                                                            \
    VECTOR_CLONES static void NAME(const T *restrict var, T *restrict out, T *restrict m, T *restrict v,      \
                                   const T *restrict grad, Py_ssize_t n, T alpha, T beta1, T beta2, T epsilon, \
                                   int nesterov) {                                                            \
        const T one_minus_beta1 = (T)1 - beta1, one_minus_beta2 = (T)1 - beta2;                               \
        for (Py_ssize_t i = 0; i < n; i++) {                                                                  \
            const T g = grad[i];                                                                              \
            const T m_new = m[i] + (g - m[i]) * one_minus_beta1;                                              \
            const T v_new = v[i] + (g * g - v[i]) * one_minus_beta2;                                          \
            const T step = nesterov ? g * one_minus_beta1 + beta1 * m_new : m_new;                           \
            m[i] = m_new;                                                                                     \
            v[i] = v_new;                                                                                     \
            out[i] = var[i] - (step * alpha) / (SQRT(v_new) + epsilon);                                       \
        }                                                                                                     \
    }

DEFINE_ADAM(adam_float32, float, sqrtf)
DEFINE_ADAM(adam_float64, double, sqrt)

/* The element type of a buffer ('f' float32, 'd' float64), or 0 for anything else. */
static char element_type(const Py_buffer *b) {
    const char *f = b->format ? b->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    if ((f[0] == 'f' && b->itemsize == 4) || (f[0] == 'd' && b->itemsize == 8)) return f[0];
    return 0;
}

static int overlap(const Py_buffer *a, const Py_buffer *b) {
    const uintptr_t a0 = (uintptr_t)a->buf, b0 = (uintptr_t)b->buf;
    return a->len > 0 && b->len > 0 && a0 < b0 + (uintptr_t)b->len && b0 < a0 + (uintptr_t)a->len;
}

/* Whether the loop can take these buffers: one element type, one length, aligned, and what it writes
 * (out, m, v: its restrict pointers) sharing memory with nothing else. */
static int loop_ready(const Py_buffer b[5]) {
    const char type = element_type(&b[0]);
    for (int i = 0; i < 5; i++) {
        if (type == 0 || element_type(&b[i]) != type || b[i].len != b[0].len ||
            (uintptr_t)b[i].buf % (uintptr_t)b[i].itemsize != 0)
            return 0;
    }
    for (int w = 1; w <= 3; w++)
        for (int i = 0; i < 5; i++) {
            /* out may be var itself, exactly (the update in place, as TF's ApplyAdam): each element of var
               is read before the same element of out is written */
            if (w == 1 && i == 0 && b[1].buf == b[0].buf) continue;
            if (i != w && overlap(&b[w], &b[i])) return 0;
        }
    return 1;
}

PyDoc_STRVAR(apply_adam_doc,
"apply_adam(var, out, m, v, grad, alpha, beta1, beta2, epsilon, nesterov) -> bool\n\n"
"TensorFlow's Adam step in one pass: m and v are updated in place, the new variable value is written to\n"
"``out`` (``var`` is only read); ``alpha`` is lr * sqrt(1 - beta2_power) / (1 - beta1_power). Returns\n"
"False, having touched nothing, unless all five are aligned C-contiguous buffers of one type (float32 or\n"
"float64) and length, out, m and v writable and sharing memory with nothing else (out may be var itself:\n"
"the step in place): the caller then does the step another way.");

static PyObject *apply_adam(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *arrays[5];
    double alpha, beta1, beta2, epsilon;
    int nesterov;
    if (!PyArg_ParseTuple(args, "OOOOOddddp", &arrays[0], &arrays[1], &arrays[2], &arrays[3], &arrays[4], &alpha,
                          &beta1, &beta2, &epsilon, &nesterov))
        return NULL;
    /* var and grad are read; out, m and v are written. */
    static const int writable[5] = {0, 1, 1, 1, 0};
    Py_buffer b[5];
    int held = 0;
    for (; held < 5; held++) {
        int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable[held] ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(arrays[held], &b[held], flags) < 0) {
            /* Not a contiguous (writable) buffer: not for this loop. Anything else is a real error. */
            if (!PyErr_ExceptionMatches(PyExc_BufferError) && !PyErr_ExceptionMatches(PyExc_ValueError) &&
                !PyErr_ExceptionMatches(PyExc_TypeError))
                goto release;
            PyErr_Clear();
            break;
        }
    }
    const int done = held == 5 && loop_ready(b);
    if (done) {
        const Py_ssize_t n = b[0].len / b[0].itemsize;
        Py_BEGIN_ALLOW_THREADS
        if (element_type(&b[0]) == 'f')
            adam_float32(b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, n, (float)alpha, (float)beta1,
                         (float)beta2, (float)epsilon, nesterov);
        else
            adam_float64(b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, n, alpha, beta1, beta2, epsilon,
                         nesterov);
        Py_END_ALLOW_THREADS
    }
    while (held-- > 0) PyBuffer_Release(&b[held]);
    return PyBool_FromLong(done);
release:
    while (held-- > 0) PyBuffer_Release(&b[held]);
    return NULL;
}

static PyMethodDef methods[] = {
    {"apply_adam", apply_adam, METH_VARARGS, apply_adam_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "graphlab.ops._fused",
    "One-pass update kernels for the optimizers (see graphlab/ops/_fused.c for why they are in C).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fused(void) { return PyModule_Create(&module); }
