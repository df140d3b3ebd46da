/* Term weights shared by the search engine and the crowd task features, so
 * that "BM25" means one formula in the whole library (text.h). */
#include "qrelkit/text.h"

#include <math.h>

double qk_idf(double n_docs, double df)
{
    return log(n_docs / df);
}

double qk_bm25_idf(double n_docs, double df)
{
    return log(1 + (n_docs - df + 0.5) / (df + 0.5));
}

double qk_bm25_weight(double idf, double tf, double dl, double avgdl, double k1, double b)
{
    return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl));
}

double qk_smooth_idf(double n_docs, double df)
{
    return log((1 + n_docs) / (1 + df)) + 1;
}
