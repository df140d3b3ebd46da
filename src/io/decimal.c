/* The Eisel-Lemire decimal-to-double conversion (the code is decimal.h's
 * qk_decimal_to_double_inline, called here out of line). With w
 * normalised (top bit set) and 5^q's 128 truncated bits T, the top 64 bits
 * of w * T hold the 54 bits the double and its rounding bit need, plus 9
 * more; when those 9 are all ones, the truncation of T could carry into
 * them and the low half of w * T is added; when even then they are all
 * ones with the lower word all ones, the result could round either way and
 * strtod decides. Halfway cases (the discarded bits exactly one half) can
 * happen only for 10^q exact in 128 bits, q in [-4, 23], and are
 * detected exactly there to round to even. */
#include "io/decimal.h"

double qk_decimal_to_double(uint64_t w, int q)
{
    return qk_decimal_to_double_inline(w, q);
}
