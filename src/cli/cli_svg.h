/* Line charts written directly as SVG (no gnuplot needed): panels of
 * series, each a polyline over x with an optional shaded band lo..hi.
 * Used by `simulate topics --plot`; any command can draw with it. */
#ifndef QK_CLI_SVG_H
#define QK_CLI_SVG_H

#include <stddef.h>
#include <stdio.h>

typedef struct qk_svg_series {
    const char *name;
    const double *x, *y;
    const double *lo, *hi; /* band, or NULL */
    size_t n;              /* NaN points are skipped */
} qk_svg_series;

/* An SVG document of width x height pixels with panels side by side. */
void qk_svg_begin(FILE *f, int width, int height);
/* One panel in the box (x0, y0, w, h): axes with ticks, title, labels,
 * the series (colours by index) and a legend. ymin/ymax NaN: from data. */
void qk_svg_panel(FILE *f, double x0, double y0, double w, double h, const char *title, const char *xlabel,
                  const char *ylabel, const qk_svg_series *s, size_t ns, double ymin, double ymax);
void qk_svg_end(FILE *f);

#endif
