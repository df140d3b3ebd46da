/* Calibration of predicted confidences (Carterette, Allan & Sitaraman 2007;
 * spec 002 §7.3-7.4): accuracy per confidence bin and the W statistic, the
 * mean winnings of a bookmaker who sets odds from the predicted confidence.
 * W near 0 means calibrated, W < 0 over-confident, W > 0 under-confident. */
#include <math.h>
#include <string.h>

#include "qrelkit/stats.h"

static const double edges[QK_CALIB_BINS + 1] = {0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0};

double qk_stats_w_term(double p, int correct)
{
    double w;
    if (correct)
        return 1.0; /* (y - P)/(1 - P) with y = 1 */
    if (p >= 1.0)
        return -100.0;
    /* wrong: the bookmaker pays the odds P/(1-P); "we cap -W_i at 100" */
    w = -p / (1.0 - p);
    return w < -100.0 ? -100.0 : w;
}

static size_t bin_of(double p)
{
    for (size_t b = 0; b + 1 < QK_CALIB_BINS; b++)
        if (p < edges[b + 1])
            return b;
    return QK_CALIB_BINS - 1;
}

static void finish(qk_calib_bin *b, double wsum, long total)
{
    b->share = total ? (double)b->pairs / (double)total : NAN;
    b->accuracy = b->pairs ? (double)b->correct / (double)b->pairs : NAN;
    b->w = b->pairs ? wsum / (double)b->pairs : NAN;
}

qk_status qk_stats_calibration(const double *p_neg, const double *true_delta, size_t n,
                               qk_calibration *out, qk_error *err)
{
    qk_ksum wsum[QK_CALIB_BINS], wall = {0, 0};
    memset(out, 0, sizeof *out);
    memset(wsum, 0, sizeof wsum);
    for (size_t b = 0; b < QK_CALIB_BINS; b++) {
        out->bins[b].lo = edges[b];
        out->bins[b].hi = edges[b + 1];
    }
    out->all.lo = 0.5;
    out->all.hi = 1.0;
    for (size_t i = 0; i < n; i++) {
        double p = p_neg[i], d = true_delta[i], w;
        int correct;
        size_t b;
        if (!(p >= 0 && p <= 1) || !isfinite(d))
            return qk_error_set(err, QK_EINPUT, "pair %zu: p_neg %g is not a probability or "
                                                "true_delta %g is not finite", i + 1, p, d);
        /* Orient the prediction: P >= 0.5 predicts delta < 0, otherwise the
         * pair is read the other way round with confidence 1 - P. P = 0.5
         * keeps the given order (spec 002 A10). A true delta of 0 is wrong
         * either way. */
        if (p >= 0.5)
            correct = d < 0;
        else {
            p = 1.0 - p;
            correct = d > 0;
        }
        b = bin_of(p);
        w = qk_stats_w_term(p, correct);
        out->bins[b].pairs++;
        out->bins[b].correct += correct;
        out->bins[b].true_ties += d == 0;
        qk_ksum_add(&wsum[b], w);
        qk_ksum_add(&wall, w);
        out->all.pairs++;
        out->all.correct += correct;
        out->all.true_ties += d == 0;
    }
    for (size_t b = 0; b < QK_CALIB_BINS; b++)
        finish(&out->bins[b], qk_ksum_value(&wsum[b]), out->all.pairs);
    finish(&out->all, qk_ksum_value(&wall), out->all.pairs);
    return QK_OK;
}
