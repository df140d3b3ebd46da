/* Direct SVG line charts (see cli_svg.h). Coordinates are printed with
 * fixed decimals so the same data gives the same bytes everywhere. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_svg.h"

static const char *const palette[] = {"#444444", "#d62728", "#1f77b4", "#2ca02c",
                                      "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"};
#define NPAL (sizeof palette / sizeof palette[0])

static void text_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

void qk_svg_begin(FILE *f, int width, int height)
{
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
            "fill=\"#ffffff\"/>\n",
            width, height, width, height);
}

void qk_svg_end(FILE *f)
{
    fputs("</svg>\n", f);
}

/* A "nice" tick step for the range. */
static double tick_step(double span)
{
    double raw = span / 5, p = pow(10, floor(log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

void qk_svg_panel(FILE *f, double x0, double y0, double w, double h, const char *title, const char *xlabel,
                  const char *ylabel, const qk_svg_series *s, size_t ns, double ymin, double ymax)
{
    double xmin = INFINITY, xmax = -INFINITY, lo = INFINITY, hi = -INFINITY;
    double px = x0 + 60, py = y0 + 30, pw = w - 80, ph = h - 75, step;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            if (isnan(s[k].y[i]))
                continue;
            xmin = fmin(xmin, s[k].x[i]);
            xmax = fmax(xmax, s[k].x[i]);
            lo = fmin(lo, s[k].lo && !isnan(s[k].lo[i]) ? fmin(s[k].lo[i], s[k].y[i]) : s[k].y[i]);
            hi = fmax(hi, s[k].hi && !isnan(s[k].hi[i]) ? fmax(s[k].hi[i], s[k].y[i]) : s[k].y[i]);
        }
    if (!isnan(ymin))
        lo = ymin;
    if (!isnan(ymax))
        hi = ymax;
    if (!(xmax > xmin))
        xmax = xmin + 1;
    if (!(hi > lo)) {
        hi = (isfinite(lo) ? lo : 0) + 1;
        lo = hi - 2;
    }
#define SX(v) (px + ((v)-xmin) / (xmax - xmin) * pw)
#define SY(v) (py + ph - ((v)-lo) / (hi - lo) * ph)
    fprintf(
        f,
        "<g>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#000\"/>\n",
        px, py, pw, ph);
    step = tick_step(hi - lo);
    for (long i = (long)ceil(lo / step); (double)i * step <= hi + 1e-9 * step; i++) {
        double v = (double)i * step;
        fprintf(f,
                "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                px, px + pw, SY(v), SY(v), px - 4, SY(v) + 4, fabs(v) < 1e-12 ? 0.0 : v);
    }
    step = tick_step(xmax - xmin);
    if (step < 1 && xmax - xmin >= 1)
        step = 1;
    for (long i = (long)ceil(xmin / step); (double)i * step <= xmax + 1e-9 * step; i++) {
        double v = (double)i * step;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", SX(v), py + ph + 15, v);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">", px + pw / 2,
            y0 + 18);
    text_escaped(f, title);
    fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px + pw / 2, py + ph + 35);
    text_escaped(f, xlabel);
    fprintf(f, "</text>\n<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\">",
            x0 + 15, py + ph / 2);
    text_escaped(f, ylabel);
    fputs("</text>\n", f);
    for (size_t k = 0; k < ns; k++) {
        const char *col = palette[k % NPAL];
        int first = 1;
        if (s[k].lo && s[k].hi) { /* band: upper edge forward, lower edge back */
            fprintf(f, "<path fill=\"%s\" fill-opacity=\"0.15\" stroke=\"none\" d=\"", col);
            for (size_t i = 0; i < s[k].n; i++)
                if (!isnan(s[k].hi[i])) {
                    fprintf(f, "%s%.1f %.1f ", first ? "M" : "L", SX(s[k].x[i]), SY(s[k].hi[i]));
                    first = 0;
                }
            for (size_t i = s[k].n; i-- > 0;)
                if (!isnan(s[k].lo[i]))
                    fprintf(f, "L%.1f %.1f ", SX(s[k].x[i]), SY(s[k].lo[i]));
            fputs("Z\"/>\n", f);
        }
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", col);
        for (size_t i = 0; i < s[k].n; i++)
            if (!isnan(s[k].y[i]))
                fprintf(f, "%.1f,%.1f ", SX(s[k].x[i]), SY(s[k].y[i]));
        fputs("\"/>\n", f);
        fprintf(f,
                "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>"
                "<text x=\"%.1f\" y=\"%.1f\">",
                px + pw - 150, px + pw - 130, py + ph - 12 - 15.0 * (double)(ns - 1 - k),
                py + ph - 12 - 15.0 * (double)(ns - 1 - k), col, px + pw - 125,
                py + ph - 8 - 15.0 * (double)(ns - 1 - k));
        text_escaped(f, s[k].name);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
#undef SX
#undef SY
}
