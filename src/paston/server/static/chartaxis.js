// The score chart's geometry, apart from drawing: "nice" value ticks (steps of 1, 2 or 5
// times a power of ten, the axis ending on a tick) and the small offsets that keep tied
// players' lines apart (docs/rules-decisions.md X11).

/** The step of about ``count`` ticks over ``span``: 1, 2 or 5 × 10^k, at least 1 (the
 * scores are whole points). */
export function niceStep(span, count = 4) {
  const raw = Math.max(span, 1) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  const step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
  return Math.max(1, Math.round(step));
}

/** The value axis from ``low`` to ``high``: ``{bottom, top, step, ticks}``, where bottom
 * and top are ticks (multiples of the step, 0 among them whenever it is in range). */
export function niceAxis(low, high, count = 4) {
  const step = niceStep(high - low, count);
  const bottom = Math.floor(low / step) * step;
  let top = Math.ceil(high / step) * step;
  if (top === bottom) top = bottom + step;
  const ticks = [];
  for (let i = 0; bottom + i * step <= top; i++) ticks.push(bottom + i * step);
  return { bottom, top, step, ticks };
}

/** Per seat, the pixels to move its point at each position so that equal values stay
 * apart: ``series`` are the seats' values; seats tied at a position are spread ``gap``
 * pixels apart around the true place, in seat order (a seat alone is not moved). */
export function tieOffsets(series, gap = 3) {
  return series.map((values, s) => values.map((v, i) => {
    const tied = series.map((other) => other[i]).reduce((seats, w, t) => (w === v ? [...seats, t] : seats), []);
    return (tied.indexOf(s) - (tied.length - 1) / 2) * gap;
  }));
}
