/* Reusability (000a §6.8). */
#include "qrelkit/topics.h"

double qk_topics_ar(const unsigned char *judged, size_t depth, size_t njudged, int all_ranks)
{
    double s = 0;
    size_t seen = 0;
    if (njudged == 0)
        return 0;
    for (size_t i = 0; i < depth; i++) {
        seen += judged[i] != 0;
        if (judged[i] || all_ranks)
            s += (double)seen / (double)(i + 1);
    }
    return s / (double)njudged;
}
