/* Judging-cost models of Kutlu et al. (2017; spec 001-004 §1.10): judging
 * speed as judgments accumulate on a topic (Eq. 9), the equal split of a
 * budget after topic development, and accuracy as a function of that cost. */
#include <math.h>
#include <stdint.h>

#include "qrelkit/topics_l2r.h"

const qk_enum qk_cost_speed_table[] = {
    {"eq9", QK_COST_EQ9, "Eq. 9: 15 s a judgment up to 32 per topic, falling to 9 s from 127"},
    {"constant", QK_COST_CONSTANT, "the same --seconds for every judgment (default 15)"},
    {NULL, 0, NULL},
};

void qk_cost_model_init(qk_cost_model *m)
{
    m->speed = QK_COST_EQ9;
    m->seconds = 15;
    m->tdc = 0;
}

double qk_cost_seconds_per_judgment(const qk_cost_model *m, size_t x)
{
    if (m->speed == QK_COST_CONSTANT)
        return m->seconds;
    if (x <= 32)
        return 15;
    if (x < 127)
        return 8.761 + 16.856 * exp(-0.0316 * (double)x);
    return 9;
}

size_t qk_cost_judgments(const qk_cost_model *m, double b, size_t cap)
{
    size_t best = 0;
    if (!(b > 0))
        return 0;
    if (m->speed == QK_COST_CONSTANT) {
        double x = m->seconds > 0 ? floor(b / m->seconds) : INFINITY;
        best = x >= (double)SIZE_MAX ? SIZE_MAX : (size_t)x;
    } else {
        /* the curved part by a scan, then 9 s a judgment (monotone) */
        for (size_t x = 1; x < 127; x++)
            if ((double)x * qk_cost_seconds_per_judgment(m, x) <= b)
                best = x;
        double flat = floor(b / 9);
        if (flat >= 127)
            best = flat >= (double)SIZE_MAX ? SIZE_MAX : (size_t)flat;
    }
    return cap > 0 && best > cap ? cap : best;
}

double qk_cost_accuracy(double tdc)
{
    if (!(tdc > 0))
        return 0.5;
    double a = 0.92 + 0.02 * log2(tdc / 76);
    return a > 1 ? 1 : a < 0.5 ? 0.5 : a;
}

qk_status qk_cost_allocate(const qk_cost_model *m, double budget, size_t ntopics, size_t cap,
                           qk_cost_alloc *out, qk_error *err)
{
    out->judging = out->per_topic = 0;
    out->judgments = 0;
    out->affordable = 0;
    if (ntopics == 0 || !(budget >= 0) || !(m->tdc >= 0))
        return qk_error_set(err, QK_EUSAGE,
                            "the allocation needs at least one topic and a budget and TDC >= 0");
    out->judging = budget - (double)ntopics * m->tdc;
    if (!(out->judging > 0))
        return QK_OK;
    out->per_topic = out->judging / (double)ntopics;
    out->judgments = qk_cost_judgments(m, out->per_topic, cap);
    out->affordable = out->judgments > 0;
    return QK_OK;
}

size_t qk_cost_max_topics(const qk_cost_model *m, double budget)
{
    if (!(m->tdc > 0))
        return SIZE_MAX;
    double k = ceil(budget / m->tdc) - 1;
    return k <= 0 ? 0 : k >= (double)SIZE_MAX ? SIZE_MAX : (size_t)k;
}
