export const DAY_MS = 24 * 3600_000;

// The last day utcDay named: events of a request, a batch, a day share it (toISOString per event was 1-1.5 % of a batch's CPU).
let dayStart = 0;
let dayEnd = 0;
let dayName = '';

/** YYYY-MM-DD of the UTC day `d` falls in. */
export function utcDay(d: Date): string {
  const t = d.getTime();
  if (t >= dayStart && t < dayEnd) return dayName;
  const name = d.toISOString().slice(0, 10);
  dayStart = t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
  dayEnd = dayStart + DAY_MS;
  dayName = name;
  return name;
}

// The last time isoTime wrote: the rows of a request, of a set, share their time.
let isoAt = Number.NaN;
let isoText = '';

/** d.toISOString(), remembered for the last time asked (a set's rows ask it for each row of each table). */
export function isoTime(d: Date): string {
  const t = d.getTime();
  if (t === isoAt) return isoText;
  isoText = d.toISOString();
  isoAt = t;
  return isoText;
}
